package openai

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// collect feeds pieces to a fresh parser in order and returns every event as
// "name|data", followed by what Finish dispatches.
func collect(pieces ...[]byte) []string { return collectLimit(0, pieces...) }

// collectLimit is collect with the parser's Limit set; when the parser
// stops at the limit, the last element is its error.
func collectLimit(limit int, pieces ...[]byte) []string {
	p := Parser{Limit: limit}
	var out []string
	for _, b := range pieces {
		p.Feed(b)
		for ev, ok := p.Next(); ok; ev, ok = p.Next() {
			out = append(out, string(ev.Name)+"|"+string(ev.Data))
		}
	}
	if ev, ok := p.Finish(); ok {
		out = append(out, string(ev.Name)+"|"+string(ev.Data)+"|finish")
	}
	if err := p.Err(); err != nil {
		out = append(out, "error: "+err.Error())
	}
	return out
}

// bytewise splits b into one-byte pieces.
func bytewise(b []byte) [][]byte {
	out := make([][]byte, len(b))
	for i := range b {
		out[i] = b[i : i+1]
	}
	return out
}

// randomPieces splits b into pieces of random length 1..max.
func randomPieces(r *rand.Rand, b []byte, max int) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		n := min(1+r.IntN(max), len(b))
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}

func TestParserGrammar(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     string
		want   []string
		reason string
	}{
		{"data: a\n\n", []string{"|a"}, "one event"},
		{"data: a\r\n\r\n", []string{"|a"}, "CRLF line ends"},
		{"data: a\r\rdata: b\r\r", []string{"|a", "|b"}, "CR line ends"},
		{"data: a\n\r\ndata: b\r\n\n", []string{"|a", "|b"}, "mixed line ends"},
		{"data: a\ndata: b\ndata:\n\n", []string{"|a\nb\n"}, "data lines join with LF, empty one included"},
		{"data:a\n\n", []string{"|a"}, "no space after the colon"},
		{"data:  a\n\n", []string{"| a"}, "only one space is dropped"},
		{"data\n\n", []string{"|"}, "field without colon is data with empty value"},
		{": keep-alive\n\ndata: a\n: mid-event comment\n\n", []string{"|a"}, "comments are ignored"},
		{"event: ping\n\ndata: a\n\n", []string{"|a"}, "an event without data is dropped with its type"},
		{"event: delta\nid: 7\nretry: 3000\ndata: a\n\n", []string{"delta|a"}, "event, id and retry fields"},
		{"unknown: x\ndata: a\n\n", []string{"|a"}, "unknown fields are ignored"},
		{"data: a\n\ndata: b", []string{"|a", "|b|finish"}, "Finish takes an unterminated last line"},
		{"data: [DONE]\n", []string{"|[DONE]|finish"}, "Finish dispatches without the blank line"},
		{"\xEF\xBB\xBFdata: a\n\n", []string{"|a"}, "leading BOM is skipped"},
		{"data: a\n\n\xEF\xBB\xBFdata: b\n\n", []string{"|a"}, "a BOM later is part of the field name"},
		{"error: {\"message\":\"x\"}\n\n", []string{`error|{"message":"x"}`}, "llama-server's error field"},
		{"event: error\ndata: {}\n\n", []string{"error|{}"}, "a standard error event"},
		{"\n\n\n", nil, "blank lines alone dispatch nothing"},
		{"", nil, "empty stream"},
		{"data: a", []string{"|a|finish"}, "stream cut in the last line"},
	}
	for _, tt := range tests {
		if got := collect([]byte(tt.in)); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q gave %q, want %q", tt.reason, tt.in, got, tt.want)
		}
	}
}

func TestParserFields(t *testing.T) {
	t.Parallel()
	var p Parser
	p.Feed([]byte("id: 42\nretry: 1500\ndata: a\n\nid: bad\x00\nretry: soon\ndata: b\n\n"))
	n := 0
	for _, ok := p.Next(); ok; _, ok = p.Next() {
		n++
	}
	if n != 2 {
		t.Fatalf("got %d events, want 2", n)
	}
	if string(p.LastID()) != "42" {
		t.Errorf("LastID = %q, want 42 (an id with NUL is ignored)", p.LastID())
	}
	if p.Retry() != 1500*time.Millisecond {
		t.Errorf("Retry = %v, want 1.5s (a non-numeric retry is ignored)", p.Retry())
	}
	p.Reset()
	if p.LastID() != nil && len(p.LastID()) != 0 || p.Retry() != 0 {
		t.Errorf("Reset kept id %q retry %v", p.LastID(), p.Retry())
	}
}

