package dist

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// The closed-form distributions below take their CDF, quantile and sampler
// from gonum's distuv, handing it the caller's *rand.Rand as its Src for the
// duration of one draw, so sampling reads no other randomness.
var (
	_ model = (*fixed)(nil)
	_ model = (*uniform)(nil)
	_ model = (*exponential)(nil)
	_ model = (*pareto)(nil)
	_ model = (*lognormal)(nil)
)

// validP reports whether p is a probability.
func validP(p float64) bool { return p >= 0 && p <= 1 }

// open01 draws a uniform number in the open interval (0, 1): the midpoint of
// one of 2^53 equal cells, so inverse CDFs never see 0 or 1.
func open01(r *rand.Rand) float64 {
	return (float64(r.Uint64()>>11) + 0.5) / (1 << 53)
}

// fixed is the point mass at v. Sampling it reads no randomness.
type fixed struct {
	named
	v float64
}

func buildFixed(_ int, v []float64, n named) (model, error) { return &fixed{n, v[0]}, nil }

func (d *fixed) Sample(*rand.Rand) float64 { return d.v }
func (d *fixed) Mean() float64             { return d.v }
func (d *fixed) String() string            { return callString(d) }

func (d *fixed) Quantile(p float64) float64 {
	if !validP(p) {
		return math.NaN()
	}
	return d.v
}

func (d *fixed) CDF(x float64) float64 {
	if x >= d.v {
		return 1
	}
	return 0
}

func (d *fixed) partialMean(x float64) float64 {
	if d.v <= x {
		return d.v
	}
	return 0
}

// uniform is continuous uniform on [min, max]:
//
//	F(x) = (x-min)/(max-min),  E[X; X <= x] = (x² - min²) / (2 (max-min)).
type uniform struct {
	named
	u distuv.Uniform
}

func buildUniform(_ int, v []float64, n named) (model, error) {
	if !(v[0] < v[1]) {
		return nil, fmt.Errorf("uniform: max must be > min, got min=%s max=%s", fmtNum(v[0]), fmtNum(v[1]))
	}
	return &uniform{n, distuv.Uniform{Min: v[0], Max: v[1]}}, nil
}

func (d *uniform) Sample(r *rand.Rand) float64 { u := d.u; u.Src = r; return u.Rand() }
func (d *uniform) Mean() float64               { return d.u.Mean() }
func (d *uniform) String() string              { return callString(d) }
func (d *uniform) CDF(x float64) float64       { return d.u.CDF(x) }

func (d *uniform) Quantile(p float64) float64 {
	if !validP(p) {
		return math.NaN()
	}
	return d.u.Quantile(p)
}

func (d *uniform) partialMean(x float64) float64 {
	t := min(max(x, d.u.Min), d.u.Max)
	return (t*t - d.u.Min*d.u.Min) / (2 * (d.u.Max - d.u.Min))
}

// exponential has rate λ = 1/mean:
//
//	F(x) = 1 - e^{-x/m},  E[X; X <= x] = m (1 - e^{-x/m} (1 + x/m)).
type exponential struct {
	named
	e distuv.Exponential
}

func buildExponential(form int, v []float64, n named) (model, error) {
	if err := positive("exponential", n.keys[0], v[0]); err != nil {
		return nil, err
	}
	rate := v[0]
	if form == 0 {
		rate = 1 / v[0] // mean
	}
	return &exponential{n, distuv.Exponential{Rate: rate}}, nil
}

func (d *exponential) Sample(r *rand.Rand) float64 { e := d.e; e.Src = r; return e.Rand() }
func (d *exponential) Mean() float64               { return 1 / d.e.Rate }
func (d *exponential) String() string              { return callString(d) }
func (d *exponential) CDF(x float64) float64       { return d.e.CDF(x) }

func (d *exponential) Quantile(p float64) float64 {
	if !validP(p) {
		return math.NaN()
	}
	return d.e.Quantile(p)
}

func (d *exponential) partialMean(x float64) float64 {
	if x <= 0 {
		return 0
	}
	m := d.Mean()
	return m * (1 - math.Exp(-x/m)*(1+x/m))
}

// pareto has shape α and scale (minimum) xm:
//
//	F(x) = 1 - (xm/x)^α for x >= xm,  mean = α xm / (α-1) (+Inf for α <= 1),
//	E[X; X <= x] = α xm/(α-1) (1 - (xm/x)^{α-1})   (α ≠ 1),
//	             = xm ln(x/xm)                       (α = 1).
type pareto struct {
	named
	p distuv.Pareto
}

func buildPareto(_ int, v []float64, n named) (model, error) {
	if err := positives("pareto", n.keys, v); err != nil {
		return nil, err
	}
	return &pareto{n, distuv.Pareto{Alpha: v[0], Xm: v[1]}}, nil
}

func (d *pareto) Sample(r *rand.Rand) float64 { p := d.p; p.Src = r; return p.Rand() }
func (d *pareto) Mean() float64               { return d.p.Mean() }
func (d *pareto) String() string              { return callString(d) }
func (d *pareto) CDF(x float64) float64       { return d.p.CDF(x) }

func (d *pareto) Quantile(p float64) float64 {
	if !validP(p) {
		return math.NaN()
	}
	return d.p.Quantile(p)
}

func (d *pareto) partialMean(x float64) float64 {
	a, xm := d.p.Alpha, d.p.Xm
	switch {
	case x <= xm:
		return 0
	case a == 1:
		return xm * math.Log(x/xm)
	}
	return a * xm / (a - 1) * -math.Expm1((a-1)*math.Log(xm/x))
}

// lognormal has ln X ~ N(μ, σ²); median = e^μ, and for mean m and
// coefficient of variation cv, σ² = ln(1+cv²) and μ = ln m - σ²/2.
//
//	E[X; X <= x] = e^{μ+σ²/2} Φ((ln x - μ - σ²)/σ).
type lognormal struct {
	named
	l distuv.LogNormal
}

func buildLogNormal(form int, v []float64, n named) (model, error) {
	var mu, sigma float64
	switch form {
	case 0: // median, sigma
		if err := positives("lognormal", n.keys, v); err != nil {
			return nil, err
		}
		mu, sigma = math.Log(v[0]), v[1]
	case 1: // mean, cv
		if err := positives("lognormal", n.keys, v); err != nil {
			return nil, err
		}
		s2 := math.Log1p(v[1] * v[1])
		mu, sigma = math.Log(v[0])-s2/2, math.Sqrt(s2)
	default: // mu, sigma
		if err := positive("lognormal", "sigma", v[1]); err != nil {
			return nil, err
		}
		mu, sigma = v[0], v[1]
	}
	return &lognormal{n, distuv.LogNormal{Mu: mu, Sigma: sigma}}, nil
}

func (d *lognormal) Sample(r *rand.Rand) float64 { l := d.l; l.Src = r; return l.Rand() }
func (d *lognormal) Mean() float64               { return d.l.Mean() }
func (d *lognormal) String() string              { return callString(d) }

func (d *lognormal) CDF(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return d.l.CDF(x)
}

func (d *lognormal) Quantile(p float64) float64 {
	if !validP(p) {
		return math.NaN()
	}
	return d.l.Quantile(p)
}

func (d *lognormal) partialMean(x float64) float64 {
	if x <= 0 {
		return 0
	}
	mu, s := d.l.Mu, d.l.Sigma
	return math.Exp(mu+s*s/2) * stdNormalCDF((math.Log(x)-mu-s*s)/s)
}
