package workload

import (
	"math"

	"surge/dist"
	"surge/trace"
)

// correlatedTurn is newTurn for a client whose input and output lengths
// are rank-correlated: a Gaussian copula draws z₁, z₂ standard normal with
// correlation r = 2 sin(π ρ_s / 6), which gives Spearman correlation ρ_s
// (the spec's), and takes each length at the quantile Φ(zᵢ) of its own
// distribution, so each keeps its distribution exactly. Reasoning, if
// any, is drawn after, independently.
func (b *builder) correlatedTurn(c *client) trace.Turn {
	r := 2 * math.Sin(math.Pi*c.Correlation/6)
	z1, z2 := b.rng.NormFloat64(), b.rng.NormFloat64()
	u1 := phi(z1)
	u2 := phi(r*z1 + math.Sqrt(1-r*r)*z2)
	in := tokens(quantile(c.Input, u1))
	out := tokens(quantile(c.Output, u2))
	return b.lengthsTurn(c, in, out)
}

// phi is the standard normal CDF.
func phi(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// quantile is d's p-quantile; every distribution of the dist package has
// one.
func quantile(d dist.Dist, p float64) float64 {
	return d.(dist.Quantiler).Quantile(min(max(p, 1e-12), 1-1e-12))
}
