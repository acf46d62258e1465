package conformance

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// chatSpec is an open-loop chat client: 4 conversations of 3 turns with
// shared system prompts and think times, replies of output tokens,
// history live or pinned, and the sampling settings given (exact_output
// or max_tokens).
func chatSpec(history, sampling string, output int) string {
	return fmt.Sprintf(`version: 1
seed: 11
tokenizer: o200k_base
requests: 4
clients:
  - name: talk
    model: %s
    rate: 20/s
    input: {dist: uniform, min: 20, max: 60}
    output: %d
    reasoning: {dist: uniform, min: 0, max: 4}
    sampling: {%s}
    prefix: {pool: 2, length: 40}
    session:
      kind: chat
      turns: 3
      think: {dist: uniform, min: 10ms, max: 40ms}
      history: %s
`, servedModel, output, sampling, history)
}

// exact asks for exact output lengths.
const exact = "exact_output: true"

// agentSpec is a closed-loop agent client: 3 episodes, 2 in flight, of 3
// to 5 calls with 1 to 3 parallel tool calls, sub-agents, compaction and
// reasoning.
func agentSpec(history string) string {
	return fmt.Sprintf(`version: 1
seed: 21
tokenizer: o200k_base
requests: 3
clients:
  - name: coder
    model: %s
    concurrency: 2
    input: {dist: uniform, min: 40, max: 80}
    output: {dist: uniform, min: 6, max: 12}
    reasoning: {dist: uniform, min: 1, max: 4}
    sampling: {exact_output: true}
    prefix: {pool: 2, length: 60}
    session:
      kind: agent
      steps: {dist: uniform, min: 3, max: 5}
      tools: {dist: empirical, values: [1, 2, 3], weights: [1, 1, 1]}
      tool_latency: {dist: uniform, min: 5ms, max: 30ms}
      tool_result: {dist: uniform, min: 15, max: 40}
      subagent: {probability: 0.5, steps: {dist: uniform, min: 2, max: 3}, task: 30}
      compaction: {limit: 450, to: 50}
      history: %s
`, servedModel, history)
}

// ragSpec is an open-loop RAG client over a pool of 20 documents.
const ragSpec = `version: 1
seed: 7
tokenizer: o200k_base
requests: 5
clients:
  - name: rag
    model: ` + servedModel + `
    rate: 20/s
    input: {dist: uniform, min: 10, max: 30}
    output: 8
    sampling: {exact_output: true}
    prefix: {pool: 1, length: 30}
    session:
      kind: rag
      documents: 20
      zipf: 1.1
      chunks: {dist: uniform, min: 2, max: 4}
      chunk: {dist: uniform, min: 20, max: 50}
`

// batchSpec is two batch jobs of 3 to 5 requests released over 80 ms,
// beside single requests of another client.
const batchSpec = `version: 1
seed: 3
tokenizer: o200k_base
requests: 5
clients:
  - name: jobs
    model: ` + servedModel + `
    rate: 10/s
    input: {dist: uniform, min: 40, max: 120}
    output: 8
    sampling: {exact_output: true}
    prefix: {pool: 1, length: 20}
    session:
      kind: batch
      size: {dist: uniform, min: 3, max: 5}
      window: 80ms
      deadline: 5s
  - name: single
    model: ` + servedModel + `
    rate: 10/s
    input: {dist: uniform, min: 20, max: 60}
    output: 8
    sampling: {exact_output: true}
`

// conformanceCase is one workload run through both sides.
type conformanceCase struct {
	name     string
	spec     string
	pinned   bool // the client's history is pinned
	exactOut bool // the engine generates exactly the trace's output lengths
	// median, when positive, is the real-time engine's median natural
	// reply length (for outputs that are not exact).
	median int
	// refuse, when set, sets the context limit of both engines so that
	// about half the turns that could be sent are refused; the check
	// then wants a refusal and a turn left unsent for it.
	refuse bool
	// limit, when positive, is both engines' context limit.
	limit int
	// dag, when set, wants the trace to hold joins (turns with After)
	// and parallel tool calls, so the case tests what it means to.
	dag bool
	// salted sends the driver's prompts salted, as surge run does; the
	// virtual run has no salt, and the lengths must agree all the same.
	salted bool
}

