package dist

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

var (
	_ model = (*weighted)(nil)
	_ model = (*quantiles)(nil)
)

// weighted is a discrete distribution on given values with given weights.
// It keeps the values and weights as given for String and samples from a
// sorted table with duplicates merged and zero weights dropped.
type weighted struct {
	values, weights []float64 // as given; weights may be nil
	table
}

// NewEmpirical returns the discrete distribution that draws values[i] with
// probability weights[i] / Σ weights. Weights may be nil for equal weights;
// otherwise they must match values in length, be finite and >= 0, and have a
// positive sum. Values may repeat and need not be sorted. It prints as
// "empirical(values=[...],weights=[...])"; bound it with Clamp.
func NewEmpirical(values, weights []float64) (Dist, error) {
	if len(values) == 0 {
		return nil, errors.New("empirical: needs at least one value")
	}
	if weights != nil && len(weights) != len(values) {
		return nil, fmt.Errorf("empirical: got %d weights for %d values", len(weights), len(values))
	}
	type point struct{ x, w float64 }
	pts := make([]point, 0, len(values))
	total := 0.0
	for i, x := range values {
		w := 1.0
		if weights != nil {
			w = weights[i]
		}
		if !finite(x) {
			return nil, fmt.Errorf("empirical: values[%d] must be finite, got %s", i, fmtNum(x))
		}
		if !finite(w) || w < 0 {
			return nil, fmt.Errorf("empirical: weights[%d] must be finite and >= 0, got %s", i, fmtNum(w))
		}
		total += w
		if w > 0 {
			pts = append(pts, point{x, w})
		}
	}
	if !(total > 0) || math.IsInf(total, 0) {
		return nil, fmt.Errorf("empirical: weights must have a positive finite sum, got %s", fmtNum(total))
	}
	slices.SortFunc(pts, func(a, b point) int { return cmp.Compare(a.x, b.x) })
	var xs, ws []float64
	for _, p := range pts {
		if n := len(xs); n > 0 && xs[n-1] == p.x {
			ws[n-1] += p.w
			continue
		}
		xs, ws = append(xs, p.x), append(ws, p.w)
	}
	return &weighted{values: slices.Clone(values), weights: slices.Clone(weights), table: newTable(xs, ws)}, nil
}

func (d *weighted) kind() string   { return "empirical" }
func (d *weighted) String() string { return callString(d) }

// appendArgs prints values and, when given, weights.
func (d *weighted) appendArgs(b []byte) []byte {
	b = appendArray(b, "values", d.values)
	if d.weights != nil {
		b = appendArray(b, "weights", d.weights)
	}
	return b
}

// quantiles interpolates a quantile table linearly: for p in [p_i, p_{i+1}],
//
//	Q(p) = x_i + (p - p_i)/(p_{i+1} - p_i) · (x_{i+1} - x_i),
//
// so X is uniform on each [x_i, x_{i+1}] with mass p_{i+1} - p_i, a point
// mass where x_i = x_{i+1}. It samples Q(u) for u uniform on (0, 1).
type quantiles struct {
	p, x []float64
	mean float64
}

// NewQuantiles returns the distribution whose quantile function interpolates
// the table (p[i], x[i]) linearly: p must rise strictly from 0 to 1, x must
// be non-decreasing, and both must be finite and of the same length >= 2.
// It prints as "empirical(p=[...],x=[...])"; bound it with Clamp.
func NewQuantiles(p, x []float64) (Dist, error) {
	if len(p) != len(x) || len(p) < 2 {
		return nil, fmt.Errorf("empirical: p and x need the same length, at least 2; got %d and %d", len(p), len(x))
	}
	if p[0] != 0 || p[len(p)-1] != 1 {
		return nil, fmt.Errorf("empirical: p must run from 0 to 1, got %s to %s", fmtNum(p[0]), fmtNum(p[len(p)-1]))
	}
	for i := range p {
		if !finite(x[i]) {
			return nil, fmt.Errorf("empirical: x[%d] must be finite, got %s", i, fmtNum(x[i]))
		}
		if i > 0 && !(p[i] > p[i-1]) {
			return nil, fmt.Errorf("empirical: p must be strictly increasing, got p[%d]=%s after %s", i, fmtNum(p[i]), fmtNum(p[i-1]))
		}
		if i > 0 && x[i] < x[i-1] {
			return nil, fmt.Errorf("empirical: x must be non-decreasing, got x[%d]=%s after %s", i, fmtNum(x[i]), fmtNum(x[i-1]))
		}
	}
	d := &quantiles{p: slices.Clone(p), x: slices.Clone(x)}
	for i := 1; i < len(p); i++ {
		d.mean += (p[i] - p[i-1]) * (x[i] + x[i-1]) / 2
	}
	return d, nil
}

func (d *quantiles) kind() string   { return "empirical" }
func (d *quantiles) String() string { return callString(d) }
func (d *quantiles) Mean() float64  { return d.mean }

func (d *quantiles) appendArgs(b []byte) []byte {
	return appendArray(appendArray(b, "p", d.p), "x", d.x)
}

func (d *quantiles) Sample(r *rand.Rand) float64 { return d.Quantile(open01(r)) }

func (d *quantiles) Quantile(p float64) float64 {
	if !validP(p) {
		return math.NaN()
	}
	i := max(lowerBound(d.p, p), 1) // p in [p[i-1], p[i]]
	return lerp(d.p[i-1], d.p[i], d.x[i-1], d.x[i], p)
}

// CDF interpolates the table inversely: with j the last index where
// x_j <= x, F(x) = p_j + (x - x_j)/(x_{j+1} - x_j) · (p_{j+1} - p_j).
func (d *quantiles) CDF(x float64) float64 {
	j := upperBound(d.x, x) - 1
	switch {
	case j < 0:
		return 0
	case j == len(d.x)-1:
		return 1
	}
	return lerp(d.x[j], d.x[j+1], d.p[j], d.p[j+1], x)
}

// partialMean integrates Q(p) over the p where Q(p) <= x, segment by
// segment: a whole segment adds (p_{i+1}-p_i)(x_i+x_{i+1})/2, the one that
// crosses x adds the trapezoid up to F(x).
func (d *quantiles) partialMean(x float64) float64 {
	s := 0.0
	for i := 1; i < len(d.p) && d.x[i-1] <= x; i++ {
		hi, xh := d.p[i], d.x[i]
		if xh > x {
			hi, xh = lerp(d.x[i-1], d.x[i], d.p[i-1], d.p[i], x), x
		}
		s += (hi - d.p[i-1]) * (d.x[i-1] + xh) / 2
	}
	return s
}

// lerp maps v from [a0, a1] onto [b0, b1] linearly (b0 when a0 == a1).
func lerp(a0, a1, b0, b1, v float64) float64 {
	if a1 == a0 {
		return b0
	}
	return b0 + (v-a0)/(a1-a0)*(b1-b0)
}

// finite reports whether v is neither NaN nor infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
