package importers

import (
	"errors"
	"io"
	"strings"
	"testing"

	"surge/trace"
)

// TestSkipBad skips and counts malformed and out-of-order rows, keeping
// the first five, and measures offsets from the first good row.
func TestSkipBad(t *testing.T) {
	t.Parallel()
	data := "TIMESTAMP,ContextTokens,GeneratedTokens\n" +
		"garbage,1,1\n" + // line 2
		"2023-11-16 18:00:01,10,1\n" +
		"2023-11-16 18:00:02,x,1\n" + // 4
		"2023-11-16 18:00:00,10,1\n" + // 5: before line 3
		"2023-11-16 18:00:03,10,1\n" +
		"2023-11-16 18:00:04,10\n" + // 7
		"2023-11-16 18:00:05,-1,1\n" + // 8
		"2023-11-16 18:00:06,1,-1\n" + // 9
		"2023-11-16 18:00:07,20,2\n"
	st, err := importAll(data, Options{Name: "a.csv", SkipBad: true})
	if err != nil {
		t.Fatal(err)
	}
	sk := st.Skipped()
	var lines []int
	for _, e := range sk.First {
		lines = append(lines, e.Line)
	}
	if st.Sessions() != 3 || sk.Rows != 6 || len(lines) != 5 || lines[0] != 2 || lines[4] != 8 {
		t.Errorf("%d sessions, %d skipped, first at lines %v; want 3, 6, [2 4 5 7 8]", st.Sessions(), sk.Rows, lines)
	}
	if got := sk.First[2].Error(); !strings.HasPrefix(got, "a.csv:5: arrival -1s is before") {
		t.Errorf("out-of-order row: %q", got)
	}
	ss := drain(t, must(NewAzure(strings.NewReader(data), Options{SkipBad: true})))
	if got, _ := starts(ss); len(got) != 3 || got[0] != 0 || got[1] != 2 || got[2] != 6 {
		t.Errorf("starts %v, want [0 2 6] s from the first good row", got)
	}
}

// must returns s, panicking on err: for test inputs known to be good.
func must(s *Stream, err error) *Stream {
	if err != nil {
		panic(err)
	}
	return s
}

// TestLineReader reads lines with any ending, the last without one, and
// refuses a line over the limit without holding it, going on after it.
func TestLineReader(t *testing.T) {
	t.Parallel()
	lr := newLineReader(strings.NewReader("a\r\nbb\n" + strings.Repeat("x", 100) + "\n\nlast"))
	lr.limit = 50
	var got []string
	for {
		line, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		var re *RowError
		if errors.As(err, &re) {
			got = append(got, re.Error())
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(line))
	}
	if want := "a|bb|line 3: longer than 50 bytes||last"; strings.Join(got, "|") != want {
		t.Errorf("lines %q, want %q", strings.Join(got, "|"), want)
	}
}

// TestTailBlockValid checks the trace's rules for the tail block the
// Mooncake import sets: a rest of 1 to BlockTokens−1 tokens after the
// blocks, on a turn starting a conversation.
func TestTailBlockValid(t *testing.T) {
	t.Parallel()
	id, parent := uint64(7), 0
	tests := []struct {
		reason string
		turn   trace.Turn
		want   string // "" for valid
	}{
		{"a cut-short last block", trace.Turn{InputTokens: 1030, BlockTokens: 512, Blocks: []uint64{1, 2}, TailBlock: &id}, ""},
		{"a prompt shorter than a block", trace.Turn{InputTokens: 13, BlockTokens: 512, TailBlock: &id}, ""},
		{"no rest after the blocks", trace.Turn{InputTokens: 1024, BlockTokens: 512, Blocks: []uint64{1, 2}, TailBlock: &id}, "tail_block on a rest of 0 tokens"},
		{"a rest of a whole block", trace.Turn{InputTokens: 1536, BlockTokens: 512, Blocks: []uint64{1, 2}, TailBlock: &id}, "tail_block on a rest of 512 tokens"},
		{"no block size", trace.Turn{InputTokens: 13, TailBlock: &id}, "tail_block with block_tokens 0"},
	}
	for _, tt := range tests {
		s := &trace.Session{Turns: []trace.Turn{{InputTokens: 1}, tt.turn}}
		err := s.Validate()
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: got %v, want %q", tt.reason, err, tt.want)
		}
	}
	s := &trace.Session{Turns: []trace.Turn{{InputTokens: 1}, {Parent: &parent, InputTokens: 13, BlockTokens: 512, TailBlock: &id}}}
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "tail_block on a turn continuing a conversation") {
		t.Errorf("tail block on a continuing turn: got %v", err)
	}
}
