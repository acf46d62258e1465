package cli

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"surge/fit"
)

// TestFitRoundTrip fits a spec to a trace with surge fit --check,
// generates a trace from it with surge gen, and compares the two with
// fit.Compare: mean rate within 2%, inter-arrival CV within 10%, the
// busiest minute over the mean minute within 15%, and the KS distances
// between the original and regenerated input lengths, and output lengths,
// at most 0.03 — for the Azure conversation trace and the Mooncake
// conversation trace (whose arrivals sit on a 3-second grid, CV 3).
func TestFitRoundTrip(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"../../../shared/traces/azure-llm-2023/AzureLLMInferenceTrace_conv.csv",
		"../../../shared/traces/mooncake/conversation_trace.jsonl",
	} {
		if _, err := os.Stat(src); err != nil {
			t.Skip("no shared traces")
		}
		dir := t.TempDir()
		specPath, orig, regen := filepath.Join(dir, "fit.yaml"), filepath.Join(dir, "orig.jsonl"), filepath.Join(dir, "regen.jsonl")
		for _, args := range [][]string{
			{"fit", src, "--check", "-o", specPath},
			{"import", src, "-o", orig},
			{"gen", specPath, "--no-text", "-o", regen},
		} {
			if code, _, e := run(t, args...); code != exitOK {
				t.Fatalf("%s %s: exit %d: %s", args[0], src, code, e)
			}
		}
		c := fit.Compare(sampleOf(t, orig), sampleOf(t, regen))
		t.Logf("%s: rate %.4g vs %.4g/s, CV %.3f vs %.3f, KS input %.4f, output %.4f, per-minute peak/mean %.3f vs %.3f",
			filepath.Base(src), c.Rate[0], c.Rate[1], c.CV[0], c.CV[1], c.KSIn, c.KSOut, c.PeakToMean[0], c.PeakToMean[1])
		near := func(x [2]float64, tol float64) bool { return math.Abs(x[1]-x[0]) <= tol*x[0] }
		if !near(c.Rate, 0.02) || !near(c.CV, 0.10) || !near(c.PeakToMean, 0.15) || c.KSIn > 0.03 || c.KSOut > 0.03 {
			t.Errorf("%s: round trip outside rate 2%%, CV 10%%, peak/mean 15%%, KS 0.03: %+v", filepath.Base(src), c)
		}
	}
}

// sampleOf reads the trace at path as one fit sample.
func sampleOf(t *testing.T, path string) fit.Sample {
	t.Helper()
	in, err := readTraceFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var fs fit.Sample
	for _, s := range in.Sessions {
		fs.Add(s)
	}
	return fs
}

// TestFitConversations fits a trace of conversations, which has no
// requests at offsets, as a closed-loop client with the concurrency its
// import gives.
func TestFitConversations(t *testing.T) {
	t.Parallel()
	weka := filepath.Join(t.TempDir(), "weka.json")
	os.WriteFile(weka, []byte(`{"id":"a","block_size":64,"hash_id_scope":"local","requests":[{"t":0,"type":"n","model":"m","in":100,"out":5,"hash_ids":[1],"think_time":0,"api_time":1}]}`), 0o644)
	code, out, e := run(t, "fit", weka, "--concurrency", "3")
	for _, want := range []string{"requests: 1\n", "concurrency: 3\n", `input: "empirical(`} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("exit %d, %q; want exit %d and a spec with %q:\n%s", code, e, exitOK, want, out)
		}
	}
}
