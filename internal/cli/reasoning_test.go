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
// TTFO apart, with the boundary exactly after the reasoning tokens (TTFO −
// TTFT is the sum of the first reasoning_tokens inter-token gaps), and
// TTFO − TTFT tracks the reasoning length: a least-squares line through
// (reasoning tokens, TTFO − TTFT) has a slope near the mean inter-token
// latency and explains nearly all the variation. In real time that line
// measures the machine as much as the engine (a loaded CI runner stretches
// some steps), so it is asserted there only with SURGE_STRICT_TIMING.
func TestReasoningTTFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	spec := writeSpec(t, dir, "think.yaml", reasoningSpec)
	for _, c := range []struct {
		cmd   []string
		timed bool
	}{
		{[]string{"run", spec, "-o", filepath.Join(dir, "run")}, os.Getenv("SURGE_STRICT_TIMING") != ""},
		{[]string{"sim", spec, "--model", "qwen3-8b", "--gpu", "h100", "-o", filepath.Join(dir, "sim")}, true},
	} {
		name := c.cmd[0]
		code, out, e := run(t, c.cmd...)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s\n%s", name, code, e, out)
		}
		rs := readRun(t, c.cmd[len(c.cmd)-1])
		checkBoundary(t, name, rs)
		slope, r2, itl := fitReasoning(t, rs)
		t.Logf("%s: TTFO − TTFT = %.1f µs per reasoning token (R² %.4f), mean ITL %.1f µs", name, slope, r2, itl)
		if c.timed && (r2 < 0.95 || math.Abs(slope-itl) > 0.2*itl) {
			t.Errorf("%s: TTFO − TTFT grows %.1f µs per reasoning token (R² %.3f); want near the mean ITL %.1f µs, R² ≥ 0.95", name, slope, r2, itl)
		}
	}
}

// checkBoundary asserts that each record's answer began on the token event
// right after its reasoning tokens: with one token per event, TTFO − TTFT
// is the sum of the first reasoning_tokens gaps, to the microsecond (the
// recorded gaps telescope over rounded offsets).
func checkBoundary(t *testing.T, name string, rs *trace.Records) {
	t.Helper()
	for _, r := range rs.Records {
		if len(r.ITLUS) < r.ReasoningTokens {
			t.Fatalf("%s: record %d/%d: %d gaps for %d reasoning tokens", name, r.Session, r.Turn, len(r.ITLUS), r.ReasoningTokens)
		}
		var sum int64
		for _, g := range r.ITLUS[:r.ReasoningTokens] {
			sum += g
		}
		if got := r.TTFOUS - r.TTFTUS; got != sum {
			t.Errorf("%s: record %d/%d: TTFO − TTFT = %d µs, sum of the first %d gaps = %d µs", name, r.Session, r.Turn, got, r.ReasoningTokens, sum)
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
