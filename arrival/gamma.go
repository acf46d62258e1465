package arrival

import (
	"math"
	"math/rand/v2"
)

// gammaSampler draws Gamma(α, 1) variates by Marsaglia and Tsang's method
// ("A simple method for generating gamma variables", ACM TOMS 26(3), 2000).
// For α ≥ 1, with d = α − 1/3 and c = 1/√(9d), draw x ~ N(0, 1) and
// v = (1 + c·x)³; accept d·v when v > 0 and u < 1 − 0.0331·x⁴ (the quick
// squeeze) or ln u < x²/2 + d·(1 − v + ln v). The acceptance rate is above
// 95% for every α. For α < 1 it uses Gamma(α) = Gamma(α + 1)·U^(1/α).
// It holds only constants, so one value serves any number of draws.
type gammaSampler struct {
	d, c  float64 // Marsaglia–Tsang constants for α' = max(α, α + 1 if α < 1)
	boost float64 // 1/α when α < 1, else 0
}

// newGammaSampler returns a sampler of Gamma(alpha, 1); alpha must be > 0.
func newGammaSampler(alpha float64) gammaSampler {
	g := gammaSampler{}
	if alpha < 1 {
		g.boost = 1 / alpha
		alpha++
	}
	g.d = alpha - 1.0/3
	g.c = 1 / math.Sqrt(9*g.d)
	return g
}

// sample draws one variate; it allocates nothing.
func (g *gammaSampler) sample(r *rand.Rand) float64 {
	x := g.core(r)
	if g.boost != 0 {
		// U^(1/α) in logs; U = 0 is possible and gives a zero gap.
		x *= math.Exp(math.Log(r.Float64()) * g.boost)
	}
	return x
}

// core draws Gamma(α', 1) for α' ≥ 1.
func (g *gammaSampler) core(r *rand.Rand) float64 {
	for {
		x := r.NormFloat64()
		v := 1 + g.c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		x2 := x * x
		if u < 1-0.0331*x2*x2 {
			return g.d * v
		}
		if math.Log(u) < 0.5*x2+g.d*(1-v+math.Log(v)) {
			return g.d * v
		}
	}
}
