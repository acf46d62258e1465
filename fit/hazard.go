package fit

import (
	"cmp"
	"math"
	"slices"
)

// Hazard is a fitted chance of a reset by the context a step follows:
// piecewise constant, P[i] from At[i] tokens upward (At[0] is 0), with
// the bins chosen by BIC. BIC[0] is the criterion of one chance for every
// context, BIC[1] that of the bins kept.
type Hazard struct {
	At  []int
	P   []float64
	BIC [2]float64
}

// hazardBins is the most bins a hazard starts from before they are
// merged, and hazardMinSteps the fewest steps each holds.
const (
	hazardBins     = 32
	hazardMinSteps = 50
)

// FitHazard fits the chance that a step resets by the context it
// follows: contexts[i] is a step's, shrank[i] whether it reset. It starts
// from up to hazardBins bins of equal count (hazardMinSteps at least), split only between distinct
// contexts, and merges the adjacent pair that loses the least likelihood
// while the loss is below the penalty of the two parameters a bin adds
// (its edge and chance): ln n, so that a bin stays only where the data
// hold a chance apart from its neighbours'.
func FitHazard(contexts []float64, shrank []bool) Hazard {
	n := len(contexts)
	if n == 0 {
		return Hazard{}
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(contexts[a], contexts[b]) })
	type bin struct {
		from float64 // the smallest context in the bin
		k, m int     // resets and steps
	}
	var bins []bin
	per := max(n/hazardBins, hazardMinSteps)
	for j, i := range idx {
		x := contexts[i]
		if len(bins) == 0 || bins[len(bins)-1].m >= per && x > contexts[idx[j-1]] {
			bins = append(bins, bin{from: x})
		}
		b := &bins[len(bins)-1]
		b.m++
		if shrank[i] {
			b.k++
		}
	}
	penalty := math.Log(float64(n))
	for len(bins) > 1 {
		best, loss := -1, math.Inf(1)
		for i := 0; i+1 < len(bins); i++ {
			a, b := bins[i], bins[i+1]
			if d := bernoulliLL(a.k, a.m) + bernoulliLL(b.k, b.m) - bernoulliLL(a.k+b.k, a.m+b.m); d < loss {
				best, loss = i, d
			}
		}
		if loss >= penalty {
			break
		}
		bins[best].k += bins[best+1].k
		bins[best].m += bins[best+1].m
		bins = slices.Delete(bins, best+1, best+2)
	}
	var h Hazard
	total, steps, sum := 0, 0, 0.0
	for i, b := range bins {
		at := int(math.Ceil(b.from))
		if i == 0 {
			at = 0
		}
		h.At = append(h.At, at)
		h.P = append(h.P, float64(b.k)/float64(b.m))
		total, steps, sum = total+b.k, steps+b.m, sum+bernoulliLL(b.k, b.m)
	}
	h.BIC[0] = -2*bernoulliLL(total, steps) + penalty
	h.BIC[1] = -2*sum + float64(2*len(bins)-1)*penalty
	return h
}

// bernoulliLL is the log-likelihood of k events in m trials at their own
// rate.
func bernoulliLL(k, m int) float64 {
	if k == 0 || k == m {
		return 0
	}
	p := float64(k) / float64(m)
	return float64(k)*math.Log(p) + float64(m-k)*math.Log(1-p)
}
