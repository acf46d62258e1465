package metrics

import (
	"testing"

	"surge/trace"
)

// TestMinPassing checks the fewest requests that pass a p99 bound at 99%
// confidence against MLPerf LoadGen's published minimum (459 with none
// over the bound) and against the exact binomial oracle: with k over, n is
// the least count whose P(X ≤ k) is at most 1%.
func TestMinPassing(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ k, want int }{{0, 459}, {1, 662}, {5, 1307}, {10, 2010}} {
		n := MinPassing(tt.k, 0.01, 0.01)
		if n != tt.want {
			t.Errorf("k=%d: %d requests, want %d", tt.k, n, tt.want)
		}
		if binomCDF(n, 0.01, tt.k) > 0.01 || binomCDF(n-1, 0.01, tt.k) <= 0.01 {
			t.Errorf("k=%d: n=%d is not the least count the oracle passes", tt.k, n)
		}
	}
	// p90 at 95% confidence: 0.9^29 = 0.047 ≤ 0.05 < 0.9^28.
	if n := MinPassing(0, 0.1, 0.05); n != 29 {
		t.Errorf("p90 at 95%%: %d, want 29", n)
	}
}

func TestEarlyStop(t *testing.T) {
	t.Parallel()
	p99 := trace.SLO{Metric: "ttft", Percentile: 99, BoundUS: 2_000_000}
	mean := trace.SLO{Metric: "tpot", Percentile: 0, BoundUS: 100_000}
	tests := []struct {
		name     string
		slo      trace.SLO
		n, met   int
		pass     bool // the successful requests' own percentile within the bound
		want     string
		needMore int
	}{
		{"459 all within a p99 bound pass", p99, 459, 459, true, VerdictPass, 0},
		{"458 are one short", p99, 458, 458, true, VerdictShort, 1},
		{"one over the bound in 500 needs 662", p99, 500, 499, true, VerdictShort, 162},
		{"one over the bound in 662 passes", p99, 662, 661, true, VerdictPass, 0},
		{"observed p99 over the bound fails", p99, 1000, 980, false, VerdictFail, 0},
		// 20 of 1000 failed: the successful ones' p99 looks fine, but over
		// all requests the p99 is over the bound.
		{"failures count against the bound", p99, 1000, 980, true, VerdictFail, 0},
		{"a mean within its bound passes", mean, 10, 3, true, VerdictPass, 0},
		{"a mean over its bound fails", mean, 10, 3, false, VerdictFail, 0},
	}
	for _, tt := range tests {
		ch := SLOCheck{SLO: tt.slo, Pass: tt.pass, Met: tt.met}
		earlyStop(&ch, tt.n, 0.99)
		if ch.Verdict != tt.want || ch.NeedMore != tt.needMore || ch.Exceeded != tt.n-tt.met {
			t.Errorf("%s: %s, need %d more, exceeded %d; want %s, %d more, %d", tt.name, ch.Verdict, ch.NeedMore, ch.Exceeded, tt.want, tt.needMore, tt.n-tt.met)
		}
	}
}

// TestEarlyStopRank checks that the fail test counts ranks as the
// reported percentile does: with one request over a p99.9 bound in 1,000,
// the nearest-rank p99.9 is x₍₉₉₉₎, within the bound, so the verdict is
// short of samples, not a failure.
func TestEarlyStopRank(t *testing.T) {
	t.Parallel()
	ch := SLOCheck{SLO: trace.SLO{Metric: "ttft", Percentile: 99.9, BoundUS: 1}, Pass: true, Met: 999}
	earlyStop(&ch, 1000, 0.99)
	if ch.Verdict != VerdictShort {
		t.Errorf("verdict %s, want %s", ch.Verdict, VerdictShort)
	}
}
