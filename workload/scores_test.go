package workload

import (
	"testing"
)

const scoresSpec = `
version: 1
seed: 5
tokenizer: o200k_base
requests: 40
clients:
  - name: r
    model: m
    api: rerank
    rate: 5/s
    input: {dist: uniform, min: 4, max: 16}
    documents: {dist: uniform, min: 1, max: 8}
    document: {dist: uniform, min: 8, max: 64}
  - name: s
    model: m
    api: score
    rate: 1/s
    input: 6
    document: 20
`

// TestScoresTurns checks a rerank and score trace: each turn holds its
// query and documents, each of a length its client draws and exact for
// the tokenizer, InputTokens the tokens of every query and document pair,
// no output; and a --no-text trace holds the same lengths.
func TestScoresTurns(t *testing.T) {
	t.Parallel()
	tok, _ := o200k(t)
	_, ss := generate(t, parse(t, scoresSpec), Options{})
	_, bare := generate(t, parse(t, scoresSpec), Options{NoText: true})
	if len(ss) != len(bare) {
		t.Fatalf("%d sessions, %d without text", len(ss), len(bare))
	}
	sizes := map[int]bool{}
	for i, s := range ss {
		lo, hi, docs := 8, 64, 0
		if s.API == "score" {
			lo, hi, docs = 20, 20, 1
		}
		for k, turn := range s.Turns {
			q := len(tok.Encode(turn.Prompt))
			sum := 0
			for _, d := range turn.Documents {
				n := len(tok.Encode(d))
				if n < lo || n > hi {
					t.Errorf("session %d turn %d: a document of %d tokens, outside [%d, %d]", i, k, n, lo, hi)
				}
				sum += q + n
			}
			sizes[len(turn.Documents)] = true
			if q == 0 || turn.OutputTokens != 0 || turn.MaxTokens != 0 || sum != turn.InputTokens || len(turn.Documents) == 0 || len(turn.Inputs) != 0 ||
				docs > 0 && (len(turn.Documents) != docs || q != 6) {
				t.Errorf("session %d turn %d: query of %d tokens, output %d, max_tokens %d, %d documents, pairs of %d tokens in all, input_tokens %d",
					i, k, q, turn.OutputTokens, turn.MaxTokens, len(turn.Documents), sum, turn.InputTokens)
			}
			if b := bare[i].Turns[k]; b.InputTokens != turn.InputTokens || len(b.Documents) != 0 || b.Prompt != "" {
				t.Errorf("session %d turn %d: %d tokens with text, %d without (and %d documents)", i, k, turn.InputTokens, b.InputTokens, len(b.Documents))
			}
		}
	}
	if len(sizes) < 5 {
		t.Errorf("documents per request %v: the documents distribution is not drawn", sizes)
	}
}