// TestConformance runs each workload through the driver against the
// built-in engine in real time and through sim/virtual in virtual time,
// and checks that both send the same turns in dependency order after
// their waits, with the prompts docs/trace.md prescribes.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the built-in engine in real time")
	}
	c := newContent(t)
	hw := hardware(t)
	cases := []conformanceCase{
		{name: "chat live", spec: chatSpec("live", exact, 12), exactOut: true},
		{name: "chat pinned", spec: chatSpec("pinned", exact, 12), pinned: true, exactOut: true},
		{name: "chat live natural lengths", spec: chatSpec("live", "max_tokens: output", 12), median: 8},
		{name: "agent pinned", spec: agentSpec("pinned"), pinned: true, exactOut: true, dag: true},
		{name: "agent live", spec: agentSpec("live"), exactOut: true, dag: true},
		{name: "rag", spec: ragSpec, exactOut: true},
		{name: "batch", spec: batchSpec, exactOut: true},
		// Replies longer than the context allows are cut at its end, on
		// both sides; the next turn, carrying the cut reply, is refused.
		{name: "chat live cut by the context", spec: chatSpec("live", "max_tokens: none", 300), median: 5000, limit: 200},
		{name: "chat refused", spec: chatSpec("pinned", exact, 12), pinned: true, exactOut: true, refuse: true},
		{name: "agent refused", spec: agentSpec("pinned"), pinned: true, exactOut: true, refuse: true, dag: true},
		// The salt takes the place of each conversation's first tokens:
		// a system prompt (chat) or a user message (batch's single).
		{name: "chat live salted", spec: chatSpec("live", exact, 12), exactOut: true, salted: true},
		{name: "batch salted", spec: batchSpec, exactOut: true, salted: true},
	}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			w := c.compile(t, tc.spec)
			if tc.dag {
				checkDAG(t, w)
			}
			e := engine{hw: hw, outputMedian: tc.median, maxModelLen: tc.limit}
			if tc.refuse {
				e.maxModelLen = refusingLimit(w)
			}
			vir := runVirtual(t, c, e, w)
			salt := ""
			if tc.salted {
				salt = "[surge 0123456789]\n"
			}
			drv := runDriver(t, c, e, w, salt)
			for _, o := range []outcome{drv, vir} {
				checkSent(t, w, o)
				checkOrder(t, w, o, o.sent == nil)
				checkTokens(t, w, o, tc.pinned, tc.exactOut)
				checkClosedLoop(t, w, o)
			}
			checkSame(t, drv, vir)
			checkMessages(t, c, w, drv, tc.pinned)
			if tc.refuse {
				checkRefused(t, w, drv)
			}
		})
	}
}

// refusingLimit is a context limit that about half of the distinct sizes
// (prompt + max_tokens) of w's turns that others depend on exceed, so
// some refusals leave turns unsent; a turn of exactly the limit fits.
func refusingLimit(w *workloadOf) int {
	var need []int
	for _, s := range w.sessions {
		for _, tu := range s.Turns {
			for _, d := range tu.Deps() {
				need = append(need, s.Turns[d].InputTokens+s.Turns[d].MaxTokens)
			}
		}
	}
	slices.Sort(need)
	need = slices.Compact(need)
	return need[len(need)/2]
}

// checkRefused checks that the refusing case refused some turns and left
// some unsent for it, so the case tests what it means to.
func checkRefused(t *testing.T, w *workloadOf, o outcome) {
	t.Helper()
	refused, total := 0, 0
	for _, s := range w.sessions {
		total += len(s.Turns)
	}
	for _, rec := range o.recs {
		if rec.Status == 400 {
			refused++
		}
	}
	if refused == 0 || len(o.recs) == total {
		t.Errorf("%s: %d of %d turns sent, %d refused: want some refused and some left unsent", o.side, len(o.recs), total, refused)
	}
}

// checkDAG checks that w holds a join (a turn with After), a turn
// reading several parallel tool calls and a reasoning turn.
func checkDAG(t *testing.T, w *workloadOf) {
	t.Helper()
	var joins, fanIn, reasoning int
	for _, s := range w.sessions {
		for _, tu := range s.Turns {
			if len(tu.After) > 0 {
				joins++
			}
			if tu.ToolCalls > 1 {
				fanIn++
			}
			if tu.ReasoningTokens > 0 {
				reasoning++
			}
		}
	}
	if joins == 0 || fanIn == 0 || reasoning == 0 {
		t.Fatalf("the agent trace has %d joins, %d turns reading several tool calls and %d reasoning turns: want some of each", joins, fanIn, reasoning)
	}
}
