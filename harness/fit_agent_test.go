package harness

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"surge/fit"
	"surge/trace/importers"
)

// TestFitWEKAEpisodes fits WEKA's agent conversations and regenerates
// them (fit --check): the 710 of the flattened CSV, and single
// conversations of the JSON files. The context resets are stated (reset),
// so on the CSV the regenerated per-turn input, context growth per later
// turn (shrinks included) and steps per episode are each within KS 0.1 of
// the trace's, where contexts that only grew gave a per-turn input KS of
// 0.37. On one conversation the check regenerates it under further seeds
// and the episode laws are empirical tables unless a law is within KS
// 0.05, so growth and steps are within 0.1 (trace_0001.json's growth was
// 0.20); its per-turn input is not (see docs/fit.md), and is not held.
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
			if !c.Episodes || (tc.input && c.KSIn > 0.1) || c.KSSteps > 0.1 || c.KSGrowth > 0.1 {
				t.Errorf("per-turn input KS %.3f (held %v), steps %.3f, context growth %.3f (episodes %v): want each at most 0.1", c.KSIn, tc.input, c.KSSteps, c.KSGrowth, c.Episodes)
			}
		})
	}
}
