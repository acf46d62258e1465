package compare

import "testing"

func TestResultErr(t *testing.T) {
	t.Parallel()
	rows := []Row{
		{Metric: "ttft", Stat: "p99", Comparable: true, Delta: 0.25},
		{Metric: "error_rate", Comparable: true, Absolute: true, Delta: 0.031},
	}
	p99, _ := ParseGate("ttft.p99:+10%")
	errs, _ := ParseGate("error_rate:+1%")
	tests := []struct {
		reason   string
		gates    []GateResult
		unjudged bool
		want     string
	}{
		{"no gates, no error", nil, false, ""},
		{"passed gates, no error", []GateResult{{Gate: p99, Verdict: VerdictPass}}, false, ""},
		{"a violated gate names the change", []GateResult{{Gate: p99, Verdict: VerdictFail, Reason: "past"}, {Gate: errs, Verdict: VerdictPass}}, false,
			"1 of 2 gates failed: ttft.p99:+10% fail (candidate +25.0%): past"},
		{"an absolute row's change is in points", []GateResult{{Gate: errs, Verdict: VerdictFail, Reason: "past"}}, false,
			"1 of 1 gates failed: error_rate:+1% fail (candidate +3.1 points): past"},
		{"an unjudged gate fails only when asked, without a change", []GateResult{{Gate: p99, Verdict: VerdictUnjudged, Reason: "too few"}}, true,
			"1 of 1 gates failed: ttft.p99:+10% unjudged: too few"},
		{"an unjudged gate does not fail by default", []GateResult{{Gate: p99, Verdict: VerdictUnjudged, Reason: "too few"}}, false, ""},
	}
	for _, tt := range tests {
		res := &Result{Rows: rows, Gates: tt.gates, FailOnUnjudged: tt.unjudged}
		got := ""
		if err := res.Err(); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s: error %q, want %q", tt.reason, got, tt.want)
		}
	}
}

func TestResultOverlooked(t *testing.T) {
	t.Parallel()
	rows := []Row{
		{Metric: "ttft", Stat: "p99", Comparable: true, Delta: 84, Underpowered: true},
		{Metric: "ttft", Stat: "p50", Comparable: true},
	}
	p99, _ := ParseGate("ttft.p99:+10%")
	p50, _ := ParseGate("ttft.p50:+10%")
	tests := []struct {
		reason   string
		gates    []GateResult
		unjudged bool
		want     int
	}{
		{"an unjudged gate on an underpowered row", []GateResult{{Gate: p99, Verdict: VerdictUnjudged}}, false, 1},
		{"not when unjudged gates fail anyway", []GateResult{{Gate: p99, Verdict: VerdictUnjudged}}, true, 0},
		{"not an unjudged gate on a quiet row", []GateResult{{Gate: p50, Verdict: VerdictUnjudged}}, false, 0},
		{"not a failed gate", []GateResult{{Gate: p99, Verdict: VerdictFail}}, false, 0},
	}
	for _, tt := range tests {
		res := &Result{Rows: rows, Gates: tt.gates, FailOnUnjudged: tt.unjudged}
		if got := res.Overlooked(); len(got) != tt.want {
			t.Errorf("%s: %d overlooked gates, want %d", tt.reason, len(got), tt.want)
		}
	}
}
