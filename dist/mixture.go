package dist

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

var _ model = (*mixture)(nil)

// mixture draws component i with probability w_i = weights[i] / Σ weights,
// then samples it:
//
//	F(x) = Σ w_i F_i(x),  mean = Σ w_i mean_i,  E[X; X <= x] = Σ w_i E[X_i; X_i <= x].
//
// It has no closed-form quantile; Quantile bisects F.
type mixture struct {
	weights []float64 // as given
	comps   []model
	w, cum  []float64 // normalised weights and their running sum
	mean    float64
}

// NewMixture mixes components with the given weights, which must be finite
// and > 0 and are normalised to sum to 1. Components must implement
// Quantiler and CDFer, as every distribution of this package does. A mixture
// of one component draws no selector, so it samples exactly like that
// component. It prints as "mixture(0.7*lognormal(...),0.3*normal(...))";
// bound it with Clamp.
func NewMixture(weights []float64, components []Dist) (Dist, error) {
	if len(components) == 0 {
		return nil, errors.New("mixture: needs at least one component")
	}
	if len(weights) != len(components) {
		return nil, fmt.Errorf("mixture: got %d weights for %d components", len(weights), len(components))
	}
	m := &mixture{weights: append([]float64(nil), weights...)}
	total := 0.0
	for i, c := range components {
		if !finite(weights[i]) || !(weights[i] > 0) {
			return nil, fmt.Errorf("mixture: weight %d must be finite and > 0, got %s", i+1, fmtNum(weights[i]))
		}
		mc, ok := c.(model)
		if !ok {
			return nil, fmt.Errorf("mixture: component %d (%s) has no CDF or quantile", i+1, c)
		}
		m.comps = append(m.comps, mc)
		total += weights[i]
	}
	if math.IsInf(total, 0) {
		return nil, errors.New("mixture: weights sum to infinity")
	}
	acc := 0.0
	for i, wi := range weights {
		acc += wi
		m.w = append(m.w, wi/total)
		m.cum = append(m.cum, acc/total)
		m.mean += wi / total * m.comps[i].Mean()
	}
	m.cum[len(m.cum)-1] = 1
	return m, nil
}

func (m *mixture) kind() string   { return "mixture" }
func (m *mixture) String() string { return callString(m) }
func (m *mixture) Mean() float64  { return m.mean }

// appendArgs prints "w1*comp1,w2*comp2,...".
func (m *mixture) appendArgs(b []byte) []byte {
	for i, c := range m.comps {
		b = appendNum(appendSep(b), m.weights[i])
		b = append(append(b, '*'), c.String()...)
	}
	return b
}

// Sample picks a component with one uniform draw (none for a single
// component), then samples it.
func (m *mixture) Sample(r *rand.Rand) float64 {
	if len(m.comps) == 1 {
		return m.comps[0].Sample(r)
	}
	i := min(upperBound(m.cum, r.Float64()), len(m.comps)-1)
	return m.comps[i].Sample(r)
}

func (m *mixture) CDF(x float64) float64 {
	s := 0.0
	for i, c := range m.comps {
		s += m.w[i] * c.CDF(x)
	}
	return min(s, 1)
}

func (m *mixture) partialMean(x float64) float64 {
	s := 0.0
	for i, c := range m.comps {
		s += m.w[i] * partialMean(c, x)
	}
	return s
}

// Quantile bisects F. The answer lies in [min_i Q_i(p), max_i Q_i(p)]: below
// every Q_i(p) each F_i < p, and at the largest each F_i >= p.
func (m *mixture) Quantile(p float64) float64 {
	if !validP(p) {
		return math.NaN()
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range m.comps {
		q := c.Quantile(p)
		lo, hi = min(lo, q), max(hi, q)
	}
	switch {
	case p == 1:
		return hi
	case p == 0 || m.CDF(lo) >= p || math.IsInf(lo, 0) || math.IsInf(hi, 0):
		return lo
	}
	for range 200 { // F(lo) < p <= F(hi)
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if m.CDF(mid) >= p {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}