func TestEventDone(t *testing.T) {
	t.Parallel()
	tests := []struct {
		data   string
		want   bool
		reason string
	}{
		{"[DONE]", true, "the sentinel"},
		{" [DONE] ", true, "surrounding space tolerated"},
		{"[DONE]x", false, "more than the sentinel"},
		{`{"done":true}`, false, "JSON is data"},
	}
	for _, tt := range tests {
		ev := Event{Data: []byte(tt.data)}
		if got := ev.Done(); got != tt.want {
			t.Errorf("%s: Done(%q) = %v", tt.reason, tt.data, got)
		}
	}
}

// streamFiles returns the SSE test streams.
func streamFiles(t testing.TB) map[string][]byte {
	t.Helper()
	names, err := filepath.Glob("testdata/*.sse")
	if err != nil || len(names) == 0 {
		t.Fatalf("no test streams: %v", err)
	}
	out := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(n)] = b
	}
	return out
}

// lineEndings returns b with its LF line ends also as CRLF and as CR.
func lineEndings(b []byte) map[string][]byte {
	return map[string][]byte{
		"LF":   b,
		"CRLF": bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")),
		"CR":   bytes.ReplaceAll(b, []byte("\n"), []byte("\r")),
	}
}

func TestParserSplitInvariance(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for name, b := range streamFiles(t) {
		for ending, s := range lineEndings(b) {
			want := collect(s)
			if len(want) == 0 {
				t.Fatalf("%s %s: no events", name, ending)
			}
			if got := collect(bytewise(s)...); !slices.Equal(got, want) {
				t.Errorf("%s %s: byte by byte gave %q, want %q", name, ending, got, want)
			}
			for range 20 {
				if got := collect(randomPieces(r, s, 64)...); !slices.Equal(got, want) {
					t.Errorf("%s %s: random pieces gave %q, want %q", name, ending, got, want)
				}
			}
			for i := range len(s) + 1 {
				if got := collect(s[:i], s[i:]); !slices.Equal(got, want) {
					t.Fatalf("%s %s: split at %d gave %q, want %q", name, ending, i, got, want)
				}
			}
		}
	}
}

func TestParserHugeLine(t *testing.T) {
	t.Parallel()
	payload := strings.Repeat("x", 4<<20)
	s := []byte("data: " + payload + "\n\ndata: [DONE]\n\n")
	var p Parser
	var got []int
	for len(s) > 0 {
		n := min(64<<10, len(s))
		p.Feed(s[:n])
		s = s[n:]
		for ev, ok := p.Next(); ok; ev, ok = p.Next() {
			got = append(got, len(ev.Data))
		}
	}
	if want := []int{4 << 20, 6}; !slices.Equal(got, want) {
		t.Errorf("event sizes %v, want %v", got, want)
	}
}

// TestParserLimit checks that a line or an event past the Limit stops the
// parser, whatever the split, quoting the start, while events within it
// pass; and that a line without an end held at the cap keeps no more
// than about the cap.
func TestParserLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     string
		want   []string
		reason string
	}{
		{"data: 0123456789\n\n", []string{"|0123456789"}, "a line of exactly the limit (16) passes"},
		{"data: 0123456789a\n\ndata: b\n\n", []string{`error: an SSE line or event longer than 16 bytes (the event cap) starting "data: 0123456789"`}, "one byte over"},
		{"data: a\n\ndata: 0123456789abcdef", []string{"|a", `error: an SSE line or event longer than 16 bytes (the event cap) starting "data: 0123456789"`}, "an unterminated line after a good event"},
		{"data: 0123456\ndata: 012345678\n\n", []string{`error: an SSE line or event longer than 16 bytes (the event cap) starting "0123456012345678"`}, "data lines joined past the limit"},
		{": comment comment comment\n", []string{`error: an SSE line or event longer than 16 bytes (the event cap) starting ": comment commen"`}, "even a comment line"},
	}
	for _, tt := range tests {
		b := []byte(tt.in)
		for name, pieces := range map[string][][]byte{"whole": {b}, "bytewise": bytewise(b)} {
			if got := collectLimit(16, pieces...); !slices.Equal(got, tt.want) {
				t.Errorf("%s, %s: got %q, want %q", tt.reason, name, got, tt.want)
			}
		}
	}

	p := Parser{Limit: 1 << 20}
	chunk := bytes.Repeat([]byte("x"), 4<<10)
	for range 1024 { // 4 MiB, one line
		p.Feed(chunk)
		for _, ok := p.Next(); ok; _, ok = p.Next() {
			t.Fatal("an event from a line without an end")
		}
	}
	if p.Err() == nil || cap(p.line) > 2<<20 {
		t.Errorf("4 MiB without a line end under a 1 MiB limit: err %v, line buffer %d bytes", p.Err(), cap(p.line))
	}
}

func TestParserFeedBeforeDrainPanics(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("Feed over undrained bytes did not panic")
		}
	}()
	var p Parser
	p.Feed([]byte("data: a\n\ndata: b\n\n"))
	p.Next()
	p.Feed([]byte("data: c\n\n"))
}
