package harness

import (
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"surge/fit"
	"surge/trace/importers"
)

// TestFitWEKAEpisodes fits WEKA's agent conversations and regenerates
// them (fit --check): the 710 of the flattened CSV, and single
// conversations of the JSON files. On the CSV, whose clients are fitted
// by model with each episode's scale, the copula of steps, task and scale
// and resets by context, the regenerated per-turn input, context growth
// per later turn (prompt to prompt, shrinks included) and steps per
// episode are each within KS 0.1 of the trace's (with resets at one
// chance for every context, and no scale, the per-turn input was 0.22).
// One conversation holds only some 40 to 140 later turns, so its growth
// is held to the two-sample KS bound at 1% for that many (1.63/√n), which
// an exact model passes 99 times in 100: a bound of 0.1 would fail one
// most of the time. Its per-turn input is one path of a random walk and
// is not held (docs/fit.md).
func TestFitWEKAEpisodes(t *testing.T) {
	t.Parallel()
	root := filepath.Join(sharedTraces, "weka-agentic")
	if _, err := os.Stat(root); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the shared traces are missing in CI: %v", err)
		}
		t.Skipf("shared traces not available: %v", err)
	}
	for _, tc := range []struct {
		file  string
		input bool // whether the per-turn input is held to the bound
	}{
		{"weka_agentic_requests.csv", true},
		{"weka_agentic_traces.csv", true},
		{"trace_0001.json", false},
		{"trace_0161.json", false},
		{"trace_0441.json", false},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			tr, clients, y := fitFiles(t, os.DirFS(root), []string{tc.file}, importers.ImportOptions{}, "weka")
			if !strings.Contains(string(y), "      reset:\n        probability: ") && tc.input {
				t.Errorf("the spec states no reset:\n%s", y)
			}
			r, err := fit.Check(context.Background(), io.Discard, y, tr, clients)
			if err != nil {
				t.Fatal(err)
			}
			c := r.Comparisons[0]
			t.Logf("KS: per-turn input %.3f, output %.3f, steps %.3f, context growth %.3f; shrinking %.3f (trace %.3f)", c.KSIn, c.KSOut, c.KSSteps, c.KSGrowth, c.Shrinks[1], c.Shrinks[0])
			growth := 0.1
			if !tc.input {
				growth = 1.628 / math.Sqrt(float64(len(tr.Samples["weka"].Episodes.Delta)))
			}
			if !c.Episodes || (tc.input && c.KSIn > 0.1) || c.KSSteps > 0.1 || c.KSGrowth > growth {
				t.Errorf("per-turn input KS %.3f (held %v), steps %.3f, context growth %.3f (bound %.3f, episodes %v): want input and steps at most 0.1",
					c.KSIn, tc.input, c.KSSteps, c.KSGrowth, growth, c.Episodes)
			}
		})
	}
}
