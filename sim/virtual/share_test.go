package virtual

import (
	"slices"
	"testing"

	"surge/trace"
)

// blockTurn is a turn starting a conversation of in tokens whose prompt
// is the system prompt sys (pool entry 1 when sys > 0) then the blocks of
// ids of per tokens each, after the turns in after.
func blockTurn(in, sys, per int, ids []uint64, after ...int) trace.Turn {
	t := trace.Turn{InputTokens: in, OutputTokens: 1, Blocks: ids, BlockTokens: per, After: after, SystemTokens: sys}
	if sys > 0 {
		t.SystemID = 1
	}
	return t
}

// TestSharedHashesAreThePlainOnes hashes the turns of sessions of content
// blocks in order, as Run does, each from its source's hashes, and checks
// every turn's hashes against a plain run's (one message per block, every
// prompt hashed from its start), and that the source's hashes were used
// for as many KV blocks as the turns share.
func TestSharedHashesAreThePlainOnes(t *testing.T) {
	t.Parallel()
	ids := func(a ...uint64) []uint64 { return a }
	tail := uint64(99)
	tests := []struct {
		reason string
		turns  []trace.Turn
		prefix []int // hashes of KV blocks of 16 tokens taken from the source, by turn
	}{
		{"blocks of 64 tokens: the shared blocks' 4 KV blocks each",
			[]trace.Turn{blockTurn(200, 0, 64, ids(1, 2, 3)), blockTurn(300, 0, 64, ids(1, 2, 4, 5), 0), blockTurn(400, 0, 64, ids(1, 2, 4, 5, 6), 1)},
			[]int{0, 8, 16}},
		{"blocks of 20 tokens straddle KV blocks: ⌊(10 + 3·20)/16⌋ = 4 are shared",
			[]trace.Turn{blockTurn(120, 10, 20, ids(1, 2, 3, 4)), blockTurn(130, 10, 20, ids(1, 2, 3, 9, 8), 0)},
			[]int{0, 4}},
		{"blocks of 7 tokens, smaller than a KV block: ⌊5·7/16⌋ = 2",
			[]trace.Turn{blockTurn(60, 0, 7, ids(1, 2, 3, 4, 5, 6)), blockTurn(60, 0, 7, ids(1, 2, 3, 4, 5, 7), 0)},
			[]int{0, 2}},
		{"every block shared, the rest of each prompt its own",
			[]trace.Turn{blockTurn(70, 0, 16, ids(1, 2, 3)), blockTurn(90, 0, 16, ids(1, 2, 3), 0)},
			[]int{0, 3}},
		{"a tail block is not taken from the source, only the blocks before it",
			[]trace.Turn{func() trace.Turn { t := blockTurn(88, 0, 32, ids(1, 2)); t.TailBlock = &tail; return t }(),
				func() trace.Turn { t := blockTurn(88, 0, 32, ids(1, 2), 0); t.TailBlock = &tail; return t }()},
			[]int{0, 4}},
		{"two turns after the same one both take its hashes",
			[]trace.Turn{blockTurn(100, 0, 32, ids(1, 2, 3)), blockTurn(100, 0, 32, ids(1, 2, 5), 0), blockTurn(100, 0, 32, ids(1, 7, 8), 0)},
			[]int{0, 4, 2}},
		{"a first dependency with another system prompt is no source",
			[]trace.Turn{blockTurn(100, 16, 32, ids(1, 2)), blockTurn(100, 0, 32, ids(1, 2), 0)},
			[]int{0, 0}},
		{"nor one whose first block differs",
			[]trace.Turn{blockTurn(100, 0, 32, ids(1, 2)), blockTurn(100, 0, 32, ids(2, 2), 0)},
			[]int{0, 0}},
		{"nor a later dependency",
			[]trace.Turn{blockTurn(100, 0, 32, ids(1, 2)), blockTurn(100, 0, 32, ids(3)), blockTurn(100, 0, 32, ids(1, 2), 1, 0)},
			[]int{0, 0, 0}},
		{"a turn continuing a block turn's conversation takes all its parent's",
			[]trace.Turn{blockTurn(100, 0, 32, ids(1, 2)), {Parent: new(0), InputTokens: 150, OutputTokens: 1}},
			[]int{0, 6}},
	}
	for _, tt := range tests {
		s := &trace.Session{Client: "c", Model: "m", Turns: tt.turns}
		if err := s.Validate(); err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		hs := &hasher{bt: 16}
		sr, plain := newSessionRun(job{sess: s}, true, false), newSessionRun(job{sess: s}, true, true)
		var msgs []message
		for k := range s.Turns {
			n := len(sr.prefix(k, 16))
			msgs = sr.messages(msgs, k)
			got := sr.hashes(hs, msgs, k)
			sr.leave(k)
			msgs = plain.messages(msgs, k)
			want := plain.hashes(hs, msgs, k)
			plain.leave(k)
			if !slices.Equal(got, want) || len(want) != s.Turns[k].InputTokens/16 || n != tt.prefix[k] {
				t.Errorf("%s: turn %d took %d hashes from its source, want %d; hashes\n%x\nwant %d plain ones\n%x",
					tt.reason, k, n, tt.prefix[k], got, s.Turns[k].InputTokens/16, want)
			}
		}
		for k := range sr.turns {
			if sr.turns[k].hashes != nil || sr.turns[k].heirs != 0 {
				t.Errorf("%s: turn %d still holds %d hashes for %d turns once all are sent", tt.reason, k, len(sr.turns[k].hashes), sr.turns[k].heirs)
			}
		}
	}
}

// TestTailBlock: a tail block names the rest of a prompt as the leading
// tokens of that block, so prompts ending in the same tail share it, and
// with no tail block that rest is the turn's own.
func TestTailBlock(t *testing.T) {
	t.Parallel()
	a, b := uint64(7), uint64(8)
	turn := func(tail *uint64) trace.Turn {
		t := blockTurn(56, 0, 32, []uint64{1})
		t.TailBlock = tail
		return t
	}
	tests := []struct {
		reason string
		x, y   trace.Turn
		shared int
	}{
		{"the same tail block", turn(&a), turn(&a), 3},
		{"another tail block", turn(&a), turn(&b), 2},
		{"no tail block: each turn's own", turn(nil), turn(nil), 2},
		{"a tail block is its block's leading tokens", turn(&a), blockTurn(64, 0, 32, []uint64{1, a}), 3},
	}
	hs := &hasher{bt: 16}
	for _, tt := range tests {
		s := &trace.Session{Client: "c", Model: "m", Turns: []trace.Turn{tt.x, tt.y}}
		sr := newSessionRun(job{sess: s}, true, false)
		hx := hs.hashes(sr.messages(nil, 0), nil)
		hy := hs.hashes(sr.messages(nil, 1), nil)
		if got := shared(hx, hy); got != tt.shared {
			t.Errorf("%s: %d KV blocks shared, want %d", tt.reason, got, tt.shared)
		}
	}
}
