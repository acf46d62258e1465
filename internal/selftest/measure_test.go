package selftest

import (
	"io"
	"testing"

	"surge/trace"
)

// TestCounterWindow: the rate counts the requests finished after the
// warmup, those in flight at the end of the duration included, over the
// window up to the last of them; a point whose every request finished late
// (a process starved of CPU) still measures them.
func TestCounterWindow(t *testing.T) {
	t.Parallel()
	// Finishes in µs; the warmup ends at 200, the duration at 1,000.
	tests := []struct {
		name     string
		finishes []int64
		requests int
		seconds  float64
	}{
		{"inside", []int64{100, 300, 500, 990}, 3, 800e-6},
		{"in flight at the end", []int64{300, 990, 1_200}, 3, 1_000e-6},
		{"all finished late", []int64{1_500, 1_700}, 2, 1_500e-6},
		{"ran out of sessions", []int64{300, 600}, 2, 400e-6},
		{"warmup only", []int64{50, 150}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rw, err := trace.NewRecordWriter(io.Discard, trace.RunHeader{})
			if err != nil {
				t.Fatal(err)
			}
			c := &counter{rw: rw, fromUS: 200, toUS: 1_000}
			for i, done := range tt.finishes {
				r := &trace.Record{Session: i, SentUS: done - 10, E2EUS: 10, Chunks: 4}
				if err := c.Write(r); err != nil {
					t.Fatal(err)
				}
			}
			p := c.point(2)
			if p.Requests != tt.requests || p.Seconds != tt.seconds {
				t.Errorf("requests %d over %gs, want %d over %gs", p.Requests, p.Seconds, tt.requests, tt.seconds)
			}
			if tt.requests > 0 && p.TokenEventsPerS != 4*p.RequestsPerS {
				t.Errorf("%g events/s at %g requests/s, want 4 per request", p.TokenEventsPerS, p.RequestsPerS)
			}
		})
	}
}
