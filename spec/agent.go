package spec

import (
	"math"

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
	// Scale, when set, is drawn once per episode and multiplies each of
	// its tool results: episodes that read much and episodes that read
	// little, as a trace's episodes differ.
	Scale dist.Dist
	// Correlation, when set, rank-correlates an episode's steps, task
	// (the client's input) and Scale.
	Correlation *EpisodeCorrelation
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
	// ByContext, when set, makes the chance depend on the context: a
	// step whose context (the prompt it follows) is at least At[i]
	// tokens, and below At[i+1], resets with Probability[i]; below At[0]
	// it resets with the Reset's Probability. A coding agent compacts
	// near its model's window, so resets gather at a few lengths.
	ByContext *ContextHazard
}

// ContextHazard is a step's chance of a reset by the length of its
// context, piecewise constant from each of At (ascending) upward.
type ContextHazard struct {
	At          []int
	Probability []float64
}

// At returns the chance of a reset of a step whose context is n tokens.
func (r *Reset) At(n int) float64 {
	p := r.Probability
	if h := r.ByContext; h != nil {
		for i, at := range h.At {
			if n < at {
				break
			}
			p = h.Probability[i]
		}
	}
	return p
}

// EpisodeCorrelation is the Spearman rank correlation of each pair of an
// episode's steps, task length and scale, drawn through a Gaussian
// copula so that each keeps its own distribution.
type EpisodeCorrelation struct {
	StepsInput, StepsScale, InputScale float64
}

// pearson returns the normal correlations that give c's rank
// correlations (r = 2 sin(π ρ/6)), as steps–input, steps–scale and
// input–scale.
func (c EpisodeCorrelation) pearson() [3]float64 {
	var r [3]float64
	for i, rho := range [3]float64{c.StepsInput, c.StepsScale, c.InputScale} {
		r[i] = 2 * math.Sin(math.Pi*rho/6)
	}
	return r
}

// Cholesky returns the lower-triangular factor L of the copula's
// correlation matrix (order steps, input, scale), so that L·z is the
// copula's normals for z standard normal; ok is false when the three
// correlations are not those of any joint law (the matrix is not
// positive definite).
func (c EpisodeCorrelation) Cholesky() (l [3][3]float64, ok bool) {
	r := c.pearson()
	m := [3][3]float64{{1, r[0], r[1]}, {r[0], 1, r[2]}, {r[1], r[2], 1}}
	for i := range 3 {
		for j := 0; j <= i; j++ {
			s := m[i][j]
			for k := range j {
				s -= l[i][k] * l[j][k]
			}
			if i == j {
				if s <= 1e-9 {
					return l, false
				}
				l[i][i] = math.Sqrt(s)
			} else {
				l[i][j] = s / l[j][j]
			}
		}
	}
	return l, true
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
var agentKeys = []string{"steps", "tools", "tool_latency", "tool_result", "scale", "correlation", "subagent", "compaction", "reset", "tool_set"}

// agent reads the agent keys of a session block.
func (d *decoder) agent(o *object) *Agent {
	a := &Agent{}
	a.Steps = d.lengths(o, "steps", "LLM calls per episode, like steps: {dist: uniform, min: 5, max: 40}")
	a.Tools = d.lengths(o, "tools", "parallel tool calls per step, like tools: 1 or {dist: empirical, values: [1, 2, 4], weights: [6, 3, 1]}")
	if _, _, ok := d.require(o, "tool_latency", "how long each tool call takes, like tool_latency: {dist: lognormal, median: 2s, sigma: 1}"); ok {
		a.ToolLatency = d.durations(o, "tool_latency")
	}
	a.ToolResult = d.lengths(o, "tool_result", "tokens each tool result adds, like tool_result: {dist: lognormal, median: 400, sigma: 1}")
	if n, p, ok := o.get("scale"); ok {
		a.Scale = d.factor(n, p)
	}
	if n, p, ok := o.get("correlation"); ok {
		a.Correlation = d.episodeCorrelation(n, p, a.Scale != nil)
	}
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
	d.known(o, []string{"probability", "to", "by_context"}, "reset")
	r := &Reset{}
	if requireField(d, o, "probability", "the chance a step starts a fresh context, like probability: 0.01", d.number, &r.Probability) {
		d.check(o, "probability", r.Probability < 0 || r.Probability > 1, "probability must be in [0, 1], got %g", r.Probability)
	}
	r.To = d.lengths(o, "to", "tokens of the fresh context, like to: 20k")
	if n, p, ok := o.get("by_context"); ok {
		r.ByContext = d.contextHazard(n, p)
	}
	return r
}

// contextHazard reads a reset's by_context block: {at: [...],
// probability: [...]}, contexts ascending, one chance for each.
func (d *decoder) contextHazard(n ast.Node, path string) *ContextHazard {
	o, ok := d.object(n, path)
	if !ok {
		return nil
	}
	d.known(o, []string{"at", "probability"}, "by_context")
	at, ok1 := d.numbers(o, "at")
	ps, ok2 := d.numbers(o, "probability")
	if !ok1 || !ok2 {
		return nil
	}
	const hint = "like by_context: {at: [120k, 150k], probability: [0.01, 0.08]}"
	if !d.check(o, "at", len(at) == 0 || len(at) != len(ps), "at and probability must be lists of the same, non-zero length (%d and %d), %s", len(at), len(ps), hint) {
		return nil
	}
	h := &ContextHazard{At: make([]int, len(at)), Probability: ps}
	for i, x := range at {
		d.check(o, "at", x < 1 || x != math.Trunc(x) || i > 0 && x <= at[i-1], "at must be whole token counts of at least 1, ascending; item %d is %g", i, x)
		d.check(o, "probability", ps[i] < 0 || ps[i] > 1, "probability must be in [0, 1]; item %d is %g", i, ps[i])
		h.At[i] = int(x)
	}
	return h
}

// factor reads an agent's scale: a distribution of factors, none of
// them negative, one drawn per episode.
func (d *decoder) factor(n ast.Node, path string) dist.Dist {
	f := d.dist(n, path, 0)
	if q, ok := f.(dist.Quantiler); ok && (q.Quantile(0) < 0 || q.Quantile(1) <= 0) {
		d.errorf(d.value(n, path), path, "scale multiplies tool results, so it must be positive (%s), like scale: {dist: lognormal, median: 1, sigma: 0.8}", f)
		return nil
	}
	return f
}

// episodeCorrelation reads an agent's correlation block: the rank
// correlations of steps, input (the task) and scale, each in (−1, 1).
func (d *decoder) episodeCorrelation(n ast.Node, path string, scale bool) *EpisodeCorrelation {
	o, ok := d.object(n, path)
	if !ok {
		return nil
	}
	d.known(o, []string{"steps_input", "steps_scale", "input_scale"}, "correlation")
	c := &EpisodeCorrelation{}
	for _, f := range []struct {
		key string
		dst *float64
	}{{"steps_input", &c.StepsInput}, {"steps_scale", &c.StepsScale}, {"input_scale", &c.InputScale}} {
		if field(o, f.key, d.number, f.dst) {
			d.check(o, f.key, *f.dst <= -1 || *f.dst >= 1, "%s must be in (−1, 1), got %g", f.key, *f.dst)
			d.check(o, f.key, !scale && f.key != "steps_input" && *f.dst != 0, "%s correlates the episode's scale: set scale too", f.key)
		}
	}
	if _, ok := c.Cholesky(); !ok {
		d.check(o, "steps_input", true, "these three correlations cannot hold together (their matrix is not positive definite): move them toward 0")
	}
	return c
}
