package dist

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/integrate/quad"
)

var _ model = (*clamped)(nil)

// clamped is min(max(X, lo), hi): it has point masses F(lo) at lo and
// 1 - F(hi) at hi, and, with PM(x) = E[X; X <= x],
//
//	mean = lo F(lo) - PM(lo) + PM(hi) + hi (1 - F(hi)),
//
// where an infinite bound drops its terms and PM(+Inf) = E[X].
type clamped struct {
	d      model
	lo, hi float64
	mean   float64
}

// Clamp bounds d to [lo, hi]: a sample below lo becomes lo and one above hi
// becomes hi, so the bounds carry point masses. Pass -Inf or +Inf to leave a
// side open; with both open d is returned as is. A normal distribution is
// truncated to [lo, hi] instead, matching the meaning of its min and max
// parameters in the spec syntax. Clamping a clamped distribution narrows its
// bounds, and bounds that do not overlap the existing ones are an error. d
// must implement Quantiler and CDFer, as every distribution of this package
// does. The result prints with min=lo and max=hi after d's own arguments.
func Clamp(d Dist, lo, hi float64) (Dist, error) {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return nil, errors.New("min and max must not be NaN")
	}
	if lo > hi {
		return nil, fmt.Errorf("min (%s) must be <= max (%s)", fmtNum(lo), fmtNum(hi))
	}
	if math.IsInf(lo, -1) && math.IsInf(hi, 1) {
		return d, nil
	}
	switch c := d.(type) {
	case *normal:
		return c.truncate(lo, hi)
	case *clamped:
		nlo, nhi := max(lo, c.lo), min(hi, c.hi)
		if nlo > nhi {
			return nil, fmt.Errorf("[%s, %s] does not overlap the existing clamp [%s, %s]",
				fmtNum(lo), fmtNum(hi), fmtNum(c.lo), fmtNum(c.hi))
		}
		return newClamped(c.d, nlo, nhi), nil
	case model:
		return newClamped(c, lo, hi), nil
	}
	return nil, fmt.Errorf("cannot clamp %s: it has no CDF or quantile", d)
}

// newClamped clamps d to [lo, hi], lo <= hi, and computes the mean.
func newClamped(d model, lo, hi float64) *clamped {
	c := &clamped{d: d, lo: lo, hi: hi}
	c.mean = c.lower()
	if math.IsInf(hi, 1) {
		c.mean += d.Mean()
	} else {
		c.mean += partialMean(d, hi) + hi*(1-d.CDF(hi))
	}
	return c
}

// lower returns lo F(lo) - PM(lo), the part of the mean the lower bound
// changes (0 for an open lower bound).
func (c *clamped) lower() float64 {
	if math.IsInf(c.lo, -1) {
		return 0
	}
	return c.lo*c.d.CDF(c.lo) - partialMean(c.d, c.lo)
}

func (c *clamped) Sample(r *rand.Rand) float64 { return min(max(c.d.Sample(r), c.lo), c.hi) }
func (c *clamped) Mean() float64               { return c.mean }

func (c *clamped) CDF(x float64) float64 {
	switch {
	case x < c.lo:
		return 0
	case x >= c.hi:
		return 1
	}
	return c.d.CDF(x)
}

func (c *clamped) Quantile(p float64) float64 {
	if !validP(p) {
		return math.NaN()
	}
	return min(max(c.d.Quantile(p), c.lo), c.hi)
}

func (c *clamped) partialMean(x float64) float64 {
	switch {
	case x < c.lo:
		return 0
	case x >= c.hi:
		return c.mean
	}
	return c.lower() + partialMean(c.d, x)
}

// String prints the clamped distribution's call with min and max appended.
// A distribution from outside this package is printed as a one-component
// mixture, which samples the same.
func (c *clamped) String() string {
	inner, ok := c.d.(caller)
	if !ok {
		inner = &mixture{weights: []float64{1}, comps: []model{c.d}}
	}
	b := append([]byte(inner.kind()), '(')
	b = appendBounds(inner.appendArgs(b), c.lo, c.hi)
	return string(append(b, ')'))
}

// partialMean returns E[X; X <= x] for finite x: in closed form when d knows
// it, else by integrating the quantile function, ∫_0^{F(x)} Q(p) dp.
func partialMean(d model, x float64) float64 {
	if pm, ok := d.(partialMeaner); ok {
		return pm.partialMean(x)
	}
	return integrateQuantile(d, d.CDF(x))
}

// integrateQuantile returns ∫_0^{top} Q(p) dp by 16-point Gauss–Legendre
// on 64 equal panels over [top/4, 3top/4] and on panels halving in width
// towards both ends, down
// to top·2^-40, which follows an integrable singularity of Q at p = 0 (a
// normal's lower tail). The nodes avoid the panel ends, so Q(0) = -Inf is
// never evaluated. It is good to about 1e-5 of the mean where Q is smooth;
// jumps in Q (point masses) cost it accuracy, to about 1e-3.
func integrateQuantile(d Quantiler, top float64) float64 {
	if !(top > 0) {
		return 0
	}
	gl := func(a, b float64) float64 { return quad.Fixed(d.Quantile, a, b, 16, nil, 0) }
	s := 0.0
	for i := range 64 {
		s += gl(top/4+top/128*float64(i), top/4+top/128*float64(i+1))
	}
	for k := 2; k <= 40; k++ {
		w := math.Ldexp(top, -k)
		s += gl(w/2, w) + gl(top-w, top-w/2)
	}
	return s
}

// clampBounds applies the min and max parameters in p, if any, to d; errors
// name the kind.
func clampBounds(kind string, d Dist, p Params) (Dist, error) {
	lo, hasLo := p["min"]
	hi, hasHi := p["max"]
	if !hasLo {
		lo = math.Inf(-1)
	}
	if !hasHi {
		hi = math.Inf(1)
	}
	c, err := Clamp(d, lo, hi)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	return c, nil
}
