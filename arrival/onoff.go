package arrival

import (
	"math"
	"math/rand/v2"

	"surge/dist"
)

// envelope is the unit-mean gap generator of an on/off stream: bursts
// bring arrivals at rate λ = 1/(1 − f), their gaps of the given CV
// (exponential for 1, so with exponential bursts and idle periods the
// stream is an interrupted Poisson process; lognormal otherwise), and idle
// periods bring none. With A arrivals per burst on average, a burst lasts
// A/λ = A(1 − f) and an idle period A·f on average, so the stream is idle
// a share f of the time and its mean rate is 1; the lengths of bursts and
// of idle periods are exponential, lognormal of a given CV or of a given
// law's shape, since real on/off traffic has a few long bursts and long
// silences among many short ones; and each burst's rate may be λ times a
// factor of mean 1, lognormal of a given CV or of a law's shape, since
// some bursts are dense and others sparse. A burst
// restarts its gaps from their equilibrium law, so it brings λ arrivals
// per unit of its length on average. Unlike a renewal law, the bursts'
// lengths correlate the gaps, so counts over windows of a few bursts vary
// as much as on/off traffic's do.
type envelope struct {
	rate    float64 // λ, the rate during a burst
	gaps    period  // the gaps within a burst, of unit mean before the division by λ
	on, off period  // burst and idle lengths
	scale   period  // each burst's factor on λ, of mean 1; mean 0: always 1
	m       float64 // the current burst's factor
	left    float64 // what is left of the current burst
	fresh   bool    // the burst has had no arrival yet
}

// newEnvelope returns the generator of c's onoff stream: A arrivals per
// burst, idle share f, gap CV within bursts c.CV, and its bursts' and idle
// periods' lengths and its bursts' rates as their laws say, or else their
// CVs (burst and idle CV 0 or 1: exponential; rate CV 0: all λ).
func newEnvelope(c Config) envelope {
	burst, idle := c.Burst, c.Idle
	rate := 1 / (1 - idle)
	e := envelope{rate: rate, gaps: newPeriod(1, c.CV), m: 1,
		on: lawPeriod(burst*(1-idle), c.BurstLaw, c.BurstCV), off: lawPeriod(burst*idle, c.IdleLaw, c.IdleCV)}
	switch {
	case c.RateLaw != nil:
		e.scale = lawPeriod(1, c.RateLaw, 0)
	case c.RateCV > 0: // lognormal, even at cv 1
		s2 := math.Log1p(c.RateCV * c.RateCV)
		e.scale = period{mean: 1, sigma: math.Sqrt(s2), mu: -s2 / 2}
	}
	return e
}

// burst starts a burst of length left: its factor on λ drawn when the
// bursts' rates vary.
func (e *envelope) burst(r *rand.Rand, left float64) {
	e.left, e.fresh = left, true
	if e.scale.mean > 0 {
		e.m = e.scale.draw(r)
	}
}

// period is a law of positive lengths of a given mean: exponential,
// lognormal of a given CV, or a law's shape scaled to the mean.
type period struct {
	mean      float64
	sigma, mu float64   // the lognormal's, of unit mean; sigma 0: exponential
	law       dist.Dist // when set, in place of both; its mean is the unit
	unit      float64   // 1 / the law's mean
}

// newPeriod returns the law of the given mean and CV (0 or 1: exponential).
func newPeriod(mean, cv float64) period {
	p := period{mean: mean}
	if cv != 0 && cv != 1 {
		s2 := math.Log1p(cv * cv)
		p.sigma, p.mu = math.Sqrt(s2), -s2/2
	}
	return p
}

// lawPeriod returns the law of the given mean shaped as law, or of CV cv
// when law is nil.
func lawPeriod(mean float64, law dist.Dist, cv float64) period {
	if law == nil {
		return newPeriod(mean, cv)
	}
	return period{mean: mean, law: law, unit: 1 / law.Mean()}
}

