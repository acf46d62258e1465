package dist

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mathext"
)

var _ model = (*normal)(nil)

// normal is N(μ, σ²), optionally truncated to [lo, hi]. Truncation (the min
// and max parameters) conditions on lo <= X <= hi rather than clamping: with
// α = (lo-μ)/σ, β = (hi-μ)/σ and mass Z = Φ(β) - Φ(α),
//
//	F(x) = (Φ((x-μ)/σ) - Φ(α)) / Z,  mean = μ + σ (φ(α) - φ(β)) / Z.
//
// A truncated normal is sampled by inverse CDF on [Φ(α), Φ(β)]. When the range
// lies above μ the standardised range is mirrored to [-β, -α] first, because
// Φ keeps its precision in the lower tail and loses it near 1.
type normal struct {
	named
	mu, sd float64
	lo, hi float64 // truncation bounds, ±Inf when absent

	trunc    bool    // lo or hi is finite
	flip     float64 // -1 when sampling the mirrored range, else 1
	pLo, pHi float64 // Φ at the ends of the (possibly mirrored) range
	mass     float64 // Z
	mean     float64
}

func buildNormal(_ int, v []float64, n named) (model, error) {
	if err := positive("normal", "sd", v[1]); err != nil {
		return nil, err
	}
	return newNormal(n, v[0], v[1], math.Inf(-1), math.Inf(1))
}

// newNormal builds N(mu, sd²) truncated to [lo, hi].
func newNormal(n named, mu, sd, lo, hi float64) (*normal, error) {
	a, b := (lo-mu)/sd, (hi-mu)/sd
	d := &normal{named: n, mu: mu, sd: sd, lo: lo, hi: hi, flip: 1}
	d.trunc = !math.IsInf(lo, -1) || !math.IsInf(hi, 1)
	if a > 0 {
		d.flip, a, b = -1, -b, -a
	}
	d.pLo, d.pHi = stdNormalCDF(a), stdNormalCDF(b)
	d.mass = normalMass(a, b)
	if !(d.mass > 0) {
		return nil, fmt.Errorf("[min, max] = [%s, %s] holds no probability mass of the normal", fmtNum(lo), fmtNum(hi))
	}
	// φ(α) - φ(β) in the unmirrored frame equals flip·(φ(a) - φ(b)) here.
	d.mean = mu + d.flip*sd*(stdNormalPDF(a)-stdNormalPDF(b))/d.mass
	return d, nil
}

// truncate narrows the truncation range to [lo, hi] ∩ [d.lo, d.hi].
func (d *normal) truncate(lo, hi float64) (Dist, error) {
	return newNormal(d.named, d.mu, d.sd, max(lo, d.lo), min(hi, d.hi))
}

// Sample draws μ + σ·N(0,1) when untruncated, else by inverse CDF.
func (d *normal) Sample(r *rand.Rand) float64 {
	if !d.trunc {
		return d.mu + d.sd*r.NormFloat64()
	}
	u := d.pLo + open01(r)*(d.pHi-d.pLo)
	return d.at(mathext.NormalQuantile(u))
}

// at maps a standard normal z of the sampling frame back to x in [lo, hi].
func (d *normal) at(z float64) float64 {
	return min(max(d.mu+d.flip*d.sd*z, d.lo), d.hi)
}

func (d *normal) Mean() float64 { return d.mean }

func (d *normal) String() string { return callString(d) }

// appendArgs prints mean and sd, then the truncation bounds.
func (d *normal) appendArgs(b []byte) []byte {
	return appendBounds(d.named.appendArgs(b), d.lo, d.hi)
}

func (d *normal) CDF(x float64) float64 {
	switch {
	case x < d.lo:
		return 0
	case x >= d.hi:
		return 1
	}
	z := (x - d.mu) / d.sd
	if d.flip > 0 {
		return min(max((stdNormalCDF(z)-d.pLo)/d.mass, 0), 1)
	}
	return min(max((d.pHi-stdNormalCDF(-z))/d.mass, 0), 1)
}

func (d *normal) Quantile(p float64) float64 {
	if !validP(p) {
		return math.NaN()
	}
	if !d.trunc {
		return d.mu + d.sd*mathext.NormalQuantile(p)
	}
	if d.flip > 0 {
		return d.at(mathext.NormalQuantile(d.pLo + p*d.mass))
	}
	return d.at(mathext.NormalQuantile(d.pHi - p*d.mass))
}

// partialMean is E[X; X <= x] = (μ M(α, τ) - σ (φ(τ) - φ(α))) / Z with
// τ = (min(x, hi)-μ)/σ and M(α, τ) = Φ(τ) - Φ(α).
func (d *normal) partialMean(x float64) float64 {
	t := min(x, d.hi)
	if t < d.lo {
		return 0
	}
	a, tau := (d.lo-d.mu)/d.sd, (t-d.mu)/d.sd
	return (d.mu*normalMass(a, tau) - d.sd*(stdNormalPDF(tau)-stdNormalPDF(a))) / d.mass
}

// stdNormalCDF is Φ(z) = erfc(-z/√2)/2, accurate far into the lower tail.
func stdNormalCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// stdNormalPDF is φ(z) = e^{-z²/2}/√(2π); φ(±Inf) = 0.
func stdNormalPDF(z float64) float64 { return math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) }

// normalMass is Φ(b) - Φ(a) for a <= b, computed in the lower tail when both
// are positive to avoid cancellation near 1.
func normalMass(a, b float64) float64 {
	if a > 0 {
		return stdNormalCDF(-a) - stdNormalCDF(-b)
	}
	return stdNormalCDF(b) - stdNormalCDF(a)
}
