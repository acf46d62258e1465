package cli

import (
	"path/filepath"
	"testing"
)

const agentRunSpec = `version: 1
seed: 12
requests: 6
clients:
  - name: coder
    model: Llama-3.1-8B
    concurrency: 3
    input: 1k
    output: 20
    reasoning: 10
    sampling: {exact_output: true}
    session:
      kind: agent
      steps: {dist: uniform, min: 3, max: 6}
      tools: {dist: uniform, min: 1, max: 3}
      tool_latency: {dist: uniform, min: 20ms, max: 80ms}
      tool_result: 300
      subagent: {probability: 0.3, steps: 2, task: 400}
      compaction: {limit: 3k, to: 1k}
      history: live
    prefix: {length: 2k}
`

// TestAgentEndToEnd runs agent episodes (parallel tool calls, sub-agents,
// compaction, live history) through surge run against the built-in
// engine: every turn of the trace is sent and succeeds, and the server's
// prefix-cache hit rate is within 10 points of the reuse the workload
// implies.
func TestAgentEndToEnd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	spec := writeSpec(t, dir, "agent.yaml", agentRunSpec)
	tracePath := filepath.Join(dir, "agent.jsonl")
	if code, _, e := run(t, "gen", spec, "-o", tracePath); code != exitOK {
		t.Fatalf("gen: %s", e)
	}
	in, err := readTraceFile(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	turns, forks := 0, 0
	for _, s := range in.Sessions {
		turns += len(s.Turns)
		for _, tu := range s.Turns {
			forks += len(tu.After)
		}
	}
	rs := runSpec(t, agentRunSpec, startEngine(t))
	prompt, cached, _ := cacheOf(t, rs)
	got, implied := float64(cached)/float64(prompt), rs.Header.PrefixReuse.Ratio()
	t.Logf("%d turns (%d fork/join/compaction edges); hit rate %.3f, implied %.3f", turns, forks, got, implied)
	if len(rs.Records) != turns || forks == 0 {
		t.Errorf("%d records for %d turns (%d extra edges)", len(rs.Records), turns, forks)
	}
	if abs64(got-implied) > 0.10 {
		t.Errorf("hit rate %.3f, implied %.3f: want within 10 points", got, implied)
	}
}
