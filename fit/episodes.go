package fit

import (
	"fmt"
	"math"

	"surge/dist"
	"surge/spec"
	"surge/trace"
)

// Episodes is the shape of a client's sessions of several turns, each
// turn following one before it (its parent, or the first turn it waits
// for), as conversations and agent episodes are: how many turns, the
// first prompt, how much each later prompt adds to the one it follows,
// and the wait before it.
type Episodes struct {
	// Steps counts the turns of each session.
	Steps []float64
	// Task is the first turn's prompt length of each session.
	Task []float64
	// Growth is, for each later turn whose prompt is at least the one it
	// follows, the tokens it adds: its prompt minus the earlier prompt
	// and answer (tool results, a user message), 0 where less of the
	// answer was carried than was generated.
	Growth []float64
	// GrowthOf is, for each Growth sample, the index of its session in
	// Steps and Task.
	GrowthOf []int
	// Context is, for each later turn of the main loops, the prompt it
	// follows, and Shrank says whether its own prompt is shorter: the
	// steps a reset's chance by context is fitted from.
	Context []float64
	Shrank  []bool
	// Shrinks counts the later turns whose prompt is shorter than the
	// one they follow: contexts reset or compacted, or sub-agents
	// starting afresh; Resets holds their prompts, less their system
	// prompts.
	Shrinks int
	Resets  []float64
	// Delta is, for each later turn, its prompt less the prompt it
	// follows: the context's growth, the answer included, as a trace and
	// its regeneration both show it whatever share of the answer was
	// carried; negative where it shrank.
	Delta []float64
	// Waits are the waits before later turns, in seconds (think or tool
	// time).
	Waits []float64
	// Multi counts the sessions of more than one turn.
	Multi int
	// Forks counts the later turns of the main loops (the steps after
	// each session's first that may delegate), and SubSteps and SubTask
	// hold, for each sub-agent (see subagentStarts), its turns and its
	// first prompt's length.
	Forks             int
	SubSteps, SubTask []float64
}

// add adds the shape of s.
func (e *Episodes) add(s *trace.Session) {
	if len(s.Turns) == 0 {
		return
	}
	stream, subs := streams(s.Turns)
	size := make([]int, len(stream)) // turns of the stream each turn starts
	for _, k := range stream {
		size[k]++
	}
	main := size[0]
	session := len(e.Steps)
	e.Steps = append(e.Steps, float64(main))
	e.Task = append(e.Task, float64(s.Turns[0].InputTokens))
	e.Forks += main - 1
	if len(s.Turns) > 1 {
		e.Multi++
	}
	for _, first := range subs {
		e.SubSteps = append(e.SubSteps, float64(size[first]))
		e.SubTask = append(e.SubTask, float64(s.Turns[first].InputTokens))
	}
	for i, t := range s.Turns[1:] {
		deps := t.Deps()
		if len(deps) == 0 || deps[0] < 0 || deps[0] >= len(s.Turns) || stream[i+1] == i+1 {
			continue // a stream's first turn: the session's, or a sub-agent's task
		}
		prev := s.Turns[deps[0]]
		e.Waits = append(e.Waits, float64(t.WaitUS)/1e6)
		d := t.InputTokens - prev.InputTokens - (prev.OutputTokens - prev.ReasoningTokens)
		e.Delta = append(e.Delta, float64(t.InputTokens-prev.InputTokens))
		if stream[i+1] == 0 {
			e.Context = append(e.Context, float64(prev.InputTokens))
			e.Shrank = append(e.Shrank, t.InputTokens < prev.InputTokens)
		}
		if t.InputTokens >= prev.InputTokens {
			e.GrowthOf = append(e.GrowthOf, session)
			// Part of the answer left out (its thinking, a trimmed tool
			// call) is no shrink: the context kept all it had been sent.
			e.Growth = append(e.Growth, float64(max(d, 0)))
		} else {
			e.Shrinks++
			e.Resets = append(e.Resets, float64(max(t.InputTokens-t.SystemTokens, 1)))
		}
	}
}

