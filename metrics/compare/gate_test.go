package compare

import (
	"encoding/json"
	"strings"
	"testing"

	"surge/trace"
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

// TestUnjudgedGatesDoNotFail: a run compared with itself passes a p99
// gate it has too few requests to judge, unless unjudged gates are asked
// to fail.
func TestUnjudgedGatesDoNotFail(t *testing.T) {
	t.Parallel()
	gates, _ := ParseGates("ttft.p99:+10%")
	rs := records(synth{seed: 1, n: 100, slow: 1})
	for _, strict := range []bool{false, true} {
		res, err := Compare(rs, rs, Options{Gates: gates, FailOnUnjudged: strict})
		if err != nil {
			t.Fatal(err)
		}
		if g := res.Gates[0]; g.Verdict != VerdictUnjudged {
			t.Fatalf("p99 gate on 100 requests: %s (%s), want unjudged", g.Verdict, g.Reason)
		}
		if got, want := len(res.Failed()), map[bool]int{false: 0, true: 1}[strict]; got != want || res.Unjudged() != 1 {
			t.Errorf("fail on unjudged %v: %d gates failed, %d unjudged; want %d failed, 1 unjudged", strict, got, res.Unjudged(), want)
		}
	}
}

// TestLargeButUnderpowered: a p99 85 times the base's from 100 requests
// a run is too few to call significant, but too large to show as noise.
func TestLargeButUnderpowered(t *testing.T) {
	t.Parallel()
	base := records(synth{seed: 1, n: 100, slow: 1})
	cand := records(synth{seed: 1, n: 100, slow: 1})
	p99 := func(rs *trace.Records) float64 {
		v := values(rs, func(r *trace.Record) (float64, bool) { return float64(r.TTFTUS), r.TTFTUS > 0 })
		return v[98] // nearest rank of p99 among 100
	}
	limit := p99(cand)
	for i := range cand.Records {
		if r := &cand.Records[i]; !r.Warmup && float64(r.TTFTUS) >= limit {
			r.TTFTUS = int64(float64(r.TTFTUS) * 85)
		}
	}
	gates, _ := ParseGates("ttft.p99:+10%,ttft.p50:+10%")
	res, err := Compare(base, cand, Options{Gates: gates})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Row("ttft.p99")
	if r.Significant || !r.Underpowered || r.Finding() != FindingUnderpowered || !strings.Contains(r.Note, "large but underpowered: the candidate is 85× the base") {
		t.Errorf("ttft.p99 85× the base on 100 requests: finding %q, underpowered %v, note %q", r.Finding(), r.Underpowered, r.Note)
	}
	if r := res.Row("ttft.p50"); r.Underpowered || r.Finding() != FindingNoChange {
		t.Errorf("ttft.p50, unchanged: finding %q", r.Finding())
	}
	if g := res.Gates[0]; g.Verdict != VerdictUnjudged || !strings.Contains(g.Reason, "large but underpowered") {
		t.Errorf("gate on the underpowered row: %s (%s)", g.Verdict, g.Reason)
	}
	if g := res.Gates[1]; g.Verdict != VerdictPass {
		t.Errorf("gate on the unchanged row: %s (%s)", g.Verdict, g.Reason)
	}
	b, err := json.Marshal(r)
	if err != nil || !strings.Contains(string(b), `"finding":"large but underpowered"`) || !strings.Contains(string(b), `"underpowered":true`) {
		t.Errorf("JSON of the row: %s, %v", b, err)
	}
}

func TestRowLarge(t *testing.T) {
	t.Parallel()
	tests := []struct {
		row  Row
		want bool
	}{
		{Row{Comparable: true, Delta: 1}, true},      // 2×
		{Row{Comparable: true, Delta: 0.99}, false},  // 1.99×
		{Row{Comparable: true, Delta: -0.5}, true},   // ½×
		{Row{Comparable: true, Delta: -0.49}, false}, // 0.51×
		{Row{Comparable: true, Absolute: true, Delta: 0.10}, true},
		{Row{Comparable: true, Absolute: true, Delta: -0.09}, false},
		{Row{Delta: 84}, false}, // not comparable
	}
	for _, tt := range tests {
		if got := tt.row.Large(); got != tt.want {
			t.Errorf("%+v: large %v, want %v", tt.row, got, tt.want)
		}
	}
}

// TestLargeShiftFailsItsGate: a percentile far past its gate whose
// interval is too wide to exclude no change, while the rank test finds the
// distributions differ, fails the gate; without the rank test's support
// the same row stays unjudged.
func TestLargeShiftFailsItsGate(t *testing.T) {
	t.Parallel()
	g := Gate{Row: "ttft.p99", Increase: true, Percent: 10}
	for _, tt := range []struct {
		p    float64
		want Verdict
	}{{0.0004, VerdictFail}, {0.4, VerdictUnjudged}} {
		res := &Result{Alpha: DefaultAlpha, Rows: []Row{{Metric: "ttft", Stat: "p99", Comparable: true, Delta: 658, Tested: true, P: tt.p, Underpowered: true}}}
		if got := judgeGate(res, g); got.Verdict != tt.want {
			t.Errorf("p = %g: gate %s (%s), want %s", tt.p, got.Verdict, got.Reason, tt.want)
		}
	}
}
