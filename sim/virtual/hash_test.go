package virtual

import (
	"slices"
	"strings"
	"testing"

	"surge/trace"
)

func TestBlockHashes(t *testing.T) {
	t.Parallel()
	prefix := strings.Repeat("x", 64*3)
	a := blockHashes(prefix+strings.Repeat("a", 64*2), 64, 80, 16)
	b := blockHashes(prefix+strings.Repeat("b", 64*2), 64, 80, 16)
	tests := []struct {
		reason string
		got    []uint64
		want   int
	}{
		{"one hash per full block of text and tokens", a, 5},
		{"the token count caps the blocks", blockHashes(prefix, 64, 20, 16), 1},
		{"the text caps the blocks", blockHashes(prefix, 64, 1000, 16), 3},
		{"a prompt shorter than a block has none", blockHashes("short", 64, 3, 16), 0},
		{"no text, no hashes", blockHashes("", 0, 100, 16), 0},
	}
	for _, tt := range tests {
		if len(tt.got) != tt.want {
			t.Errorf("%s: %d hashes, want %d", tt.reason, len(tt.got), tt.want)
		}
	}
	if !slices.Equal(a[:3], b[:3]) {
		t.Error("an identical 3-block prefix gave different hashes")
	}
	if a[3] == b[3] || a[4] == b[4] {
		t.Error("different 4th and 5th blocks gave equal hashes")
	}
	// Chaining: the same block text after a different prefix hashes differently.
	c := blockHashes(strings.Repeat("y", 64)+strings.Repeat("x", 64), 64, 8, 4)
	if c[1] == a[1] {
		t.Error("block 2 hashed equal after different first blocks")
	}
}

func TestBlockBytes(t *testing.T) {
	t.Parallel()
	ss := []*trace.Session{session(0, 0, 100, 1), session(1, 0, 300, 1)}    // 4 bytes per token
	ss = append(ss, &trace.Session{Turns: []trace.Turn{{InputTokens: 50}}}) // no text: ignored
	if got := blockBytes(ss, 16); got != 64 {
		t.Errorf("block bytes %d, want 16 tokens × 4 bytes = 64", got)
	}
	if got := blockBytes(ss[2:], 16); got != 0 {
		t.Errorf("block bytes %d without text, want 0", got)
	}
}