// streams tells the streams of a session's turns apart: stream[k] is the
// first turn of turn k's stream, 0 for the main loop's turns, and subs
// lists the first turns of the sub-agents in order. A turn continues the
// stream of its first dependency (Deps()[0]); where several turns depend
// first on one, the one of the longest prompt continues its stream (a
// main loop's context is the larger, as the importers' and the workload's
// sub-agents start afresh) and each other starts a sub-agent. Turns
// without a dependency are steps of the main loop.
func streams(turns []trace.Turn) (stream []int, subs []int) {
	stream = make([]int, len(turns))
	next := make([]int, len(turns)) // the continuing turn of each, -1: none yet
	for k := range next {
		next[k] = -1
	}
	for k := range turns {
		if deps := turns[k].Deps(); len(deps) > 0 && deps[0] >= 0 && deps[0] < k {
			if p := deps[0]; next[p] < 0 || turns[k].InputTokens > turns[next[p]].InputTokens {
				next[p] = k
			}
		}
	}
	for k := range turns {
		stream[k] = k
		deps := turns[k].Deps()
		switch {
		case len(deps) > 0 && deps[0] >= 0 && deps[0] < k && next[deps[0]] == k:
			stream[k] = stream[deps[0]]
		case k > 0 && len(deps) == 0:
			stream[k] = 0 // an independent request of the session: one of its steps
		case k > 0:
			subs = append(subs, k)
		}
	}
	return stream, subs
}

// merge adds the shapes of q, another client's sessions.
func (e *Episodes) merge(q *Episodes) {
	for _, s := range q.GrowthOf {
		e.GrowthOf = append(e.GrowthOf, s+len(e.Steps))
	}
	e.Context, e.Shrank = append(e.Context, q.Context...), append(e.Shrank, q.Shrank...)
	e.Steps, e.Task, e.Growth = append(e.Steps, q.Steps...), append(e.Task, q.Task...), append(e.Growth, q.Growth...)
	e.Resets, e.Delta, e.Waits = append(e.Resets, q.Resets...), append(e.Delta, q.Delta...), append(e.Waits, q.Waits...)
	e.Shrinks, e.Multi = e.Shrinks+q.Shrinks, e.Multi+q.Multi
	e.Forks, e.SubSteps, e.SubTask = e.Forks+q.Forks, append(e.SubSteps, q.SubSteps...), append(e.SubTask, q.SubTask...)
}

// EpisodeFit is the fit of a client's multi-turn sessions as agent
// episodes: a task, then steps each adding a tool result after a tool
// latency.
type EpisodeFit struct {
	// Steps, Task, Growth and Wait are the fits of Episodes' samples.
	Steps, Task, Growth, Wait Length
	// Shrinks and Later count the later turns whose prompt shrank, and
	// all later turns; Reset is the fit of the shrunk prompts, when any.
	Shrinks, Later int
	Reset          *Length
	// Subagent is the fit of the sessions' sub-agents, when any.
	Subagent *SubagentFit
	// Scale is the fit of how the episodes' growth differs, when it
	// does (Growth is then of the growth over each episode's scale), and
	// Correlation the rank correlations of steps, task and scale kept.
	Scale       *ScaleFit
	Correlation *spec.EpisodeCorrelation
	// Hazard is the chance of a reset by the context a main loop's step
	// follows.
	Hazard Hazard
}

// SubagentFit is the delegation of agent episodes: the share of the main
// loops' later steps that fork a sub-agent, and the laws of a
// sub-agent's turns and of its task's length.
type SubagentFit struct {
	Probability float64
	Steps, Task Length
}

