package workload

import (
	"strings"
	"testing"

	"surge/trace"
)

// TestExpander checks the text written for turns without it: exactly the
// input tokens, with or without content blocks and tails; equal block ids
// give equal text, so prompts sharing leading blocks share a text prefix
// exactly as long as those blocks; and a turn without blocks gets text of
// its own.
func TestExpander(t *testing.T) {
	t.Parallel()
	tok, synth := o200k(t)
	e := NewExpander(tok, synth, 7)
	tail := uint64(99)
	s := &trace.Session{Client: "c", Index: 3, Turns: []trace.Turn{
		{InputTokens: 64*3 + 17, Blocks: []uint64{1, 2, 3}, BlockTokens: 64},
		{InputTokens: 64*3 + 5, Blocks: []uint64{1, 2, 4}, BlockTokens: 64},
		{InputTokens: 512*2 + 100, Blocks: []uint64{7, 8}, BlockTokens: 512, TailBlock: &tail},
		{InputTokens: 512*2 + 100, Blocks: []uint64{7, 8}, BlockTokens: 512, TailBlock: &tail},
		{InputTokens: 333},
		{InputTokens: 1},
	}}
	texts := make([]string, len(s.Turns))
	for k, tu := range s.Turns {
		texts[k] = e.Prompt(s, k)
		if n := len(tok.Encode(texts[k])); n != tu.InputTokens {
			t.Errorf("turn %d: %d tokens, want %d", k, n, tu.InputTokens)
		}
	}
	shared := 0
	for shared < len(texts[0]) && texts[0][shared] == texts[1][shared] {
		shared++
	}
	if prefix := texts[0][:shared]; len(tok.Encode(prefix)) < 128 || strings.HasPrefix(texts[1], texts[0]) {
		t.Errorf("turns 0 and 1 share a prefix of %d tokens, want the 128 of blocks 1 and 2 and no more", len(tok.Encode(prefix)))
	}
	if texts[2] != texts[3] {
		t.Error("equal blocks and tail blocks gave different text")
	}
	if again := e.Prompt(s, 4); again != texts[4] {
		t.Error("a turn's text differs between calls")
	}
}
