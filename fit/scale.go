package fit

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"surge/spec"
)

// ScaleFit is how much the episodes' growth differs from episode to
// episode: each episode's scale is its mean growth over the mean of the
// episodes' means, and Scale the law of those scales. F and P are a
// one-way analysis of variance of log(1 + growth) by episode over Groups
// episodes of two growth samples or more: the scale is stated only where
// the episodes differ more than their turns do (P below ScaleP).
type ScaleFit struct {
	Scale  Length
	F, P   float64
	Groups int
	// Of is the scale of each session of the Episodes, NaN for one
	// without growth samples.
	Of []float64
}

// ScaleP is the largest p-value of the analysis of variance at which the
// episodes' scales are stated; ScaleGroups is the fewest episodes it
// takes.
const (
	ScaleP      = 0.01
	ScaleGroups = 10
)

// fitScale fits the episodes' scale (see ScaleFit) and returns the
// growth divided by each sample's episode's scale, the tool results' law
// then; nil when the episodes do not differ enough, or are too few.
func fitScale(e Episodes) (*ScaleFit, []float64, error) {
	sums, counts := make([]float64, len(e.Steps)), make([]int, len(e.Steps))
	for i, g := range e.Growth {
		sums[e.GrowthOf[i]] += g
		counts[e.GrowthOf[i]]++
	}
	f, p, groups := growthANOVA(e, counts)
	if groups < ScaleGroups || !(p < ScaleP) {
		return nil, nil, nil
	}
	of := make([]float64, len(e.Steps))
	mean, n := 0.0, 0
	for s := range of {
		of[s] = math.NaN()
		if counts[s] > 0 {
			of[s] = sums[s] / float64(counts[s])
			mean, n = mean+of[s], n+1
		}
	}
	mean /= float64(n)
	if mean <= 0 {
		return nil, nil, nil
	}
	var scales []float64
	for s := range of {
		if of[s] /= mean; !math.IsNaN(of[s]) {
			scales = append(scales, of[s])
		}
	}
	var shapes []float64
	for i, g := range e.Growth {
		if k := of[e.GrowthOf[i]]; k > 0 {
			shapes = append(shapes, g/k)
		}
	}
	l, err := fitEpisodeLaw(scales)
	if err != nil || len(shapes) == 0 {
		return nil, nil, err
	}
	return &ScaleFit{Scale: l, F: f, P: p, Groups: groups, Of: of}, shapes, nil
}

// growthANOVA is the one-way analysis of variance of log(1 + growth)
// grouped by session, over the sessions of two growth samples or more
// (counts holds each session's): the F statistic, its p-value and the
// number of groups.
func growthANOVA(e Episodes, counts []int) (f, p float64, groups int) {
	sums := make([]float64, len(counts))
	var total float64
	n := 0
	for i, g := range e.Growth {
		if s := e.GrowthOf[i]; counts[s] >= 2 {
			sums[s] += math.Log1p(g)
			total += math.Log1p(g)
			n++
		}
	}
	if n == 0 {
		return 0, 1, 0
	}
	grand := total / float64(n)
	var between, within float64
	for s, c := range counts {
		if c >= 2 {
			groups++
			m := sums[s] / float64(c)
			between += float64(c) * (m - grand) * (m - grand)
		}
	}
	for i, g := range e.Growth {
		if s := e.GrowthOf[i]; counts[s] >= 2 {
			d := math.Log1p(g) - sums[s]/float64(counts[s])
			within += d * d
		}
	}
	if groups < 2 || n <= groups || within == 0 {
		return 0, 1, groups
	}
	d1, d2 := float64(groups-1), float64(n-groups)
	f = (between / d1) / (within / d2)
	return f, distuv.F{D1: d1, D2: d2}.Survival(f), groups
}

// CorrelationZ is the z-score past which a rank correlation of an
// episode's steps, task and scale is stated: |ρ|·√(n−1) above it (a
// two-sided test at 1%).
const CorrelationZ = 2.576

// fitEpisodeCorrelation measures the rank correlations of the sessions'
// steps, tasks and scales (of, NaN where a session has none; nil when
// there is no scale), keeping those a test tells from 0 (CorrelationZ)
// and shrinking them toward 0 until the three can hold together; nil
// when none is kept.
func fitEpisodeCorrelation(e Episodes, of []float64) *spec.EpisodeCorrelation {
	significant := func(rho float64, n int) float64 {
		if math.IsNaN(rho) || math.Abs(rho)*math.Sqrt(float64(n-1)) < CorrelationZ {
			return 0
		}
		return math.Round(rho*1000) / 1000
	}
	c := spec.EpisodeCorrelation{StepsInput: significant(Spearman(e.Steps, e.Task), len(e.Steps))}
	if of != nil {
		var steps, task, scale []float64
		for s, k := range of {
			if !math.IsNaN(k) {
				steps, task, scale = append(steps, e.Steps[s]), append(task, e.Task[s]), append(scale, k)
			}
		}
		c.StepsScale = significant(Spearman(steps, scale), len(scale))
		c.InputScale = significant(Spearman(task, scale), len(scale))
	}
	if c == (spec.EpisodeCorrelation{}) {
		return nil
	}
	for _, ok := c.Cholesky(); !ok; _, ok = c.Cholesky() {
		c.StepsInput, c.StepsScale, c.InputScale = 0.9*c.StepsInput, 0.9*c.StepsScale, 0.9*c.InputScale
	}
	return &c
}
