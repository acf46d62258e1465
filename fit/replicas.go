package fit

import (
	"context"

	"surge/spec"
)

// CheckTurns is the least number of requests Check regenerates to compare
// a trace's lengths and episodes with: a smaller trace (one conversation
// of 41 calls) is regenerated under further seeds until its requests
// reach it, so the comparison is of the fitted laws, not of one draw of
// them.
const CheckTurns = 2000

// maxReplicas bounds the regenerations of a tiny trace.
const maxReplicas = 200

// replicas returns how many regenerations a trace of n requests takes to
// reach CheckTurns (at least 1, at most maxReplicas).
func replicas(n int) int {
	if n <= 0 {
		return 1
	}
	return min(max((CheckTurns+n-1)/n, 1), maxReplicas)
}

// regenerateReplicas regenerates s k times, under its seed and the k − 1
// after it: the first run's samples, with the lengths and episode shapes
// of the other runs added (not their times, sessions or prefix reuse,
// which stay those of one run).
func regenerateReplicas(ctx context.Context, s *spec.Spec, k int) (map[string]*Sample, error) {
	tok, synth, err := regenText(s)
	if err != nil {
		return nil, err
	}
	regen, err := regenerateWith(ctx, s, tok, synth)
	if err != nil {
		return nil, err
	}
	seed := s.Seed
	defer func() { s.Seed = seed }()
	for i := 1; i < k; i++ {
		s.Seed = seed + uint64(i)
		more, err := regenerateWith(ctx, s, tok, synth)
		if err != nil {
			return nil, err
		}
		for name, q := range more {
			if fs := regen[name]; fs != nil {
				fs.addShapes(q)
			}
		}
	}
	return regen, nil
}

// addShapes adds the lengths and episode shapes of q, another run of the
// same client, to fs.
func (fs *Sample) addShapes(q *Sample) {
	fs.In, fs.Out = append(fs.In, q.In...), append(fs.Out, q.Out...)
	fs.Reasoning = append(fs.Reasoning, q.Reasoning...)
	fs.Categories, fs.Styles = addCounts(fs.Categories, q.Categories), addCounts(fs.Styles, q.Styles)
	fs.Episodes.merge(&q.Episodes)
}
