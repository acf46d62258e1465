package workload

import (
	"math"
	"os"
	"testing"
)

const agentSpec = `version: 1
seed: 6
requests: 3000
clients:
  - name: coder
    model: m
    concurrency: 8
    input: 2k
    output: 100
    session:
      kind: agent
      steps: {dist: uniform, min: 2, max: 12}
      tools: {dist: empirical, values: [1, 2, 4], weights: [6, 3, 1]}
      tool_latency: {dist: exponential, mean: 2s}
      tool_result: 300
      history: pinned
    prefix: {length: 1k}
`

// TestAgentShapes checks agent episodes against the spec over 3,000
// episodes without sub-agents or compaction: main-loop steps uniform on
// 2..12 (mean 7), every step after the first reading the tool results of
// the step before (1, 2 or 4 calls in the ratio 6:3:1, 300 tokens each)
// after the slowest call (the maximum of exponentials of mean 2 s), and
// each prompt the whole context so far.
func TestAgentShapes(t *testing.T) {
	t.Parallel()
	_, ss := generate(t, parse(t, agentSpec), Options{NoText: true})
	var steps, waits float64
	var nWait int
	calls := map[int]int{}
	for _, s := range ss {
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		steps += float64(len(s.Turns))
		for k, tu := range s.Turns {
			if k == 0 {
				if tu.Parent != nil || tu.InputTokens != 3000 || tu.SystemTokens != 1000 {
					t.Fatalf("%d turn 0: %+v", s.Index, tu)
				}
				continue
			}
			p := s.Turns[k-1]
			if tu.Parent == nil || *tu.Parent != k-1 || tu.InputTokens != p.InputTokens+p.OutputTokens+300*tu.ToolCalls {
				t.Fatalf("%d turn %d: %+v after %+v", s.Index, k, tu, p)
			}
			calls[tu.ToolCalls]++
			waits += float64(tu.WaitUS) / 1e6
			nWait++
		}
	}
	if m := steps / float64(len(ss)); math.Abs(m-7) > 0.2 {
		t.Errorf("mean steps %.2f, want 7 ± 0.2", m)
	}
	n := float64(nWait)
	for c, want := range map[int]float64{1: 0.6, 2: 0.3, 4: 0.1} {
		if got := float64(calls[c]) / n; math.Abs(got-want) > 0.02 {
			t.Errorf("%d tool calls in %.3f of steps, want %.2f", c, got, want)
		}
	}
	// E[max of k exponentials of mean μ] = μ·H_k: 1, 1.5 and 25/12 × 2 s.
	want := 2 * (0.6*1 + 0.3*1.5 + 0.1*25.0/12)
	if got := waits / n; math.Abs(got-want) > 0.05*want {
		t.Errorf("mean tool wait %.3f s, want %.3f s (the slowest of the parallel calls)", got, want)
	}
}

// TestAgentSubagentsAndCompaction checks the testdata agent: sub-agents
// fork after a step with a fresh context of their task and join the step
// after, which reads their last answer; compaction restarts the context
// from the system prompt and a summary once it would pass 20k tokens, so
// no prompt exceeds the limit by more than one step's growth. Texts are
// exact.
func TestAgentSubagentsAndCompaction(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../spec/testdata/agent.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := parse(t, string(data))
	s.Requests = 40
	tok, _ := o200k(t)
	_, ss := generate(t, s, Options{})
	var subs, compactions int
	for _, se := range ss {
		if err := se.Validate(); err != nil {
			t.Fatal(err)
		}
		for k, tu := range se.Turns {
			switch {
			case tu.Parent == nil && k > 0 && tu.SystemTokens == 0:
				subs++ // a sub-agent's first turn: its task alone
				if len(tu.After) != 1 || tu.InputTokens != len(tok.Encode(tu.Prompt)) {
					t.Fatalf("%d turn %d: sub-agent start %+v", se.Index, k, tu)
				}
			case tu.Parent == nil && k > 0:
				compactions++
				if tu.SystemTokens != se.Turns[0].SystemTokens || len(tu.After) == 0 {
					t.Fatalf("%d turn %d: compaction %+v", se.Index, k, tu)
				}
			}
			if tu.InputTokens > 20_000+20_000 {
				t.Fatalf("%d turn %d: prompt of %d tokens, far past the 20k limit", se.Index, k, tu.InputTokens)
			}
			if n := len(tok.Encode(tu.Reply)); n != tu.OutputTokens-tu.ReasoningTokens {
				t.Fatalf("%d turn %d: reply %d tokens, want %d", se.Index, k, n, tu.OutputTokens-tu.ReasoningTokens)
			}
		}
	}
	if subs == 0 || compactions == 0 {
		t.Errorf("%d sub-agents and %d compactions in 40 episodes; the spec makes both likely", subs, compactions)
	}
}

// TestAgentReset checks an agent whose context resets: with probability
// 0.3 a tool-calling step starts a fresh context of exactly 500 tokens
// after the system prompt (no parent, after the step before), so about
// 30% of later turns are resets and every other later prompt grows.
func TestAgentReset(t *testing.T) {
	t.Parallel()
	s := parse(t, `version: 1
seed: 3
requests: 60
clients:
  - name: coder
    model: m
    concurrency: 2
    input: 2k
    output: 100
    session:
      kind: agent
      steps: 10
      tools: 1
      tool_latency: 1s
      tool_result: 300
      reset: {probability: 0.3, to: 500}
      history: pinned
`)
	_, ss := generate(t, s, Options{NoText: true})
	resets, later := 0, 0
	for _, se := range ss {
		if err := se.Validate(); err != nil {
			t.Fatal(err)
		}
		for k, tu := range se.Turns[1:] {
			later++
			prev := se.Turns[k]
			switch {
			case tu.Parent == nil:
				resets++
				if tu.InputTokens != tu.SystemTokens+500 || len(tu.After) != 1 || tu.After[0] != k {
					t.Fatalf("%d turn %d: reset %+v", se.Index, k+1, tu)
				}
			case tu.InputTokens != prev.InputTokens+prev.OutputTokens+300:
				t.Fatalf("%d turn %d: prompt %d, want %d", se.Index, k+1, tu.InputTokens, prev.InputTokens+prev.OutputTokens+300)
			}
		}
	}
	if share := float64(resets) / float64(later); share < 0.22 || share > 0.38 {
		t.Errorf("%d resets of %d later turns (%.2f), want about 0.3", resets, later, share)
	}
}
