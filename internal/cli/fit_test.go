package cli

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"surge/trace"
)

// TestFitRoundTrip fits a spec to the Azure conversation trace with surge
// fit, generates a trace from it with surge gen, and compares the two as
// surge inspect does: mean rate within 2%, inter-arrival CV within 10%,
// and the input and output medians and 90th percentiles within 5%.
func TestFitRoundTrip(t *testing.T) {
	t.Parallel()
	src := "../../../shared/traces/azure-llm-2023/AzureLLMInferenceTrace_conv.csv"
	if _, err := os.Stat(src); err != nil {
		t.Skip("no Azure trace")
	}
	dir := t.TempDir()
	specPath, orig, regen := filepath.Join(dir, "fit.yaml"), filepath.Join(dir, "orig.jsonl"), filepath.Join(dir, "regen.jsonl")
	for _, args := range [][]string{
		{"fit", src, "-o", specPath},
		{"import", src, "-o", orig},
		{"gen", specPath, "--no-text", "-o", regen},
	} {
		if code, _, e := run(t, args...); code != exitOK {
			t.Fatalf("%s: exit %d: %s", args[0], code, e)
		}
	}
	a, b := summaryOf(t, orig), summaryOf(t, regen)
	t.Logf("rate %.4g vs %.4g/s, CV %.3f vs %.3f, input p50 %g vs %g, output p50 %g vs %g",
		a.Rate, b.Rate, a.CV, b.CV, a.InputTokens.P50, b.InputTokens.P50, a.OutputTokens.P50, b.OutputTokens.P50)
	checks := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"mean rate", b.Rate, a.Rate, 0.02},
		{"inter-arrival CV", b.CV, a.CV, 0.10},
		{"input p50", b.InputTokens.P50, a.InputTokens.P50, 0.05},
		{"input p90", b.InputTokens.P90, a.InputTokens.P90, 0.05},
		{"output p50", b.OutputTokens.P50, a.OutputTokens.P50, 0.05},
		{"output p90", b.OutputTokens.P90, a.OutputTokens.P90, 0.05},
	}
	for _, c := range checks {
		if math.Abs(c.got-c.want) > c.tol*c.want {
			t.Errorf("%s: regenerated %g, original %g; want within %.0f%%", c.name, c.got, c.want, 100*c.tol)
		}
	}
}

// summaryOf summarises the one client of the trace at path.
func summaryOf(t *testing.T, path string) trace.StreamSummary {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := trace.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	s, err := trace.Summarize(r)
	if err != nil {
		t.Fatal(err)
	}
	return s.All
}
