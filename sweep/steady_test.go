package sweep

import (
	"math"
	"testing"

	"surge/trace"
)

// TestSteady checks the loaded interval: 11 requests sent one a second
// from t = 0 to 10 s, each taking 2.5 s, so the completions at 2.5 … 9.5 s
// (8 of them) fall inside it and the drain's are left out; the failed one
// does not count, and the warmup request, sent before the interval and
// done inside it, counts as completed (it was load) but not as sent.
func TestSteady(t *testing.T) {
	t.Parallel()
	var recs []trace.Record
	for i := range 11 {
		at := int64(i) * 1_000_000
		recs = append(recs, trace.Record{IntendedUS: at, SentUS: at, E2EUS: 2_500_000, ServerOutputTokens: 100})
	}
	recs[3].ErrorClass = "http_5xx"
	recs = append(recs, trace.Record{Warmup: true, IntendedUS: -1_000_000, SentUS: 0, E2EUS: 1})
	st := SteadyOf(recs)
	// 8 completions in the interval, less the failed one (done at 5.5 s),
	// plus the warmup one.
	if st.Seconds != 10 || st.Sent != 11 || st.Completed != 8 || math.Abs(st.RequestsPerS-0.8) > 1e-12 || math.Abs(st.OutputTokensPerS-70) > 1e-9 {
		t.Fatalf("steady %+v, want 11 sent, 8 completed and 700 tokens over 10 s", st)
	}
	if (SteadyOf(recs[:1]) != Steady{}) {
		t.Error("one request has a steady throughput")
	}
}

func TestUnsustained(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		st   Steady
		want bool
	}{
		{"kept up", Steady{Sent: 1000, Completed: 990, InFlight: 50}, false},
		{"12% short with few in flight", Steady{Sent: 1000, Completed: 880, InFlight: 50}, true},
		// 15% short, but with 4,000 in flight the ends differ by ±63 (3σ = 190).
		{"short by less than the in-flight noise", Steady{Sent: 1000, Completed: 850, InFlight: 4000}, false},
		{"nothing sent", Steady{}, false},
	}
	for _, tt := range tests {
		if got, why := tt.st.Unsustained(); got != tt.want || (got && why == "") {
			t.Errorf("%s: unsustained %v (%q), want %v", tt.name, got, why, tt.want)
		}
	}
}
