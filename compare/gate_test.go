package compare

import (
	"strings"
	"testing"
)

func TestParseGates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		in     string
		want   []Gate
	}{
		{"the issue's example", "ttft.p99:+10%,output_throughput:-5%",
			[]Gate{{"ttft.p99", true, 10}, {"output_throughput", false, 5}}},
		{"spaces around commas, fractional percent, +lag metric", " e2e+lag.p50:+2.5% , error_rate:+1% ",
			[]Gate{{"e2e+lag.p50", true, 2.5}, {"error_rate", true, 1}}},
		{"zero: any significant increase fails", "tpot.mean:+0%", []Gate{{"tpot.mean", true, 0}}},
		{"empty: no gates", "  ", nil},
	}
	for _, tt := range tests {
		got, err := ParseGates(tt.in)
		if err != nil || len(got) != len(tt.want) {
			t.Errorf("%s: %q → %v, %v", tt.reason, tt.in, got, err)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: gate %d = %+v, want %+v", tt.reason, i, got[i], tt.want[i])
			}
			if back, err := ParseGate(got[i].String()); err != nil || back != got[i] {
				t.Errorf("%s: %q does not read back: %+v, %v", tt.reason, got[i], back, err)
			}
		}
	}
}

func TestParseGatesErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		in     string
		want   []string // in the error
	}{
		{"unknown metric lists the known ones", "tft.p99:+10%", []string{`unknown metric "tft"`, "ttft, ttfo, itl", "output_throughput"}},
		{"unknown statistic lists the metric's", "ttft.p95:+10%", []string{`unknown statistic "p95"`, "ttft.p99", "ttft.mean"}},
		{"p99.9 is not a row", "e2e.p99.9:+10%", []string{`unknown statistic "p99.9"`}},
		{"a latency needs a statistic", "ttft:+10%", []string{"ttft needs a statistic", "ttft.p50"}},
		{"a whole-run figure takes none", "output_throughput.p50:-5%", []string{"takes no statistic"}},
		{"the sign is required", "ttft.p99:10%", []string{"needs a sign"}},
		{"the percent sign is required", "ttft.p99:+10", []string{"signed percentage"}},
		{"no threshold", "ttft.p99", []string{"want METRIC.STAT:±N%"}},
		{"a negative number after the sign", "ttft.p99:+-10%", []string{"number of percent"}},
		{"not a number", "ttft.p99:+ten%", []string{"number of percent"}},
		{"every bad gate is reported", "x.p50:+1%,ttft.p50:+1%,y:+1%", []string{`"x.p50:+1%"`, `"y:+1%"`}},
		{"an empty gate between commas", "ttft.p50:+1%,,e2e.p50:+1%", []string{`gate ""`}},
	}
	for _, tt := range tests {
		_, err := ParseGates(tt.in)
		if err == nil {
			t.Errorf("%s: %q accepted", tt.reason, tt.in)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tt.reason, err, w)
			}
		}
	}
}

func TestGatePast(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		gate   string
		delta  float64
		want   bool
	}{
		{"more than 10% higher", "ttft.p99:+10%", 0.12, true},
		{"exactly 10% higher is not more", "ttft.p99:+10%", 0.10, false},
		{"lower is not the bad direction of +", "ttft.p99:+10%", -0.5, false},
		{"more than 5% lower", "output_throughput:-5%", -0.06, true},
		{"higher is not the bad direction of -", "output_throughput:-5%", 0.3, false},
		{"error_rate in points: 1.5 points over a 1-point gate", "error_rate:+1%", 0.015, true},
	}
	for _, tt := range tests {
		g, err := ParseGate(tt.gate)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.past(tt.delta); got != tt.want {
			t.Errorf("%s: %s past %g = %v", tt.reason, tt.gate, tt.delta, got)
		}
	}
}
