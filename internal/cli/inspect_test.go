package cli

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"surge/trace"
)

// TestInspectMatchesSpec generates 20,000 sessions of the bursty example and
// checks that inspect reports the rates, burstiness and lengths the spec
// asks for. Tolerances allow for sampling error: a gamma stream of CV c has
// a rate standard error of about c/sqrt(n).
func TestInspectMatchesSpec(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "bursty.jsonl")
	spec := "../../examples/bursty-api.yaml"
	if code, _, e := run(t, "gen", spec, "--requests", "20k", "--no-text", "-o", out); code != exitOK {
		t.Fatalf("gen exit %d: %s", code, e)
	}
	code, js, e := run(t, "inspect", "--json", out)
	if code != exitOK {
		t.Fatalf("inspect exit %d: %s", code, e)
	}
	var sum trace.Summary
	if err := json.Unmarshal([]byte(js), &sum); err != nil {
		t.Fatal(err)
	}
	api, batch := sum.Clients[0], sum.Clients[1]
	checks := []struct {
		name           string
		got, want, tol float64 // tol is relative
	}{
		{"total sessions", float64(api.Sessions + batch.Sessions), 20000, 0},
		{"api rate: 3/4 of 20/s", api.Rate, 15, 0.06},
		{"api inter-arrival cv", api.CV, 3, 0.10},
		{"batch rate: 1/4 of 20/s", batch.Rate, 5, 0.06},
		{"batch inter-arrival cv", batch.CV, 2, 0.10},
		{"overall rate", sum.All.Rate, 20, 0.05},
		{"api input mean: gamma mean 1500 (clamp at 4..16k moves it <0.1%)", api.InputTokens.Mean, 1500, 0.03},
		{"batch input median: lognormal median 6k", batch.InputTokens.P50, 6000, 0.03},
		{"batch input max: clamp at 30k", batch.InputTokens.Max, 30000, 0.001},
		{"batch output median: uniform 100..400", batch.OutputTokens.P50, 250, 0.03},
		{"api output mean: exponential mean 180", api.OutputTokens.Mean, 180, 0.04},
	}
	for _, c := range checks {
		if math.Abs(c.got-c.want) > c.tol*c.want {
			t.Errorf("%s: inspect says %.4g, spec implies %.4g (±%.0f%%)", c.name, c.got, c.want, c.tol*100)
		}
	}
}
