package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"surge/trace"
)

// repeatTrace writes a trace of n single-turn sessions of client "c", the
// i-th sent at i·every µs with prompt(i) as its text (1,000 tokens) and 50
// output tokens, and returns its path.
func repeatTrace(t *testing.T, n int, everyUS int64, prompt func(i int) string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tw, err := trace.NewWriter(f, trace.Header{Tokenizer: "o200k_base", Text: true,
		Clients: []trace.ClientInfo{{Name: "c", Model: "Llama-3.1-8B"}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		s := &trace.Session{Client: "c", Index: i, AtUS: int64(i) * everyUS, Model: "Llama-3.1-8B", API: "chat",
			Turns: []trace.Turn{{InputTokens: 1000, OutputTokens: 50, Prompt: prompt(i)}}}
		if err := tw.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// simRecords runs surge sim on path with the extra flags and returns its
// records, in the order they were written.
func simRecords(t *testing.T, path string, flags ...string) *trace.Records {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "sim")
	args := append([]string{"sim", path, "--model", "llama-3.1-8b", "--gpu", "h100", "-o", dir}, flags...)
	if code, out, errOut := run(t, args...); code != exitOK {
		t.Fatalf("surge %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out, errOut)
	}
	return readRun(t, dir)
}

// TestSimNoPrefixCaching sends the same prompt ten times, a second apart,
// so each request finds the one before it in the prefix cache, unless
// --no-prefix-caching turns the cache off.
func TestSimNoPrefixCaching(t *testing.T) {
	t.Parallel()
	same := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 100)
	path := repeatTrace(t, 10, 1_000_000, func(int) string { return same })
	tests := []struct {
		reason string
		flags  []string
		cached bool // every request after the first finds cached tokens
	}{
		{"prefix caching is on by default, as in vLLM V1", nil, true},
		{"--no-prefix-caching turns it off", []string{"--no-prefix-caching"}, false},
		{"so does vLLM's spelling", []string{"--no-enable-prefix-caching"}, false},
	}
	for _, tt := range tests {
		rs := simRecords(t, path, tt.flags...)
		if len(rs.Records) != 10 {
			t.Fatalf("%s: %d records, want 10", tt.reason, len(rs.Records))
		}
		if got := strings.Contains(rs.Header.Target, "prefix-caching=off"); got == tt.cached {
			t.Errorf("%s: target %q", tt.reason, rs.Header.Target)
		}
		t.Logf("%s: cached tokens of the last request %d of %d", tt.reason, rs.Records[9].CachedTokens, rs.Records[9].InputTokens)
		for i, r := range rs.Records {
			if !r.OK() || (i > 0 && tt.cached) != (r.CachedTokens > 0) || r.CachedTokens >= r.InputTokens {
				t.Errorf("%s: record %d has %d cached tokens of %d (%+v)", tt.reason, i, r.CachedTokens, r.InputTokens, r)
			}
		}
	}
}

// TestSimMaxNumSeqsSerialises sends ten different prompts at once. The
// default engine batches them; with --max-num-seqs 1 it runs one at a
// time, so each request's first token comes after the previous request's
// last, and the last request waits for all the others.
func TestSimMaxNumSeqsSerialises(t *testing.T) {
	t.Parallel()
	path := repeatTrace(t, 10, 0, func(i int) string {
		return strings.Repeat(fmt.Sprintf("request %d asks about something else entirely. ", i), 125)
	})
	batched := simRecords(t, path).Records
	serial := simRecords(t, path, "--max-num-seqs", "1")
	if !strings.Contains(serial.Header.Target, "max-num-seqs=1") {
		t.Errorf("target %q does not say --max-num-seqs 1", serial.Header.Target)
	}
	recs := serial.Records
	if len(recs) != 10 || len(batched) != 10 {
		t.Fatalf("%d and %d records, want 10 each", len(batched), len(recs))
	}
	recs = slices.Clone(recs)
	slices.SortFunc(recs, func(a, b trace.Record) int { return int(a.TTFTUS - b.TTFTUS) })
	for i := 1; i < len(recs); i++ {
		prev, r := recs[i-1], recs[i]
		if first, prevLast := r.SentUS+r.TTFTUS, prev.SentUS+prev.E2EUS; first <= prevLast {
			t.Errorf("request %d's first token at %d µs, before request %d's last at %d µs: two ran at once",
				r.Session, first, prev.Session, prevLast)
		}
	}
	worst := func(rs []trace.Record) int64 {
		var w int64
		for _, r := range rs {
			w = max(w, r.TTFTUS)
		}
		return w
	}
	// Nine requests of 50 decode steps each come before the last one: its
	// wait is far longer than any TTFT of the batched run.
	s, b := worst(recs), worst(batched)
	t.Logf("worst TTFT: %d µs with --max-num-seqs 1, %d µs batched", s, b)
	if s < 5*b {
		t.Errorf("worst TTFT %d µs with --max-num-seqs 1, %d µs batched: want serial far slower", s, b)
	}
}
