package fit

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"

	"surge/dist"
)

// logMoments returns the mean of x and the mean of ln x.
func logMoments(xs []float64) (mean, meanLog float64) {
	for _, x := range xs {
		mean += x
		meanLog += math.Log(x)
	}
	n := float64(len(xs))
	return mean / n, meanLog / n
}

// Exponential fits the exponential law by maximum likelihood:
// λ̂ = n / Σxᵢ, so the fitted mean is the sample mean. Non-positive samples
// are dropped (see Fit.Dropped).
func Exponential(samples []float64) (Fit, error) {
	xs, dropped := positive(samples)
	if len(xs) < 2 {
		return Fit{}, fmt.Errorf("fitting exponential: %w", errTooFew)
	}
	mean, _ := logMoments(xs)
	d := distuv.Exponential{Rate: 1 / mean}
	return newFit(FamilyExponential, dist.Params{"rate": d.Rate}, xs, dropped, d.LogProb, d.CDF)
}

// LogNormal fits the lognormal law by maximum likelihood, in closed form:
// μ̂ = mean of ln xᵢ and σ̂² = (1/n) Σ (ln xᵢ − μ̂)² (the biased, maximum
// likelihood variance).
func LogNormal(samples []float64) (Fit, error) {
	xs, dropped := positive(samples)
	if len(xs) < 2 {
		return Fit{}, fmt.Errorf("fitting lognormal: %w", errTooFew)
	}
	_, mu := logMoments(xs)
	ss := 0.0
	for _, x := range xs {
		ss += (math.Log(x) - mu) * (math.Log(x) - mu)
	}
	sigma := math.Sqrt(ss / float64(len(xs)))
	if !(sigma > 0) {
		return Fit{}, fmt.Errorf("fitting lognormal: all %d samples are equal", len(xs))
	}
	d := distuv.LogNormal{Mu: mu, Sigma: sigma}
	return newFit(FamilyLogNormal, dist.Params{"mu": mu, "sigma": sigma}, xs, dropped, d.LogProb, d.CDF)
}

// Gamma fits the gamma law by maximum likelihood. With
// s = ln(mean x) − mean(ln x) ≥ 0 the shape k solves
//
//	ln k − ψ(k) = s,
//
// solved by Newton's method from Minka's start
// k₀ = (3 − s + √((s − 3)² + 24s)) / (12s); then θ̂ = mean / k̂ (seconds or
// tokens, the unit of the sample).
func Gamma(samples []float64) (Fit, error) {
	xs, dropped := positive(samples)
	if len(xs) < 2 {
		return Fit{}, fmt.Errorf("fitting gamma: %w", errTooFew)
	}
	mean, meanLog := logMoments(xs)
	s := math.Log(mean) - meanLog
	if !(s > 0) {
		return Fit{}, fmt.Errorf("fitting gamma: all %d samples are equal", len(xs))
	}
	k := gammaShape(s)
	d := distuv.Gamma{Alpha: k, Beta: k / mean}
	return newFit(FamilyGamma, dist.Params{"shape": k, "scale": mean / k}, xs, dropped, d.LogProb, d.CDF)
}

// gammaShape solves ln k − ψ(k) = s for k by Newton's method on ln k, whose
// derivative is k·(1/k − ψ′(k)) = 1 − k·ψ′(k) < 0; the left side falls
// monotonically from +∞ to 0, so the root is unique.
func gammaShape(s float64) float64 {
	k := (3 - s + math.Sqrt((s-3)*(s-3)+24*s)) / (12 * s)
	for range 100 {
		f := math.Log(k) - mathext.Digamma(k) - s
		df := 1 - k*trigamma(k)
		step := f / df
		// Newton on ln k: ln k ← ln k − f/(df); cap the step for safety.
		step = math.Max(-2, math.Min(2, step))
		k *= math.Exp(-step)
		if math.Abs(step) < 1e-12 {
			break
		}
	}
	return k
}

