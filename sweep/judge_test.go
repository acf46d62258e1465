package sweep

import (
	"testing"

	"surge/metrics"
	"surge/trace"
)

func TestJudge(t *testing.T) {
	t.Parallel()
	p99 := trace.SLO{Metric: "ttft", Percentile: 99, BoundUS: 2_000_000}
	mean := trace.SLO{Metric: "tpot", Percentile: 0, BoundUS: 100_000}
	tests := []struct {
		name     string
		slo      trace.SLO
		n, met   int
		observed float64
		pass     bool // the percentile's own verdict, as metrics gives it
		want     Outcome
		needMore int
	}{
		// 0.99^459 = 0.00995 ≤ 0.01 < 0.99^458 = 0.01005.
		{"459 requests all within a p99 bound pass at 99%", p99, 459, 459, 1.5e6, true, Pass, 0},
		{"458 are one short", p99, 458, 458, 1.5e6, true, Inconclusive, 1},
		{"100 requests are far short", p99, 100, 100, 1.5e6, true, Inconclusive, 359},
		// One over the bound: P(X ≤ 1) for Binomial(n, 0.01) falls to 0.01
		// at n = 662.
		{"one over the bound needs 662", p99, 500, 499, 1.5e6, true, Inconclusive, 162},
		{"one over the bound in 662 passes", p99, 662, 661, 1.5e6, true, Pass, 0},
		{"observed p99 over the bound fails", p99, 1000, 980, 2.5e6, false, Fail, 0},
		// 20 of 1000 failed (not in the latency distribution, so its p99
		// looks fine) but they count as over the bound: the p99 over all
		// requests is over it.
		{"failed requests count against the bound", p99, 1000, 980, 1.5e6, true, Fail, 0},
		{"a mean SLO has no early stopping", mean, 10, 3, 90e3, true, Pass, 0},
		{"a mean over its bound fails", mean, 10, 3, 110e3, false, Fail, 0},
	}
	for _, tt := range tests {
		sc := &metrics.Scope{Requests: tt.n, SLOs: []metrics.SLOCheck{{SLO: tt.slo, Observed: tt.observed, Pass: tt.pass, Met: tt.met}}}
		v := Judge(sc, 0)
		ch := v.Checks[0]
		if ch.Outcome != tt.want || ch.NeedMore != tt.needMore || v.Pass != (tt.want == Pass) {
			t.Errorf("%s: %s, need %d more, verdict pass %v; want %s, need %d more", tt.name, ch.Outcome, ch.NeedMore, v.Pass, tt.want, tt.needMore)
		}
		if ch.Exceeded != tt.n-tt.met {
			t.Errorf("%s: exceeded %d, want %d", tt.name, ch.Exceeded, tt.n-tt.met)
		}
	}
	if Judge(&metrics.Scope{Requests: 5}, 0) != nil {
		t.Error("a scope without SLOs has a verdict")
	}
}

// TestJudgeAll checks that a verdict passes only when every check does.
func TestJudgeAll(t *testing.T) {
	t.Parallel()
	sc := &metrics.Scope{Requests: 1000, SLOs: []metrics.SLOCheck{
		{SLO: trace.SLO{Metric: "ttft", Percentile: 99, BoundUS: 1}, Observed: 0, Pass: true, Met: 1000},
		{SLO: trace.SLO{Metric: "tpot", Percentile: 99, BoundUS: 1}, Observed: 2, Pass: false, Met: 900},
	}}
	if v := Judge(sc, 0.99); v.Pass || v.Checks[0].Outcome != Pass || v.Checks[1].Outcome != Fail {
		t.Fatalf("verdict %+v: want the second check to fail it", v)
	}
}
