package sweep

import (
	"testing"

	"surge/metrics"
	"surge/trace"
)

// TestJudge checks that a sweep's verdict gathers metrics' SLO verdicts
// and passes only when every one passes (the verdicts themselves are
// tested in package metrics).
func TestJudge(t *testing.T) {
	t.Parallel()
	ttft := trace.SLO{Metric: "ttft", Percentile: 99, BoundUS: 1}
	tpot := trace.SLO{Metric: "tpot", Percentile: 99, BoundUS: 1}
	tests := []struct {
		name     string
		verdicts []string
		pass     bool
	}{
		{"all pass", []string{metrics.VerdictPass, metrics.VerdictPass}, true},
		{"one fails", []string{metrics.VerdictPass, metrics.VerdictFail}, false},
		{"one short of samples", []string{metrics.VerdictShort, metrics.VerdictPass}, false},
	}
	for _, tt := range tests {
		sc := &metrics.Scope{SLOs: []metrics.SLOCheck{
			{SLO: ttft, Requests: 500, Exceeded: 3, Verdict: tt.verdicts[0], NeedMore: 7},
			{SLO: tpot, Requests: 500, Verdict: tt.verdicts[1]},
		}}
		v := Judge(sc)
		if v.Pass != tt.pass || string(v.Checks[0].Outcome) != tt.verdicts[0] || v.Checks[0].Exceeded != 3 || v.Checks[0].NeedMore != 7 || v.Checks[0].N != 500 {
			t.Errorf("%s: verdict %+v", tt.name, v)
		}
	}
	if Judge(&metrics.Scope{Requests: 5}) != nil {
		t.Error("a scope without SLOs has a verdict")
	}
}