// trigamma is ψ′(x) for x > 0: the recurrence ψ′(x) = ψ′(x+1) + 1/x² up to
// x ≥ 10, then the asymptotic series (relative error below 1e-12 there)
// ψ′(x) ≈ 1/x + 1/(2x²) + 1/(6x³) − 1/(30x⁵) + 1/(42x⁷) − 1/(30x⁹).
func trigamma(x float64) float64 {
	acc := 0.0
	for x < 10 {
		acc += 1 / (x * x)
		x++
	}
	x2 := 1 / (x * x)
	return acc + 1/x + x2/2 + x2/x*(1.0/6-x2*(1.0/30-x2*(1.0/42-x2/30)))
}

// MomentGamma fits the gamma law by matching the sample mean m and the
// (biased) variance v: k = m²/v, θ = v/m, so CV = 1/√k. This is how
// ServeGen describes a window's arrivals; for heavy-tailed or on/off gaps it
// gives a far smaller shape than the likelihood does.
func MomentGamma(samples []float64) (Fit, error) {
	xs, dropped := positive(samples)
	if len(xs) < 2 {
		return Fit{}, fmt.Errorf("fitting moment gamma: %w", errTooFew)
	}
	mean, _ := logMoments(xs)
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	v /= float64(len(xs))
	if !(v > 0) {
		return Fit{}, fmt.Errorf("fitting moment gamma: all %d samples are equal", len(xs))
	}
	k := mean * mean / v
	d := distuv.Gamma{Alpha: k, Beta: mean / v}
	return newFit(FamilyGammaMoments, dist.Params{"shape": k, "scale": v / mean}, xs, dropped, d.LogProb, d.CDF)
}

// Weibull fits the Weibull law by maximum likelihood. The shape k solves
//
//	g(k) = Σ xᵢᵏ ln xᵢ / Σ xᵢᵏ − 1/k − mean(ln x) = 0,
//
// and λ̂ = (mean xᵢᵏ)^(1/k). g rises monotonically in k, so the root is found
// by bisection on ln k in [1e-3, 1e3]. To keep xᵏ finite the sums use
// yᵢ = ln xᵢ − mean(ln x) with weights e^{k·yᵢ − max}.
func Weibull(samples []float64) (Fit, error) {
	xs, dropped := positive(samples)
	if len(xs) < 2 {
		return Fit{}, fmt.Errorf("fitting weibull: %w", errTooFew)
	}
	_, meanLog := logMoments(xs)
	ys := make([]float64, len(xs))
	for i, x := range xs {
		ys[i] = math.Log(x) - meanLog
	}
	if ys[0] == ys[len(ys)-1] {
		return Fit{}, fmt.Errorf("fitting weibull: all %d samples are equal", len(xs))
	}
	lo, hi := math.Log(1e-3), math.Log(1e3)
	for range 200 {
		mid := (lo + hi) / 2
		if weibullScore(ys, math.Exp(mid)) > 0 {
			hi = mid
		} else {
			lo = mid
		}
		if hi-lo < 1e-13 {
			break
		}
	}
	k := math.Exp((lo + hi) / 2)
	// λ = exp(mean ln x) · (mean e^{k·y})^{1/k}, with the max factored out.
	maxY := ys[len(ys)-1] // xs is sorted, so ys is too
	sum := 0.0
	for _, y := range ys {
		sum += math.Exp(k * (y - maxY))
	}
	lambda := math.Exp(meanLog + maxY + math.Log(sum/float64(len(ys)))/k)
	d := distuv.Weibull{K: k, Lambda: lambda}
	return newFit(FamilyWeibull, dist.Params{"shape": k, "scale": lambda}, xs, dropped, d.LogProb, d.CDF)
}

// weibullScore is g(k) of Weibull for centred logs ys (mean 0, sorted).
func weibullScore(ys []float64, k float64) float64 {
	maxY := ys[len(ys)-1]
	var num, den float64
	for _, y := range ys {
		w := math.Exp(k * (y - maxY))
		num += w * y
		den += w
	}
	return num/den - 1/k
}
