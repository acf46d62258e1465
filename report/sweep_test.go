package report

import (
	"bytes"
	"strings"
	"testing"

	"surge/metrics"
	"surge/sweep"
)

// wideSweep is a concurrency sweep with everything that makes a line
// long: a spec deep in a folder (though shorter than a line, which a path
// is never cut to), long reasons and measurement reasons, points that
// measured nothing, and a point with every mark.
func wideSweep() *sweep.Result {
	r := &sweep.Result{
		Spec: "/home/someone/" + strings.Repeat("benchmarks-of-the-year/", 2) + "chat.yaml", Target: "sim://Llama-3.1-8B@H100-SXMx1",
		Mode: sweep.Concurrency, Saturation: 1234.5,
	}
	for i, load := range []float64{1, 8, 32, 128, 1024} {
		p := sweep.Point{
			Load: load, MeanInFlight: load * 0.9, Throughput: 1000 * load, OutputTokS: 123_456 * load, Measured: 40,
			TTFT: sweep.Quantiles{P50: 25_100, P99: 141_000_000}, TPOT: sweep.Quantiles{P99: 6_800}, E2E: sweep.Quantiles{P99: 7_508_000_000},
			Verdict: sweep.WordInconclusive, Reason: "too few requests to judge ttft p90: 38 measured, 44 needed; tpot p90: 38 measured, 44 needed; e2e p99: 38 measured, 460 needed",
			Measurement: &metrics.Measurement{Verdict: metrics.MeasurementQuestionable, Reasons: []string{
				"too few requests to judge ttft p90 (38 measured, 44 needed) and tpot p90 (38 measured, 44 needed)", "the client fell behind its schedule (send lag p99 95 ms > 10 ms)"}},
		}
		if i >= 3 {
			p.Measured, p.Reason = 0, "no measured request: every one fell in the warmup (shorten the spec's warmup, or raise --requests or --min-requests)"
		}
		r.Points = append(r.Points, p)
	}
	r.Points[2].Interrupted = true
	r.KneeTTFT = &sweep.Knee{Metric: "ttft.p99", Index: 2, Throughput: 32_000, LatencyUS: 141_000_000}
	r.KneeE2E = &sweep.Knee{Metric: "e2e.p99", Index: 2, Throughput: 32_000, LatencyUS: 7_508_000_000}
	r.MaxPassing = 2
	r.Search = &sweep.Search{Note: "not enough requests per point to judge ttft p90 (38 measured, 44 needed): raise --requests or --min-requests"}
	r.Operating = &sweep.Operating{Load: 25.6, Throughput: 25_600, Headroom: 0.2, Basis: "the highest passing load, 32 in flight, whose TTFT p99 is the knee"}
	return r
}

// TestSweepTextWidth checks that every line of a sweep's text report is
// at most TextWidth columns wide, and loses nothing: every point's row,
// reason and marks are there.
func TestSweepTextWidth(t *testing.T) {
	t.Parallel()
	for name, r := range map[string]*sweep.Result{"rate": syntheticSweep(), "concurrency": wideSweep()} {
		var b bytes.Buffer
		if err := SweepText(&b, r); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for i, l := range strings.Split(out, "\n") {
			if w := width(l); w > TextWidth {
				t.Errorf("%s: line %d is %d columns wide, more than %d:\n%s", name, i+1, w, TextWidth, l)
			}
		}
		for i, p := range r.Points {
			if m := marks(r, i); m != "" && !strings.Contains(out, m) {
				t.Errorf("%s: point %d's marks %q are not in the report:\n%s", name, i, m, out)
			}
			if p.Reason != "" && !strings.Contains(strings.Join(strings.Fields(out), " "), p.Reason) {
				t.Errorf("%s: point %d's reason %q is not in the report:\n%s", name, i, p.Reason, out)
			}
		}
	}
}
