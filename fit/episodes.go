package fit

import (
	"fmt"
	"math"

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
	// follows plus that turn's answer, the tokens it adds: its prompt
	// minus the earlier prompt and answer (tool results, a user message).
	Growth []float64
	// Shrinks counts the later turns whose prompt is shorter than that:
	// contexts reset or compacted, or sub-agents starting afresh; Resets
	// holds their prompts, less their system prompts.
	Shrinks int
	Resets  []float64
	// Delta is, for each later turn, its prompt less the earlier prompt
	// and answer: the context's growth, negative where it shrank.
	Delta []float64
	// Waits are the waits before later turns, in seconds (think or tool
	// time).
	Waits []float64
	// Multi counts the sessions of more than one turn.
	Multi int
}

// add adds the shape of s.
func (e *Episodes) add(s *trace.Session) {
	if len(s.Turns) == 0 {
		return
	}
	e.Steps = append(e.Steps, float64(len(s.Turns)))
	e.Task = append(e.Task, float64(s.Turns[0].InputTokens))
	if len(s.Turns) > 1 {
		e.Multi++
	}
	for _, t := range s.Turns[1:] {
		deps := t.Deps()
		if len(deps) == 0 || deps[0] < 0 || deps[0] >= len(s.Turns) {
			continue
		}
		prev := s.Turns[deps[0]]
		e.Waits = append(e.Waits, float64(t.WaitUS)/1e6)
		d := t.InputTokens - prev.InputTokens - (prev.OutputTokens - prev.ReasoningTokens)
		e.Delta = append(e.Delta, float64(d))
		if d >= 0 {
			e.Growth = append(e.Growth, float64(d))
		} else {
			e.Shrinks++
			e.Resets = append(e.Resets, float64(max(t.InputTokens-t.SystemTokens, 1)))
		}
	}
}

// merge adds the shapes of q, another client's sessions.
func (e *Episodes) merge(q *Episodes) {
	e.Steps, e.Task, e.Growth = append(e.Steps, q.Steps...), append(e.Task, q.Task...), append(e.Growth, q.Growth...)
	e.Resets, e.Delta, e.Waits = append(e.Resets, q.Resets...), append(e.Delta, q.Delta...), append(e.Waits, q.Waits...)
	e.Shrinks, e.Multi = e.Shrinks+q.Shrinks, e.Multi+q.Multi
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
}

// FitEpisodes fits the shape of e, which must hold sessions of several
// turns.
func FitEpisodes(e Episodes) (EpisodeFit, error) {
	var f EpisodeFit
	var err error
	for _, x := range []struct {
		name string
		xs   []float64
		dst  *Length
	}{{"steps", e.Steps, &f.Steps}, {"task", e.Task, &f.Task}, {"growth", e.Growth, &f.Growth}, {"waits", e.Waits, &f.Wait}} {
		if *x.dst, err = fitAny(x.xs); err != nil {
			return EpisodeFit{}, fmt.Errorf("fitting the episodes' %s: %w", x.name, err)
		}
	}
	f.Shrinks, f.Later = e.Shrinks, len(e.Waits)
	if len(e.Resets) > 0 {
		r, err := fitAny(e.Resets)
		if err != nil {
			return EpisodeFit{}, fmt.Errorf("fitting the episodes' resets: %w", err)
		}
		f.Reset = &r
	}
	return f, nil
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
