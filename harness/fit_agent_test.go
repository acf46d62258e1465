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

// TestFitWEKAEpisodes fits WEKA's 710 agent conversations and regenerates
// them (fit --check): the context resets are stated (reset), so the
// regenerated per-turn input, context growth per later turn (shrinks
// included) and steps per episode are each within KS 0.1 of the trace's,
// where contexts that only grew gave a per-turn input KS of 0.37.
func TestFitWEKAEpisodes(t *testing.T) {
	t.Parallel()
	root := filepath.Join(sharedTraces, "weka-agentic")
	if _, err := os.Stat(root); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the shared traces are missing in CI: %v", err)
		}
		t.Skipf("shared traces not available: %v", err)
	}
	tr, err := FitTraffic(context.Background(), os.DirFS(root), []string{"weka_agentic_requests.csv"}, importers.ImportOptions{}, "")
	if err != nil {
		t.Fatal(err)
	}
	clients, err := fit.Clients(tr, false)
	if err != nil {
		t.Fatal(err)
	}
	y, err := fit.Spec("weka", clients)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(y), "      reset:\n        probability: ") {
		t.Errorf("the spec states no reset:\n%s", y)
	}
	r, err := fit.Check(context.Background(), io.Discard, y, tr, clients)
	if err != nil {
		t.Fatal(err)
	}
	c := r.Comparisons[0]
	t.Logf("KS: per-turn input %.3f, output %.3f, steps %.3f, context growth %.3f; shrinking %.3f (trace %.3f)", c.KSIn, c.KSOut, c.KSSteps, c.KSGrowth, c.Shrinks[1], c.Shrinks[0])
	if !c.Episodes || c.KSIn > 0.1 || c.KSSteps > 0.1 || c.KSGrowth > 0.1 {
		t.Errorf("per-turn input KS %.3f, steps %.3f, context growth %.3f (episodes %v): want each at most 0.1", c.KSIn, c.KSSteps, c.KSGrowth, c.Episodes)
	}
}
