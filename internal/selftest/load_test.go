package selftest

import (
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"surge/trace"
)

func TestWarnFor(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fabricated := Result{Version: "v1", CPUs: runtime.NumCPU(), Tokens: 64, At: time.Now().UTC(),
		Points: []Point{{Concurrency: 64, RequestsPerS: 1_000, TokenEventsPerS: 64_000}}}
	current := filepath.Join(dir, "current.json")
	stale := filepath.Join(dir, "stale.json")
	old := fabricated
	old.Version = "v0"
	for p, r := range map[string]Result{current: fabricated, stale: old} {
		if err := Save(p, r); err != nil {
			t.Fatal(err)
		}
	}
	closed := func(n int) trace.Header {
		return trace.Header{Clients: []trace.ClientInfo{{Name: "c", Model: "m", Concurrency: n}}}
	}
	tests := []struct {
		reason string
		path   string
		h      trace.Header
		warn   bool
	}{
		{"400 streams need 40,000 events/s, more than half of 64,000", current, closed(400), true},
		{"10 streams are well within", current, closed(10), false},
		{"a self-test of another build says nothing", stale, closed(400), false},
		{"no self-test, no warning", filepath.Join(dir, "none.json"), closed(400), false},
	}
	for _, tt := range tests {
		if got := WarnFor(tt.path, "v1", tt.h, nil); (got != "") != tt.warn {
			t.Errorf("%s: warning %q, want one: %v", tt.reason, got, tt.warn)
		}
	}
}

func TestRequestedLoad(t *testing.T) {
	t.Parallel()
	open := func(n int, everyUS int64, turns int) []*trace.Session {
		ss := make([]*trace.Session, n)
		for i := range ss {
			ss[i] = &trace.Session{Client: "o", AtUS: int64(i) * everyUS, Turns: make([]trace.Turn, turns)}
		}
		return ss
	}
	h := trace.Header{Clients: []trace.ClientInfo{{Name: "o"}, {Name: "a", Concurrency: 8}, {Name: "b", Concurrency: 4}}}
	burst := append(open(100, 10_000, 1), &trace.Session{Client: "o", AtUS: 5_000_000, Turns: make([]trace.Turn, 1)})
	tests := []struct {
		reason   string
		sessions []*trace.Session
		rate     float64
	}{
		{"100 req/s for 10 s", open(1000, 10_000, 1), 100},
		{"turns count at their session's start", open(1000, 10_000, 3), 300},
		{"100 in the first second, then one: the peak", burst, 100},
		{"closed-loop sessions have no rate", []*trace.Session{{Client: "a", Turns: make([]trace.Turn, 5)}}, 0},
		{"nothing", nil, 0},
	}
	for _, tt := range tests {
		rate, conc := RequestedLoad(h, tt.sessions)
		if rate != tt.rate || conc != 12 {
			t.Errorf("%s: %v req/s, concurrency %d; want %v and 12 (8+4)", tt.reason, rate, conc, tt.rate)
		}
	}
}