// FitEpisodes fits the shape of e, which must hold sessions of several
// turns.
func FitEpisodes(e Episodes) (EpisodeFit, error) {
	var f EpisodeFit
	scale, growth, err := fitScale(e)
	if err != nil {
		return EpisodeFit{}, fmt.Errorf("fitting the episodes' scale: %w", err)
	}
	f.Scale = scale
	var of []float64
	if f.Scale != nil {
		of = f.Scale.Of
	} else {
		growth = e.Growth
	}
	f.Correlation = fitEpisodeCorrelation(e, of)
	f.Hazard = FitHazard(e.Context, e.Shrank)
	for _, x := range []struct {
		name string
		xs   []float64
		dst  *Length
	}{{"steps", e.Steps, &f.Steps}, {"task", e.Task, &f.Task}, {"growth", growth, &f.Growth}, {"waits", e.Waits, &f.Wait}} {
		if *x.dst, err = fitEpisodeLaw(x.xs); err != nil {
			return EpisodeFit{}, fmt.Errorf("fitting the episodes' %s: %w", x.name, err)
		}
	}
	f.Shrinks, f.Later = e.Shrinks, len(e.Waits)
	if len(e.SubSteps) > 0 && e.Forks > 0 {
		sub := &SubagentFit{Probability: math.Min(float64(len(e.SubSteps))/float64(e.Forks), 1)}
		if sub.Steps, err = fitEpisodeLaw(e.SubSteps); err != nil {
			return EpisodeFit{}, fmt.Errorf("fitting the sub-agents' steps: %w", err)
		}
		if sub.Task, err = fitEpisodeLaw(e.SubTask); err != nil {
			return EpisodeFit{}, fmt.Errorf("fitting the sub-agents' tasks: %w", err)
		}
		f.Subagent = sub
	}
	if len(e.Resets) > 0 {
		r, err := fitEpisodeLaw(e.Resets)
		if err != nil {
			return EpisodeFit{}, fmt.Errorf("fitting the episodes' resets: %w", err)
		}
		f.Reset = &r
	}
	return f, nil
}

// EpisodeLawKS is the largest KS distance to its data at which a law is
// stated for an episode's sample; a farther one, though good for a small
// sample, gives way to the empirical table: an episode sums its steps'
// growth, so a law a little off the data (a lognormal's mean beyond its
// clamp) moves every later prompt.
const EpisodeLawKS = 0.05

// EpisodeLawMean is the largest relative error in the mean at which a
// law is stated for an episode's sample: the mean of an episode's growth
// sets how far its context climbs.
const EpisodeLawMean = 0.02

// fitEpisodeLaw is fitAny, the empirical table replacing a law farther
// than EpisodeLawKS from the data, one whose mean (clamped to the data's
// range) is more than EpisodeLawMean off the sample's, and one fitted to
// the positive samples when there are zeros, whose share only the table
// of every sample (zeros as 0.001) keeps.
func fitEpisodeLaw(xs []float64) (Length, error) {
	l, err := fitAny(xs)
	if err != nil {
		return l, err
	}
	if l.Best.Dropped > 0 {
		all := make([]float64, len(xs))
		for i, x := range xs {
			all[i] = math.Max(x, 1e-3)
		}
		emp, err := QuantileTable(all)
		if err != nil {
			return l, err
		}
		l.Empirical, l.Use = emp, emp
	}
	if l.Best.KS > EpisodeLawKS || l.Use == nil || !meanWithin(l, EpisodeLawMean) {
		l.Use = l.Empirical
	}
	return l, nil
}

// meanWithin says whether the law l states, clamped to the data's range,
// has a mean within rel of the sample's.
func meanWithin(l Length, rel float64) bool {
	if l.Use == l.Empirical {
		return true
	}
	d, err := dist.Clamp(l.Use, l.Min, l.Max)
	if err != nil || l.Mean <= 0 {
		return false
	}
	return math.Abs(d.Mean()-l.Mean) <= rel*l.Mean
}

// fitAny is FitLength for a sample that may hold fewer than two distinct
// positive values: then its law is the empirical table of its values (at
// least one, raised to 1e-3 when not positive).
func fitAny(xs []float64) (Length, error) {
	if len(xs) == 0 {
		return Length{}, fmt.Errorf("no samples")
	}
	if l, err := FitLength(xs); err == nil {
		return l, nil
	}
	pos := make([]float64, len(xs))
	for i, x := range xs {
		pos[i] = math.Max(x, 1e-3)
	}
	emp, err := QuantileTable(pos)
	if err != nil {
		return Length{}, err
	}
	l := Length{Min: pos[0], Max: pos[0]}
	for _, x := range pos {
		l.Min, l.Max, l.Mean = math.Min(l.Min, x), math.Max(l.Max, x), l.Mean+x/float64(len(pos))
	}
	l.Empirical, l.Use = emp, emp
	l.Best = Fit{N: len(pos)}
	return l, nil
}
