package spec

import (
	"testing"
	"time"
)

func TestSLO(t *testing.T) {
	t.Parallel()
	s, err := Parse("t.yaml", []byte(head+`  - {name: a, model: m, rate: 1/s, input: 1, output: 1}
slo:
  e2e: {p99: 30s}
  ttft: {p99.9: 3s, mean: 400ms, p50: 500ms}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []SLO{
		{"ttft", 0, 400 * time.Millisecond},
		{"ttft", 50, 500 * time.Millisecond},
		{"ttft", 99.9, 3 * time.Second},
		{"e2e", 99, 30 * time.Second},
	}
	if len(s.SLO) != len(want) {
		t.Fatalf("got %v, want %v", s.SLO, want)
	}
	for i := range want {
		if s.SLO[i] != want[i] {
			t.Errorf("SLO[%d] = %v, want %v (sorted by metric, then percentile)", i, s.SLO[i], want[i])
		}
	}
}

func TestSLOErrors(t *testing.T) {
	t.Parallel()
	const c = "  - {name: a, model: m, rate: 1/s, input: 1, output: 1}\nslo:\n"
	tests := []struct {
		reason string
		body   string // from line 6
		wants  []want
	}{
		{"metric typo", "  tfft: {p99: 1s}\n", []want{{"6:3: slo.tfft", `unknown key (did you mean "ttft"?)`}}},
		{"statistic in capitals", "  ttft: {P99: 1s}\n", []want{{"6:10: slo.ttft.P99", `did you mean "p99"?`}}},
		{"percentile past 100", "  ttft: {p999: 1s}\n", []want{{"6:10: slo.ttft.p999", "percentile out of range"}}},
		{"statistic without p", "  ttft: {99: 1s}\n", []want{{"6:10: slo.ttft.99", `did you mean "p99"?`}}},
		{"p100", "  ttft: {p100: 1s}\n", []want{{"6:10: slo.ttft.p100", "percentile out of range: pN needs 0 < N < 100"}}},
		{"same percentile twice", "  ttft: {p99: 1s, p99.0: 2s}\n", []want{{"6:19: slo.ttft.p99.0", "same statistic as p99"}}},
		{"bound without unit", "  ttft: {p99: 2}\n", []want{{"6:15: slo.ttft.p99", "write 2s"}}},
		{"zero bound", "  ttft: {p99: 0s}\n", []want{{"6:15: slo.ttft.p99", "bound must be > 0"}}},
		{"no bounds", "  ttft: {}\n", []want{{"6:9: slo.ttft", "needs at least one bound"}}},
		{"bounds not a mapping", "  ttft: 2s\n", []want{{"6:9: slo.ttft", "expected a mapping, got 2s"}}},
	}
	for _, tt := range tests {
		checkErrs(t, tt.reason, head+c+tt.body, tt.wants...)
	}
}

func TestStatKeyRoundTrip(t *testing.T) {
	t.Parallel()
	for _, p := range []float64{0, 50, 99, 99.9, 99.99, 0.001} {
		got, ok := percentile(statKey(p))
		if !ok || got != p {
			t.Errorf("percentile(statKey(%v) = %q) = %v, %v", p, statKey(p), got, ok)
		}
	}
}
