package virtual

import (
	"slices"
	"strings"
	"testing"

	"surge/trace"
)

// shared returns how many leading hashes a and b have in common.
func shared(a, b []uint64) int {
	n := 0
	for n < min(len(a), len(b)) && a[n] == b[n] {
		n++
	}
	return n
}

func TestHashesShareExactlyTheSharedBlocks(t *testing.T) {
	t.Parallel()
	sys := func(id uint64, n int) message { return message{tokens: n, id: ident(kindSystem, 1, id)} }
	user := func(turn uint64, n int) message { return message{tokens: n, id: ident(kindUser, 7, turn)} }
	text := func(turn uint64, n int, s string) message {
		return message{tokens: n, id: ident(kindUser, 7, turn), text: s, role: kindUser}
	}
	hs := &hasher{bt: 16, bb: 64} // 4 bytes a token
	tests := []struct {
		reason string
		a, b   []message
		na, nb int // hashes: full blocks
		shared int
	}{
		{"a block straddling the system prompt and the user message hashes both",
			[]message{sys(1, 20), user(0, 30)}, []message{sys(1, 20), user(1, 30)}, 3, 3, 1},
		{"a system prompt of whole blocks is shared whole",
			[]message{sys(1, 32), user(0, 30)}, []message{sys(1, 32), user(1, 30)}, 3, 3, 2},
		{"distinct system prompts share nothing",
			[]message{sys(1, 32), user(0, 30)}, []message{sys(2, 32), user(0, 30)}, 3, 3, 0},
		{"the same content at another offset is other tokens",
			[]message{sys(1, 16), user(0, 32)}, []message{sys(1, 32), user(0, 16)}, 3, 3, 1},
		{"messages of no tokens add nothing",
			[]message{sys(1, 0), user(0, 40)}, []message{user(0, 40)}, 2, 2, 2},
		{"equal texts are equal content, whoever sends them",
			[]message{text(0, 48, strings.Repeat("abcd", 48))}, []message{text(9, 48, strings.Repeat("abcd", 48))}, 3, 3, 3},
		{"texts share the blocks of their common prefix",
			[]message{text(0, 48, strings.Repeat("x", 128)+strings.Repeat("a", 64))},
			[]message{text(1, 48, strings.Repeat("x", 128)+strings.Repeat("b", 64))}, 3, 3, 2},
		{"tokens past the end of a text belong to their message alone",
			[]message{text(0, 48, strings.Repeat("x", 100))}, []message{text(1, 48, strings.Repeat("x", 100))}, 3, 3, 1},
	}
	for _, tt := range tests {
		a, b := hs.hashes(tt.a, nil), hs.hashes(tt.b, nil)
		if len(a) != tt.na || len(b) != tt.nb || shared(a, b) != tt.shared {
			t.Errorf("%s: %d and %d hashes sharing %d, want %d and %d sharing %d",
				tt.reason, len(a), len(b), shared(a, b), tt.na, tt.nb, tt.shared)
		}
	}
}

// TestHashesContinueTheParent: a turn's hashes computed from its parent's
// equal those computed from scratch, and extend them.
func TestHashesContinueTheParent(t *testing.T) {
	t.Parallel()
	hs := &hasher{bt: 16, bb: 64}
	parent := []message{{tokens: 21, id: 1}, {tokens: 30, id: 2, text: strings.Repeat("p", 120), role: kindUser}}
	child := append(slices.Clone(parent), message{tokens: 9, id: 3}, message{tokens: 40, id: 4})
	ph := hs.hashes(parent, nil)
	fresh, cont := hs.hashes(child, nil), hs.hashes(child, ph)
	if len(ph) != 3 || len(fresh) != 6 || !slices.Equal(fresh, cont) || shared(ph, fresh) != 3 {
		t.Errorf("parent %x\nchild from scratch %x\nchild continued %x\nwant 3 and 6 hashes, the child's equal and extending the parent's",
			ph, fresh, cont)
	}
	if hs.hashes([]message{{tokens: 15, id: 1}}, nil) != nil {
		t.Error("a prompt shorter than a block has hashes")
	}
}

// chat3 is a three-turn conversation: a 10-token system prompt; user
// messages of 20, 15 and 13 tokens; replies of 5 and 7 tokens.
func chat3() *trace.Session {
	p0, p1 := 0, 1
	return &trace.Session{Client: "c", Turns: []trace.Turn{
		{SystemID: 1, SystemTokens: 10, InputTokens: 30, OutputTokens: 5, Prompt: strings.Repeat("u", 80)},
		{Parent: &p0, InputTokens: 50, OutputTokens: 7},
		{Parent: &p1, InputTokens: 70, OutputTokens: 4},
	}}
}

func TestMessages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		pinned bool
		out    []int // the engine's output of each turn
		turn   int
		want   []int // token counts
	}{
		{"a root sends its system prompt and user message", true, nil, 0, []int{10, 20}},
		{"pinned history carries the trace's replies", true, []int{3, 6}, 2, []int{10, 20, 5, 15, 7, 13}},
		{"live history carries the engine's replies", false, []int{3, 6}, 2, []int{10, 20, 3, 15, 6, 13}},
	}
	for _, tt := range tests {
		sr := newSessionRun(job{sess: chat3(), key: 4}, tt.pinned, false)
		for k, n := range tt.out {
			sr.turns[k].out = n
		}
		msgs := sr.messages(nil, tt.turn)
		var got []int
		for _, m := range msgs {
			got = append(got, m.tokens)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: message tokens %v, want %v", tt.reason, got, tt.want)
		}
		if tt.pinned && promptLen(msgs) != sr.s.Turns[tt.turn].InputTokens {
			t.Errorf("%s: prompt of %d tokens, want InputTokens %d", tt.reason, promptLen(msgs), sr.s.Turns[tt.turn].InputTokens)
		}
	}
	sr := newSessionRun(job{sess: chat3(), key: 4}, true, false)
	if m := sr.messages(nil, 2); m[1].text == "" || m[3].text != "" || m[0].id == sr.messages(nil, 0)[1].id {
		t.Errorf("messages %+v: want turn 0's user message named by its text, turn 1's by its id", m)
	}
}

func TestTextRatio(t *testing.T) {
	t.Parallel()
	ss := []*trace.Session{session(0, 0, 100, 1), session(1, 0, 300, 1)}    // 4 bytes per token
	ss = append(ss, &trace.Session{Turns: []trace.Turn{{InputTokens: 50}}}) // no text: ignored
	if got := tally(ss).ratio(16); got != 64 {
		t.Errorf("block bytes %d, want 16 tokens × 4 bytes = 64", got)
	}
	if got := tally(ss[2:]).ratio(16); got != 0 {
		t.Errorf("block bytes %d without text, want 0", got)
	}
	// chat3: 80 bytes for 20 user tokens at the root; the rest has no text.
	if got := tally([]*trace.Session{chat3()}).ratio(16); got != 64 {
		t.Errorf("block bytes %d in a conversation, want 64 from the root's user message alone", got)
	}
}
