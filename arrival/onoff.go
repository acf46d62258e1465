package arrival

import (
	"math"
	"math/rand/v2"
)

// hyperexp is the unit-mean gap law of an on/off stream: an interrupted
// Poisson process whose bursts bring arrivals at rate λ and end at rate
// α, and whose idle periods end at rate β. Its gaps are hyperexponential
// (Kuczura 1973): with probability p an Exp(λ₁) gap, else an Exp(λ₂) one,
//
//	λ₁,₂ = ½ [(λ + α + β) ± √((λ + α + β)² − 4λβ)],  p = (λ − λ₂)/(λ₁ − λ₂).
//
// At unit mean rate, a stream idle a share f of the time with a mean of A
// arrivals per burst has λ = 1/(1 − f) (the rate while on), α = λ/A (a
// burst lasts A/λ) and β = α(1 − f)/f (idle periods last A·f).
type hyperexp struct {
	p, rate1, rate2 float64
	firstP          float64 // the first epoch's chance of phase 1, ∝ p/λ₁
}

// newHyperexp returns the gap law of A arrivals per burst and idle share
// f; Validate keeps A > 0 and 0 < f < 1.
func newHyperexp(burst, idle float64) hyperexp {
	lam := 1 / (1 - idle)
	alpha := lam / burst
	beta := alpha * (1 - idle) / idle
	s := lam + alpha + beta
	d := math.Sqrt(s*s - 4*lam*beta)
	h := hyperexp{rate1: (s + d) / 2, rate2: (s - d) / 2}
	h.p = (lam - h.rate2) / (h.rate1 - h.rate2)
	// The forward-recurrence law weights phase i by pᵢ·E[Exp(λᵢ)].
	w1, w2 := h.p/h.rate1, (1-h.p)/h.rate2
	h.firstP = w1 / (w1 + w2)
	return h
}

// gap draws one gap.
func (h *hyperexp) gap(r *rand.Rand) float64 {
	if r.Float64() < h.p {
		return r.ExpFloat64() / h.rate1
	}
	return r.ExpFloat64() / h.rate2
}

// first draws the first epoch from the equilibrium law.
func (h *hyperexp) first(r *rand.Rand) float64 {
	if r.Float64() < h.firstP {
		return r.ExpFloat64() / h.rate1
	}
	return r.ExpFloat64() / h.rate2
}

// OnOffCV is the gap CV of an on/off stream of burst arrivals per burst
// idle a share idle of the time: CV² = 2(p/λ₁² + (1 − p)/λ₂²) − 1 at unit
// mean.
func OnOffCV(burst, idle float64) float64 {
	h := newHyperexp(burst, idle)
	m2 := 2 * (h.p/(h.rate1*h.rate1) + (1-h.p)/(h.rate2*h.rate2))
	return math.Sqrt(m2 - 1)
}
