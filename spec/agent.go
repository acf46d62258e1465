package spec

import (
	"github.com/goccy/go-yaml/ast"

	"surge/dist"
)

// Agent is the shape of an agent episode (session kind agent): a loop of
// LLM calls in one growing context. Every call but the last makes tool
// calls, run in parallel; the next call starts when the slowest has
// returned and reads all their results. The client's input is the task
// the episode starts from, its output each call's answer or tool-call
// tokens, its reasoning each call's thinking.
type Agent struct {
	Steps       dist.Dist // LLM calls in the main loop (≥ 1 after rounding)
	Tools       dist.Dist // tool calls a step makes, in parallel (≥ 1)
	ToolLatency dist.Dist // seconds each tool call takes
	ToolResult  dist.Dist // tokens each tool result adds to the context
	Subagent    *Subagent
	Compaction  *Compaction
	Reset       *Reset
	// ToolSet is the tool definitions every call sends; nil sends none.
	ToolSet *ToolSet
}

// Reset is a context that shrinks without a limit: with Probability a
// step that calls tools starts a fresh context of To tokens (its new
// message included, after the system prompt), as a coding agent's
// context does when it is cleared or compacted on its own.
type Reset struct {
	Probability float64
	To          dist.Dist
}

// Subagent is an agent's delegation: instead of calling tools, a step may
// fork a sub-agent that works in its own, smaller context and whose final
// answer the next step reads.
type Subagent struct {
	Probability float64   // chance a non-final step delegates
	Steps       dist.Dist // the sub-agent's LLM calls (≥ 1)
	Task        dist.Dist // tokens of the task the sub-agent starts from
}

// Compaction is an agent's context management: once the context would
// grow past Limit tokens, the agent starts a fresh context from a summary
// of To tokens (plus the pending tool results).
type Compaction struct {
	Limit int
	To    dist.Dist
}

// agentKeys are the session keys of kind agent.
var agentKeys = []string{"steps", "tools", "tool_latency", "tool_result", "subagent", "compaction", "reset", "tool_set"}

// agent reads the agent keys of a session block.
func (d *decoder) agent(o *object) *Agent {
	a := &Agent{}
	a.Steps = d.lengths(o, "steps", "LLM calls per episode, like steps: {dist: uniform, min: 5, max: 40}")
	a.Tools = d.lengths(o, "tools", "parallel tool calls per step, like tools: 1 or {dist: empirical, values: [1, 2, 4], weights: [6, 3, 1]}")
	if _, _, ok := d.require(o, "tool_latency", "how long each tool call takes, like tool_latency: {dist: lognormal, median: 2s, sigma: 1}"); ok {
		a.ToolLatency = d.durations(o, "tool_latency")
	}
	a.ToolResult = d.lengths(o, "tool_result", "tokens each tool result adds, like tool_result: {dist: lognormal, median: 400, sigma: 1}")
	if n, p, ok := o.get("subagent"); ok {
		a.Subagent = d.subagent(n, p)
	}
	if n, p, ok := o.get("compaction"); ok {
		a.Compaction = d.compaction(n, p)
	}
	if n, p, ok := o.get("reset"); ok {
		a.Reset = d.reset(n, p)
	}
	if n, p, ok := o.get("tool_set"); ok {
		a.ToolSet = d.toolSet(n, p)
	}
	return a
}

// subagent reads an agent's sub-agent block.
func (d *decoder) subagent(n ast.Node, path string) *Subagent {
	o, ok := d.object(n, path)
	if !ok {
		return nil
	}
	d.known(o, []string{"probability", "steps", "task"}, "subagent")
	s := &Subagent{}
	if requireField(d, o, "probability", "the chance a step delegates to a sub-agent, like probability: 0.1", d.number, &s.Probability) {
		d.check(o, "probability", s.Probability < 0 || s.Probability > 1, "probability must be in [0, 1], got %g", s.Probability)
	}
	s.Steps = d.lengths(o, "steps", "the sub-agent's LLM calls, like steps: 5")
	s.Task = d.lengths(o, "task", "tokens of the sub-agent's task, like task: 1k")
	return s
}

// compaction reads an agent's compaction block.
func (d *decoder) compaction(n ast.Node, path string) *Compaction {
	o, ok := d.object(n, path)
	if !ok {
		return nil
	}
	d.known(o, []string{"limit", "to"}, "compaction")
	c := &Compaction{}
	if requireField(d, o, "limit", "the context length that triggers compaction, like limit: 100k", d.count, &c.Limit) {
		d.check(o, "limit", c.Limit < 1, "limit must be at least 1 token")
	}
	c.To = d.lengths(o, "to", "tokens of the summary the agent continues from, like to: 8k")
	if q, ok := c.To.(dist.Quantiler); ok && c.Limit > 0 && q.Quantile(0) >= float64(c.Limit) {
		d.check(o, "to", true, "the summary (%s) is never shorter than the limit %d", c.To, c.Limit)
	}
	return c
}

// reset reads an agent's reset block.
func (d *decoder) reset(n ast.Node, path string) *Reset {
	o, ok := d.object(n, path)
	if !ok {
		return nil
	}
	d.known(o, []string{"probability", "to"}, "reset")
	r := &Reset{}
	if requireField(d, o, "probability", "the chance a step starts a fresh context, like probability: 0.01", d.number, &r.Probability) {
		d.check(o, "probability", r.Probability < 0 || r.Probability > 1, "probability must be in [0, 1], got %g", r.Probability)
	}
	r.To = d.lengths(o, "to", "tokens of the fresh context, like to: 20k")
	return r
}
