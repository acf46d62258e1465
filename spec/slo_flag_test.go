package spec

import (
	"strings"
	"testing"
	"time"
)

func TestParseSLOs(t *testing.T) {
	t.Parallel()
	got, err := ParseSLOs("tpot.p99<=100ms, ttft.p99<=2s,ttft.mean<=500ms")
	if err != nil {
		t.Fatal(err)
	}
	want := []SLO{{"ttft", 0, 500 * time.Millisecond}, {"ttft", 99, 2 * time.Second}, {"tpot", 99, 100 * time.Millisecond}}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %+v, want %+v (sorted by metric, then statistic)", got, want)
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"ttft.p99<2s", "want metric.stat<=bound"},
		{"latency.p99<=2s", `metric "latency"`},
		{"ttft<=2s", "names no statistic"},
		{"ttft.q99<=2s", "q99"},
		{"ttft.p99<=fast", `bound "fast"`},
		{"ttft.p99<=0s", `bound "0s"`},
		{"ttft.p99<=1s,ttft.p99<=2s", "bounded twice"},
	} {
		if _, err := ParseSLOs(tt.in); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseSLOs(%q) = %v, want an error containing %q", tt.in, err, tt.want)
		}
	}
}
