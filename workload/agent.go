package workload

import (
	"surge/dist"
	"surge/spec"
	"surge/trace"
)

// episode builds the turns of agent sessions. Each turn's user message
// (the task, tool results, a summary or a sub-agent's answer) is planned
// as a length first; texts are drawn once every length is known.
type episode struct {
	b     *builder
	c     *client
	a     *spec.Agent
	turns []trace.Turn
	users []int   // tokens of each turn's new user message
	scale float64 // the factor of the episode's tool results
}

// agent builds an agent episode of client c: a main loop of steps in one
// context, each but the last making tool calls (or, with a sub-agent,
// delegating) whose results the next step reads after the slowest call
// returns; compaction restarts the context from a summary when it would
// pass its limit. Lengths come first from the session's generator, in turn
// order (steps, system prompt, then per step its lengths, tool calls and
// their latencies and results, sub-agent turns where they fork), then the
// texts, so a --no-text trace holds the same workload.
func (b *builder) agent(c *client) []trace.Turn {
	e := &episode{b: b, c: c, a: c.Session.Agent, scale: 1}
	u, corr := e.copula()
	steps := tokens(e.draw(e.a.Steps, u[0], corr))
	sysID, sys := b.system(c)
	var first trace.Turn
	if corr {
		first = b.turnFor(c, tokens(quantile(c.Input, u[1])))
	} else {
		first = b.newTurn(c)
	}
	if e.a.Scale != nil {
		e.scale = max(e.draw(e.a.Scale, u[2], corr), 0)
	}
	if sys != nil {
		first.SystemID, first.SystemTokens, first.System = sysID, sys.tokens, sys.text
	}
	e.add(first, first.InputTokens)
	e.turns[0].InputTokens += first.SystemTokens
	e.loop(0, steps, e.a.Compaction)
	if !b.g.noText {
		b.chatText(c, e.turns, e.users)
	}
	return e.turns
}

// copula draws the uniforms of the episode's steps, task and scale from
// the session's Gaussian copula, when it has a correlation.
func (e *episode) copula() (u [3]float64, ok bool) {
	c := e.a.Correlation
	if c == nil {
		return u, false
	}
	l, _ := c.Cholesky() // the spec checked that it exists
	var z [3]float64
	for i := range z {
		z[i] = e.b.rng.NormFloat64()
	}
	for i := range u {
		x := 0.0
		for k := 0; k <= i; k++ {
			x += l[i][k] * z[k]
		}
		u[i] = phi(x)
	}
	return u, true
}

// draw is a sample of d: its u-quantile when the copula drew u (corr),
// else a draw of the session's generator.
func (e *episode) draw(d dist.Dist, u float64, corr bool) float64 {
	if corr {
		return quantile(d, u)
	}
	return d.Sample(e.b.rng)
}

// loop runs the steps after turn at, the first of a loop of steps calls,
// and returns the index of the loop's last turn.
func (e *episode) loop(at, steps int, comp *spec.Compaction) int {
	last := at
	for step := 1; step < steps; step++ {
		if sa := e.a.Subagent; sa != nil && e.b.rng.Float64() < sa.Probability {
			sub := e.subagent(last)
			last = e.next(last, e.answer(sub), 0, 0, comp, []int{sub})
			continue
		}
		wait, result, calls := e.tools()
		if r := e.a.Reset; r != nil && e.b.rng.Float64() < r.At(e.turns[last].InputTokens) {
			last = e.reset(last, tokens(r.To.Sample(e.b.rng)), wait, calls)
			continue
		}
		last = e.next(last, result, wait, calls, comp, nil)
	}
	return last
}

// tools draws one step's parallel tool calls: their number, the slowest
// latency (the wait before the next step) and their results' tokens.
func (e *episode) tools() (wait int64, result, calls int) {
	calls = tokens(e.a.Tools.Sample(e.b.rng))
	for range calls {
		wait = max(wait, micros(e.a.ToolLatency.Sample(e.b.rng)))
	}
	for range calls {
		result += tokens(e.scale * e.a.ToolResult.Sample(e.b.rng))
	}
	return wait, result, calls
}

// next appends the step after turn prev, reading user tokens (tool results
// or a sub-agent's answer) after wait, also waiting for after; with
// compaction, when the context would pass the limit, the step starts a
// fresh context from a summary instead of continuing prev's.
func (e *episode) next(prev, user int, wait int64, calls int, comp *spec.Compaction, after []int) int {
	p := &e.turns[prev]
	context := p.InputTokens + e.answer(prev) + user
	t := e.b.turnFor(e.c, 0)
	t.WaitUS, t.ToolCalls, t.After = wait, calls, after
	if comp != nil && context > comp.Limit {
		summary := tokens(comp.To.Sample(e.b.rng))
		root := e.root(prev)
		t.SystemID, t.SystemTokens, t.System = root.SystemID, root.SystemTokens, root.System
		t.After = append([]int{prev}, after...)
		t.InputTokens = t.SystemTokens + summary + user
		return e.add(t, summary+user)
	}
	t.Parent = &[]int{prev}[0]
	t.InputTokens = context
	return e.add(t, user)
}

// reset appends the step after turn prev that starts a fresh context of
// to tokens after the system prompt (its new message included), after
// wait, as the agent's Reset says.
func (e *episode) reset(prev, to int, wait int64, calls int) int {
	t := e.b.turnFor(e.c, 0)
	root := e.root(prev)
	t.WaitUS, t.ToolCalls, t.After = wait, calls, []int{prev}
	t.SystemID, t.SystemTokens, t.System = root.SystemID, root.SystemTokens, root.System
	t.InputTokens = t.SystemTokens + to
	return e.add(t, to)
}

// subagent forks a sub-agent after turn at: a fresh context holding its
// task, then its own loop of tool-calling steps (no sub-agents of its
// own, no compaction). It returns the index of the sub-agent's last turn.
func (e *episode) subagent(at int) int {
	sa := e.a.Subagent
	steps := tokens(sa.Steps.Sample(e.b.rng))
	task := tokens(sa.Task.Sample(e.b.rng))
	t := e.b.turnFor(e.c, task)
	t.After = []int{at}
	first := e.add(t, task)
	saved := e.a
	e.a = &spec.Agent{Steps: saved.Steps, Tools: saved.Tools, ToolLatency: saved.ToolLatency, ToolResult: saved.ToolResult}
	defer func() { e.a = saved }()
	return e.loop(first, steps, nil)
}

// add appends t, whose new user message is user tokens long, and returns
// its index.
func (e *episode) add(t trace.Turn, user int) int {
	e.turns = append(e.turns, t)
	e.users = append(e.users, user)
	return len(e.turns) - 1
}

// answer is the tokens turn k's reply carries forward: its output less
// its reasoning.
func (e *episode) answer(k int) int { return e.turns[k].OutputTokens - e.turns[k].ReasoningTokens }

// root returns the turn that started the conversation turn k belongs to.
func (e *episode) root(k int) *trace.Turn {
	for e.turns[k].Parent != nil {
		k = *e.turns[k].Parent
	}
	return &e.turns[k]
}
