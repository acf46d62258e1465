package workload

import (
	"testing"
)

const embeddingsSpec = `
version: 1
seed: 4
tokenizer: o200k_base
requests: 40
clients:
  - name: e
    model: m
    api: embeddings
    rate: 5/s
    input: {dist: uniform, min: 8, max: 64}
    inputs: {dist: uniform, min: 1, max: 6}
  - name: job
    model: m
    api: embeddings
    rate: 1/s
    input: 32
    session: {kind: batch, size: 3}
`

// TestEmbeddingsTurns checks an embeddings trace: each turn holds its
// batch of texts, each of a length its client draws and exact for the
// tokenizer, InputTokens their sum, no output; and a --no-text trace
// holds the same lengths.
func TestEmbeddingsTurns(t *testing.T) {
	t.Parallel()
	tok, _ := o200k(t)
	_, ss := generate(t, parse(t, embeddingsSpec), Options{})
	_, bare := generate(t, parse(t, embeddingsSpec), Options{NoText: true})
	if len(ss) != len(bare) {
		t.Fatalf("%d sessions, %d without text", len(ss), len(bare))
	}
	sizes := map[int]bool{}
	for i, s := range ss {
		for k, turn := range s.Turns {
			sum := 0
			for _, in := range turn.Inputs {
				n := len(tok.Encode(in))
				if n < 8 || n > 64 {
					t.Errorf("session %d turn %d: an input of %d tokens, outside [8, 64]", i, k, n)
				}
				sum += n
			}
			sizes[len(turn.Inputs)] = true
			if turn.Prompt != "" || turn.OutputTokens != 0 || turn.MaxTokens != 0 || sum != turn.InputTokens || len(turn.Inputs) == 0 {
				t.Errorf("session %d turn %d: prompt %q, output %d, max_tokens %d, %d inputs of %d tokens in all, input_tokens %d",
					i, k, turn.Prompt, turn.OutputTokens, turn.MaxTokens, len(turn.Inputs), sum, turn.InputTokens)
			}
			if b := bare[i].Turns[k]; b.InputTokens != turn.InputTokens || len(b.Inputs) != 0 {
				t.Errorf("session %d turn %d: %d tokens with text, %d without (and %d inputs)", i, k, turn.InputTokens, b.InputTokens, len(b.Inputs))
			}
		}
	}
	if len(sizes) < 4 {
		t.Errorf("batch sizes %v: the inputs distribution is not drawn", sizes)
	}
}