// draw draws a length.
func (p period) draw(r *rand.Rand) float64 {
	switch {
	case p.law != nil:
		return math.Max(p.law.Sample(r), 0) * p.unit * p.mean
	case p.sigma == 0:
		return r.ExpFloat64() * p.mean
	}
	return math.Exp(p.mu+p.sigma*r.NormFloat64()) * p.mean
}

// biasDraws is how many lengths rest weighs to draw one length-biased.
const biasDraws = 16

// rest draws what is left of a length from a random instant within it:
// the equilibrium (forward-recurrence) law, U times the length-biased
// law, which for the lognormal is LogNormal(μ + σ², σ); for a law's shape
// the length-biased draw is one of biasDraws draws picked with chance in
// proportion to its length (sampling-importance-resampling, close for the
// stream's first epoch, the only one it serves).
func (p period) rest(r *rand.Rand) float64 {
	switch {
	case p.law != nil:
		var xs [biasDraws]float64
		sum := 0.0
		for i := range xs {
			xs[i] = p.draw(r)
			sum += xs[i]
		}
		u := r.Float64() * sum
		for _, x := range xs {
			if u -= x; u < 0 {
				return x * r.Float64()
			}
		}
		return xs[biasDraws-1] * r.Float64()
	case p.sigma == 0:
		return r.ExpFloat64() * p.mean
	}
	return math.Exp(p.mu+p.sigma*p.sigma+p.sigma*r.NormFloat64()) * r.Float64() * p.mean
}

// within draws a gap within a burst, of mean 1/λ: a fresh burst's first
// from the equilibrium law.
func (e *envelope) within(r *rand.Rand) float64 {
	if e.fresh {
		return e.gaps.rest(r) / (e.rate * e.m)
	}
	return e.gaps.draw(r) / (e.rate * e.m)
}

// gap draws the time to the next arrival: within the burst, or past its
// end, through idle periods, into a later burst.
func (e *envelope) gap(r *rand.Rand) float64 {
	g := 0.0
	for {
		w := e.within(r)
		if w <= e.left {
			e.left -= w
			e.fresh = false
			return g + w
		}
		g += e.left + e.off.draw(r)
		e.burst(r, e.on.draw(r))
	}
}

// first draws the first epoch of a stationary stream: idle with
// probability f (the rest of an idle period, then a new burst), else
// within the rest of a burst.
func (e *envelope) first(r *rand.Rand) float64 {
	g, left := 0.0, 0.0
	if r.Float64() < e.off.mean/(e.on.mean+e.off.mean) {
		g = e.off.rest(r)
		left = e.on.draw(r)
	} else {
		left = e.on.rest(r)
	}
	e.burst(r, left)
	return g + e.gap(r)
}

// OnOffCV is the gap CV of an on/off stream of burst arrivals per burst,
// idle a share idle of the time, Poisson within bursts: an interrupted
// Poisson process, whose gaps are hyperexponential (Kuczura 1973), with
// probability p an Exp(λ₁) gap, else an Exp(λ₂) one,
//
//	λ₁,₂ = ½ [(λ + α + β) ± √((λ + α + β)² − 4λβ)],  p = (λ − λ₂)/(λ₁ − λ₂),
//
// for λ = 1/(1 − f), α = λ/A and β = α(1 − f)/f, so that at unit mean
// CV² = 2(p/λ₁² + (1 − p)/λ₂²) − 1.
func OnOffCV(burst, idle float64) float64 {
	lam := 1 / (1 - idle)
	alpha := lam / burst
	beta := alpha * (1 - idle) / idle
	s := lam + alpha + beta
	d := math.Sqrt(s*s - 4*lam*beta)
	r1, r2 := (s+d)/2, (s-d)/2
	p := (lam - r2) / (r1 - r2)
	return math.Sqrt(2*(p/(r1*r1)+(1-p)/(r2*r2)) - 1)
}
