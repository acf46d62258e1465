package workload

import (
	"surge/openai"
	"surge/spec"
	"surge/trace"
)

// embeddingsTurn draws the lengths of an embeddings request of client c:
// how many texts it embeds (the client's inputs, one without them, at
// most spec.MaxInputs), then each one's length from its input; the
// turn's InputTokens is their sum, and it generates nothing. The lengths
// wait in b.inputs for their texts, which are drawn once all of the
// session's lengths are, so a --no-text trace holds the same workload.
func (b *builder) embeddingsTurn(c *client) trace.Turn {
	n := 1
	if c.Inputs != nil {
		n = min(tokens(c.Inputs.Sample(b.rng)), spec.MaxInputs)
	}
	lens := make([]int, n)
	var t trace.Turn
	for i := range lens {
		lens[i] = tokens(c.Input.Sample(b.rng))
		t.InputTokens += lens[i]
	}
	c.text.label(b.rng, &t)
	b.inputs = append(b.inputs, lens)
	return t
}

// text writes the text of turn t of client c, unless the trace has none:
// a prompt of its input tokens less the system prompt's or, for an
// embeddings turn, a text of each length of the oldest turn waiting in
// b.inputs (for a rerank or score turn, its query and documents).
func (b *builder) text(c *client, t *trace.Turn) {
	if openai.Scores(c.API) {
		b.scoresText(t)
		return
	}
	if c.API != openai.APIEmbeddings {
		if !b.g.noText {
			b.buf = b.prompt(b.buf[:0], b.rng, t, t.InputTokens-t.SystemTokens)
			t.Prompt = string(b.buf)
		}
		return
	}
	lens := b.inputs[0]
	b.inputs = b.inputs[1:]
	if b.g.noText {
		return
	}
	t.Inputs = make([]string, len(lens))
	for i, n := range lens {
		b.buf = b.prompt(b.buf[:0], b.rng, t, n)
		t.Inputs[i] = string(b.buf)
	}
}
