package arrival

import (
	"math"
	"math/rand/v2"
)

// envelope is the unit-mean gap generator of an on/off stream: bursts of
// exponential length bring arrivals at rate λ = 1/(1 − f), their gaps of
// the given CV (exponential for 1, so the stream is an interrupted
// Poisson process; lognormal otherwise), and idle periods of exponential
// length bring none. With A arrivals per burst on average, a burst lasts
// A/λ = A(1 − f) and an idle period A·f, so the stream is idle a share f
// of the time and its mean rate is 1. A burst restarts its gaps from
// their equilibrium law, so it brings λ arrivals per unit of its length.
// Unlike a renewal law, the bursts' lengths correlate the gaps, so counts
// over windows of a few bursts vary as much as on/off traffic's do.
type envelope struct {
	rate      float64 // λ, the rate during a burst
	on, off   float64 // mean burst and idle lengths
	sigma, mu float64 // the lognormal gaps within a burst; sigma 0: exponential
	left      float64 // what is left of the current burst
	fresh     bool    // the burst has had no arrival yet
}

// newEnvelope returns the generator of A arrivals per burst, idle share
// f and gap CV cv within bursts (0 or 1: exponential).
func newEnvelope(burst, idle, cv float64) envelope {
	e := envelope{rate: 1 / (1 - idle), on: burst * (1 - idle), off: burst * idle}
	if cv != 0 && cv != 1 {
		s2 := math.Log1p(cv * cv)
		e.sigma, e.mu = math.Sqrt(s2), -s2/2
	}
	return e
}

// within draws a gap within a burst, of mean 1/λ: a fresh burst's first
// from the equilibrium (forward-recurrence) law.
func (e *envelope) within(r *rand.Rand) float64 {
	if e.sigma == 0 {
		return r.ExpFloat64() / e.rate
	}
	if e.fresh {
		// Length-biased lognormal, LogNormal(μ + σ², σ), times U.
		return math.Exp(e.mu+e.sigma*e.sigma+e.sigma*r.NormFloat64()) * r.Float64() / e.rate
	}
	return math.Exp(e.mu+e.sigma*r.NormFloat64()) / e.rate
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
		g += e.left + r.ExpFloat64()*e.off
		e.left, e.fresh = r.ExpFloat64()*e.on, true
	}
}

// first draws the first epoch of a stationary stream: idle with
// probability f (the rest of an idle period, exponential, then a new
// burst), else within a burst whose rest is exponential.
func (e *envelope) first(r *rand.Rand) float64 {
	g := 0.0
	if r.Float64() < e.off/(e.on+e.off) {
		g = r.ExpFloat64() * e.off
	}
	e.left, e.fresh = r.ExpFloat64()*e.on, true
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
