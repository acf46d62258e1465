package cli

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"surge/trace"
)

const reasoningSpec = `version: 1
seed: 8
requests: 40
clients:
  - name: think
    model: Qwen3-8B
    rate: 8/s
    arrival: {process: constant}
    input: 100
    output: 10
    reasoning: {dist: uniform, min: 10, max: 150}
    sampling: {exact_output: true}
`

// TestReasoningTTFO runs a reasoning workload against the built-in engine
// (surge run, real time) and through surge sim: the records hold TTFT and
// TTFO apart, and TTFO − TTFT tracks the reasoning length: a least-squares
// line through (reasoning tokens, TTFO − TTFT) has a slope near the mean
// inter-token latency and explains nearly all the variation.
func TestReasoningTTFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	spec := filepath.Join(dir, "think.yaml")
	if err := os.WriteFile(spec, []byte(reasoningSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{
		{"run", spec, "-o", filepath.Join(dir, "run")},
		{"sim", spec, "--model", "qwen3-8b", "--gpu", "h100", "-o", filepath.Join(dir, "sim")},
	} {
		code, out, e := run(t, cmd...)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s\n%s", cmd[0], code, e, out)
		}
		slope, r2, itl := fitReasoning(t, readRun(t, cmd[len(cmd)-1]))
		t.Logf("%s: TTFO − TTFT = %.1f µs per reasoning token (R² %.4f), mean ITL %.1f µs", cmd[0], slope, r2, itl)
		if r2 < 0.95 || math.Abs(slope-itl) > 0.2*itl {
			t.Errorf("%s: TTFO − TTFT grows %.1f µs per reasoning token (R² %.3f); want near the mean ITL %.1f µs, R² ≥ 0.95", cmd[0], slope, r2, itl)
		}
	}
}

// fitReasoning fits TTFO − TTFT against the reasoning tokens of the
// records, returning the slope, R² and the mean inter-token latency.
func fitReasoning(t *testing.T, rs *trace.Records) (slope, r2, itl float64) {
	t.Helper()
	var n, sx, sy, sxx, sxy, syy, gaps, ngaps float64
	for _, r := range rs.Records {
		if !r.OK() || r.ReasoningTokens == 0 || r.TTFOUS <= r.TTFTUS {
			t.Fatalf("record %+v: want reasoning, and TTFO after TTFT", r)
		}
		x, y := float64(r.ReasoningTokens), float64(r.TTFOUS-r.TTFTUS)
		n, sx, sy, sxx, sxy, syy = n+1, sx+x, sy+y, sxx+x*x, sxy+x*y, syy+y*y
		for _, g := range r.ITLUS {
			gaps, ngaps = gaps+float64(g), ngaps+1
		}
	}
	cov, vx, vy := sxy-sx*sy/n, sxx-sx*sx/n, syy-sy*sy/n
	return cov / vx, cov * cov / (vx * vy), gaps / ngaps
}
