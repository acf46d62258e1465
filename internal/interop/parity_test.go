package interop

import (
	"encoding/json"
	"testing"
)

// TestParity runs surge parity against two llama-servers with the same
// weights and one with other weights: the twin must answer exactly as
// the base at temperature 0, the other must be told apart.
func TestParity(t *testing.T) {
	if smoke() {
		t.Skip("-short")
	}
	base := startLlama(t, "model", "-np", "2")
	twin := startLlama(t, "model", "-np", "2")
	other := startLlama(t, "model-seed2", "-np", "2")
	dir := t.TempDir()
	// One request at a time, so each server computes every answer in a
	// batch of one, bit for bit as its twin does: at temperature 0 a
	// different batch could flip a near tie of these random weights.

	res := mustSurge(t, dir, "parity", "--target", "base="+base.url, "--target", "twin="+twin.url,
		"--target", "seed2="+other.url, "--prompts", "8", "--max-tokens", "16", "--concurrency", "1", "--json")
	var out struct {
		Candidates []struct {
			Candidate string `json:"candidate"`
			Summary   struct {
				Compared int `json:"compared"`
				Errors   int `json:"errors"`
				Exact    int `json:"exact"`
			} `json:"summary"`
			Verdict     string `json:"verdict"`
			Explanation string `json:"explanation"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
		t.Fatalf("surge parity --json: %v\n%s", err, res)
	}
	want := map[string]struct {
		verdict string
		exact   int
	}{"twin": {"same", 8}, "seed2": {"differs", 0}}
	if len(out.Candidates) != len(want) {
		t.Fatalf("%d candidates, want %d\n%s", len(out.Candidates), len(want), res)
	}
	for _, c := range out.Candidates {
		w := want[c.Candidate]
		if c.Verdict != w.verdict || c.Summary.Exact != w.exact || c.Summary.Compared != 8 || c.Summary.Errors != 0 {
			t.Errorf("%s: verdict %q, %d exact of %d compared, %d errors; want %q, %d of 8, 0 errors (%s)",
				c.Candidate, c.Verdict, c.Summary.Exact, c.Summary.Compared, c.Summary.Errors, w.verdict, w.exact, c.Explanation)
		}
	}

	if r := surge(t, dir, "parity", "--target", base.url, "--target", twin.url, "--prompts", "4", "--max-tokens", "8", "--concurrency", "1", "--fail-on-diff"); r.code != 0 {
		t.Errorf("the same weights on two servers: want exit 0 with --fail-on-diff\n%s", r)
	}
	if r := surge(t, dir, "parity", "--target", base.url, "--target", other.url, "--prompts", "4", "--max-tokens", "8", "--fail-on-diff"); r.code != 1 {
		t.Errorf("other weights: want exit 1 with --fail-on-diff\n%s", r)
	}
}
