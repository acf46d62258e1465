package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWEKAReplay imports the published WEKA agentic conversations, replays
// them ten times faster through the built-in engine in virtual time
// (surge sim, a 1M-context model, two conversations at a time), and checks
// that the engine's prefix cache reproduces the traces' per-conversation
// block reuse: the median over conversations of the cached share of
// prompt tokens is within 5 points of the median the hash ids imply, an
// unbounded cache holding every full 64-token block an earlier request of
// the conversation sent, up to the first block that differs.
func TestWEKAReplay(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../../shared/traces/weka-agentic/trace_*.json")
	if len(files) == 0 {
		t.Skip("no WEKA traces")
	}
	dir := t.TempDir()
	tr := filepath.Join(dir, "weka.jsonl")
	if code, _, e := run(t, append([]string{"import", "--speed", "10", "--concurrency", "2", "-o", tr}, files...)...); code != exitOK {
		t.Fatalf("import: %s", e)
	}
	out := filepath.Join(dir, "sim")
	if code, o, e := run(t, "sim", tr, "--model", "qwen2.5-7b-1m", "--gpu", "h100", "-o", out); code != exitOK {
		t.Fatalf("sim: exit %d\n%s\n%s", code, e, o)
	}
	prompt, cached := map[int]float64{}, map[int]float64{}
	for _, r := range readRun(t, out).Records {
		if !r.OK() {
			t.Fatalf("record %+v failed", r)
		}
		prompt[r.Session] += float64(r.ServerInputTokens)
		cached[r.Session] += float64(r.CachedTokens)
	}
	var engine, want []float64
	for i, f := range files {
		engine = append(engine, cached[i]/prompt[i])
		want = append(want, wekaReuse(t, f))
	}
	me, mw := medianOf(engine), medianOf(want)
	t.Logf("median per-conversation reuse: engine %.4f, trace %.4f (%d conversations)", me, mw, len(files))
	if mw < 0.9 || abs64(me-mw) > 0.05 {
		t.Errorf("median per-conversation reuse: engine %.4f, trace %.4f; want within 5 points, the trace's near 95%%", me, mw)
	}
}

// wekaReuse computes a conversation's block reuse from its hash ids.
func wekaReuse(t *testing.T, path string) float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		BlockSize int `json:"block_size"`
		Requests  []struct {
			In      int      `json:"in"`
			HashIDs []uint64 `json:"hash_ids"`
		} `json:"requests"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	var hit, total float64
	var earlier [][]uint64
	for _, q := range c.Requests {
		best := 0
		for _, e := range earlier {
			n := 0
			for n < len(q.HashIDs) && n < len(e) && q.HashIDs[n] == e[n] {
				n++
			}
			best = max(best, n)
		}
		hit += float64(best * c.BlockSize)
		total += float64(q.In)
		earlier = append(earlier, q.HashIDs)
	}
	return hit / total
}

// medianOf returns the middle value of v (the upper one of an even count).
func medianOf(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
