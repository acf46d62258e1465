package arrival

import (
	"math"
	"math/rand/v2"
	"surge/dist"
)

// Bounds on CV for gamma and weibull gaps. Below minCV the Weibull shape
// solve loses precision (use constant instead); above maxCV almost every gap
// underflows to zero and the mean is carried by a handful of huge gaps.
const (
	minCV = 1e-3
	maxCV = 100.0
)

// CVFromBurstiness converts vLLM's burstiness b — the shape of its gamma
// inter-arrival law, 1 meaning Poisson — to the gap CV that Config takes:
// a gamma law of shape b has CV = 1/√b. It returns NaN for b ≤ 0 (or NaN),
// which Validate rejects.
func CVFromBurstiness(b float64) float64 {
	if !(b > 0) {
		return math.NaN()
	}
	return 1 / math.Sqrt(b)
}

// BurstinessFromCV is the inverse of CVFromBurstiness: b = 1/CV².
func BurstinessFromCV(cv float64) float64 {
	if !(cv > 0) {
		return math.NaN()
	}
	return 1 / (cv * cv)
}

// law samples the gaps of a unit-rate renewal process: E[G] = 1 and
// sd(G)/E[G] = CV.
//
//	constant  G = 1
//	poisson   G ~ Exp(1)
//	gamma     G ~ Gamma(k, θ), k = 1/CV², θ = CV² (mean kθ = 1, CV = 1/√k)
//	weibull   G = λ·E^(1/k), E ~ Exp(1), with k solving
//	          CV² = Γ(1 + 2/k)/Γ(1 + 1/k)² − 1 and λ = 1/Γ(1 + 1/k)
type law struct {
	kind  Process
	shape float64 // gamma or Weibull shape k; lognormal σ
	scale float64 // gamma θ or Weibull λ; lognormal μ
	inv   float64 // 1/k for Weibull
	gam   gammaSampler
	env   envelope // onoff
}

// newLaw returns the unit-mean gap law of c's process (its CV, or for
// onoff its burst and idle share).
func newLaw(c Config) law {
	cv := c.CV
	switch c.Process {
	case LogNormal:
		s2 := math.Log1p(cv * cv)
		return law{kind: LogNormal, shape: math.Sqrt(s2), scale: -s2 / 2}
	case OnOff:
		return law{kind: OnOff, env: newEnvelope(c)}
	case Constant:
		return law{kind: Constant}
	case Gamma:
		k := 1 / (cv * cv)
		return law{kind: Gamma, shape: k, scale: cv * cv, gam: newGammaSampler(k)}
	case Weibull:
		// Validate keeps cv within [minCV, maxCV], inside the range
		// WeibullShape solves, so it cannot fail here.
		k, _ := dist.WeibullShape(cv)
		lg, _ := math.Lgamma(1 + 1/k)
		return law{kind: Weibull, shape: k, scale: math.Exp(-lg), inv: 1 / k}
	}
	return law{kind: Poisson}
}

// gap draws one gap.
func (l *law) gap(r *rand.Rand) float64 {
	switch l.kind {
	case Constant:
		return 1
	case Gamma:
		return l.scale * l.gam.sample(r)
	case Weibull:
		return l.scale * math.Pow(r.ExpFloat64(), l.inv)
	case LogNormal:
		return math.Exp(l.scale + l.shape*r.NormFloat64())
	case OnOff:
		return l.env.gap(r)
	}
	return r.ExpFloat64()
}

// first draws the first epoch from the equilibrium (forward-recurrence) law
// of the renewal process, which makes it stationary: Y = U·L with U uniform
// on [0, 1) and L the length-biased gap, of density x·f(x)/E[G]. For the
// laws here L is again simple:
//
//	constant  L = 1, so Y ~ U(0, 1)
//	poisson   Y ~ Exp(1) (memorylessness)
//	gamma     L ~ Gamma(k + 1, θ)
//	weibull   L = λ·V^(1/k), V ~ Gamma(1 + 1/k, 1) (weighting E by E^(1/k))
//	lognormal L ~ LogNormal(μ + σ², σ)
//	onoff     idle with probability f, then as below; else within a burst
//	          whose rest is exponential and whose gaps start from their
//	          equilibrium law (see envelope)
//
// For the renewal laws E[Y] = E[G²]/(2E[G]) = (1 + CV²)/2.
func (l *law) first(r *rand.Rand) float64 {
	switch l.kind {
	case Constant:
		return r.Float64()
	case Gamma:
		g := newGammaSampler(l.shape + 1)
		return l.scale * g.sample(r) * r.Float64()
	case Weibull:
		g := newGammaSampler(1 + l.inv)
		return l.scale * math.Pow(g.sample(r), l.inv) * r.Float64()
	case LogNormal:
		return math.Exp(l.scale+l.shape*l.shape+l.shape*r.NormFloat64()) * r.Float64()
	case OnOff:
		return l.env.first(r)
	}
	return r.ExpFloat64()
}
