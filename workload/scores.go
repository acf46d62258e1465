package workload

import (
	"surge/spec"
	"surge/trace"
)

// scoresTurn draws the lengths of a rerank or score request of client c:
// its query's from its input, how many documents it scores (the client's
// documents, one without them, at most spec.MaxScored), then each one's
// length from its document. Each document is scored paired with the
// query, so the turn's InputTokens is the tokens of all the pairs: the
// query's once per document, plus the documents'. The lengths wait in
// b.inputs (the query's first) for their texts, as an embeddings turn's.
func (b *builder) scoresTurn(c *client) trace.Turn {
	n := 1
	if c.Documents != nil {
		n = min(tokens(c.Documents.Sample(b.rng)), spec.MaxScored)
	}
	lens := make([]int, n+1)
	lens[0] = tokens(c.Input.Sample(b.rng))
	t := trace.Turn{InputTokens: n * lens[0]}
	for i := 1; i <= n; i++ {
		lens[i] = tokens(c.Document.Sample(b.rng))
		t.InputTokens += lens[i]
	}
	c.text.label(b.rng, &t)
	b.inputs = append(b.inputs, lens)
	return t
}

// scoresText writes the query and documents of rerank or score turn t,
// of the lengths of the oldest turn waiting in b.inputs, unless the trace
// has no text.
func (b *builder) scoresText(t *trace.Turn) {
	lens := b.inputs[0]
	b.inputs = b.inputs[1:]
	if b.g.noText {
		return
	}
	b.buf = b.prompt(b.buf[:0], b.rng, t, lens[0])
	t.Prompt = string(b.buf)
	t.Documents = make([]string, len(lens)-1)
	for i, n := range lens[1:] {
		b.buf = b.prompt(b.buf[:0], b.rng, t, n)
		t.Documents[i] = string(b.buf)
	}
}
