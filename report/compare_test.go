package report

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"surge/metrics"
	"surge/metrics/compare"
	"surge/trace"
)

// comparison is a hand-made result with a row of every kind: significant
// either way, not significant, too few values for an interval, no values
// in the candidate, a whole-run rate and the error rate in points; gates
// that pass, fail and cannot be judged; different workloads.
func comparison() *compare.Result {
	ci := func(lo, hi float64) *compare.Interval { return &compare.Interval{Lo: lo, Hi: hi} }
	r := &compare.Result{
		Base: compare.Run{Name: "runs/base", WorkloadHash: "sha256:0123456789abcdef", Target: "sim://Llama-3.1-8B@H100-SXMx1",
			Requests: 500, OK: 500, Window: metrics.Window{StartUS: 5e6, EndUS: 125e6}},
		Candidate: compare.Run{Name: "runs/cand|x", WorkloadHash: "sha256:fedcba9876543210", Target: "sim://Llama-3.1-8B@A100-80GBx1",
			Requests: 500, OK: 480, Window: metrics.Window{StartUS: 5e6, EndUS: 131e6}, Interrupted: true, Ending: trace.EndInterrupted},
		Alpha: 0.05, Resamples: 1000, Windows: 20, DifferentWorkload: true,
		Rows: []compare.Row{
			{Metric: "ttft", Stat: "p50", Unit: metrics.UnitUS, Base: 25_300, Candidate: 30_400, NBase: 500, NCandidate: 480,
				Comparable: true, Delta: 0.2016, CI: ci(0.152, 0.25), P: 1e-9, Tested: true, Significant: true},
			{Metric: "ttft", Stat: "p99", Unit: metrics.UnitUS, Base: 267_000, Candidate: 301_000, NBase: 300, NCandidate: 280,
				Comparable: true, Delta: 0.127, P: 1e-9, Tested: true, Note: "p99 needs n ≥ 368 per run for a 95% interval"},
			{Metric: "tpot", Stat: "mean", Unit: metrics.UnitUSToken, Base: 6230, Candidate: 6190, NBase: 500, NCandidate: 480,
				Comparable: true, Delta: -0.0064, CI: ci(-0.02, 0.011), P: 0.412, Tested: true},
			{Metric: "e2e+lag", Stat: "p90", Unit: metrics.UnitUS, Base: 4_098_000, Candidate: 3_500_000, NBase: 500, NCandidate: 480,
				Comparable: true, Delta: -0.1459, CI: ci(-0.2, -0.09), P: 0.0123, Tested: true, Significant: true},
			{Metric: "e2e", Stat: "p99", Unit: metrics.UnitUS, Base: 1_000_000, Candidate: 85_000_000, NBase: 300, NCandidate: 280,
				Comparable: true, Delta: 84, P: 0.3, Tested: true, Underpowered: true,
				Note: "p99 needs n ≥ 368 per run for a 95% interval; large but underpowered: the candidate is 85× the base, but too few values to call it significant"},
			{Metric: "itl", Stat: "p50", Unit: metrics.UnitUS, Base: 5420, NBase: 500, Note: "no values in the candidate"},
			{Metric: "output_throughput", Unit: compare.UnitTokensPerS, Base: 1163, Candidate: 1100, NBase: 20, NCandidate: 20,
				Comparable: true, Delta: -0.0542, CI: ci(-0.12, 0.01), P: 0.08, Tested: true},
			{Metric: "error_rate", Unit: compare.UnitFraction, Base: 0, Candidate: 0.04, NBase: 500, NCandidate: 500,
				Comparable: true, Absolute: true, Delta: 0.04, CI: ci(0.024, 0.058), P: 2e-5, Tested: true, Significant: true},
		},
		Warnings: []string{"different workloads compared anyway: base sha256:0123456789abcdef, candidate sha256:fedcba9876543210; differences may come from the workloads, not the servers",
			`targets differ: base "sim://Llama-3.1-8B@H100-SXMx1", candidate "sim://Llama-3.1-8B@A100-80GBx1"`,
			"the candidate run was interrupted or did not finish: it may lack its slowest requests"},
	}
	for _, g := range []struct {
		gate    string
		verdict compare.Verdict
		reason  string
	}{
		{"ttft.p50:+10%", compare.VerdictFail, "significant change past the threshold"},
		{"output_throughput:-5%", compare.VerdictPass, "no significant change"},
		{"ttft.p99:+10%", compare.VerdictUnjudged, "cannot be judged: p99 needs n ≥ 368 per run for a 95% interval"},
		{"ttfo.p50:+10%", compare.VerdictUnjudged, "no such row"},
	} {
		gate, err := compare.ParseGate(g.gate)
		if err != nil {
			panic(err)
		}
		r.Gates = append(r.Gates, compare.GateResult{Gate: gate, Verdict: g.verdict, Reason: g.reason})
	}
	return r
}

// TestCompareGolden renders comparison() in every format and compares
// with testdata/compare.*.golden (go test -update rewrites them).
func TestCompareGolden(t *testing.T) {
	t.Parallel()
	for _, f := range []struct {
		ext    string
		render func(io.Writer, *compare.Result) error
	}{{"txt", CompareText}, {"md", CompareMarkdown}, {"json", CompareJSON}} {
		var buf bytes.Buffer
		if err := f.render(&buf, comparison()); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "compare."+f.ext+".golden")
		if *update {
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s differs from %s:\n%s", f.ext, path, buf.String())
		}
	}
}

// TestCompareJSONFindings: every row of the JSON names its finding.
func TestCompareJSONFindings(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := CompareJSON(&buf, comparison()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"finding": "large but underpowered"`, `"finding": "significant"`, `"finding": "not significant"`, `"finding": "not comparable"`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("JSON lacks %s", want)
		}
	}
}

// TestCompareTextShowsVerdicts checks what a reader must see whatever the
// layout: the workload warning, "~" for noise, signed deltas, points for
// the error rate, and each gate's verdict.
func TestCompareTextShowsVerdicts(t *testing.T) {
	t.Parallel()
	var text, md bytes.Buffer
	if err := CompareText(&text, comparison()); err != nil {
		t.Fatal(err)
	}
	if err := CompareMarkdown(&md, comparison()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"DIFFERENT", "+20.2%", "[+15.2%, +25.0%]", "~", "n/a", "+4.0pp", "-14.6%", "FAIL", "PASS", "UNJUDGED", "1 of 4 failed; 2 unjudged, not counted", "INTERRUPTED", "<0.001", "0.412",
		"+8400.0%?", "? = large but underpowered", "large but underpowered: the candidate is 85× the base"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	for _, want := range []string{"**Warning: different workloads**", "**+20.2%**", "| ~ |", "❌ fail", "✅ pass", "⚠️ unjudged", "| _+8400.0%?_ |", "`runs/cand\\|x`"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
}
