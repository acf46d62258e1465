package fit

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"surge/dist"
)

// Family names a parametric family Best can choose.
type Family string

// The families fitted, named as the spec names the distribution kinds.
// FamilyGammaMoments is the moment-matched gamma; it prints as a gamma.
const (
	FamilyExponential  Family = "exponential"
	FamilyGamma        Family = "gamma"
	FamilyWeibull      Family = "weibull"
	FamilyLogNormal    Family = "lognormal"
	FamilyGammaMoments Family = "gamma-moments"
)

// Fit is one distribution fitted to a sample.
type Fit struct {
	// Family is the fitted law.
	Family Family
	// Params are the fitted parameters in the spec's parameterisation, so
	// that dist.New(kind, Params) rebuilds the law: exponential {rate},
	// gamma and weibull {shape, scale}, lognormal {mu, sigma}. Scales are in
	// the unit of the sample.
	Params dist.Params
	// N is the number of samples fitted; Dropped the number left out because
	// they were not positive (or not finite).
	N, Dropped int
	// LogLik is the log-likelihood of the fitted sample, Σ ln f(xᵢ).
	LogLik float64
	// KS is the one-sample Kolmogorov–Smirnov distance between the sample's
	// empirical CDF and the fitted CDF, sup |Fₙ(x) − F(x)|.
	KS float64
	// Dist is the fitted distribution, its parameters rounded to 4
	// significant digits so that it prints cleanly in a spec.
	Dist dist.Dist
	// Shapes are, for onoff, the laws of its bursts' lengths, idle
	// lengths and rates (keys burst, idle and rate), as tables of the
	// trace's bursts, when it has enough of them; nil otherwise.
	Shapes map[string]dist.Dist
}

// String prints the family, parameters and fit statistics on one line.
func (f Fit) String() string {
	return fmt.Sprintf("%s %s (n=%d, KS D=%.4f, loglik=%.1f)", f.Family, f.Dist, f.N, f.KS, f.LogLik)
}

// errTooFew is returned when fewer than two positive samples remain.
var errTooFew = errors.New("fewer than 2 positive samples")

// positive returns the finite positive samples of xs, sorted, and the number
// dropped.
func positive(xs []float64) (pos []float64, dropped int) {
	pos = make([]float64, 0, len(xs))
	for _, x := range xs {
		if x > 0 && !math.IsInf(x, 1) {
			pos = append(pos, x)
		}
	}
	slices.Sort(pos)
	return pos, len(xs) - len(pos)
}

// round4 rounds v to 4 significant digits.
func round4(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	e := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*e) / e
}

// newFit completes a Fit from its parameters: the rounded dist.Dist, the
// log-likelihood from logpdf and the KS distance from cdf over the sorted
// positive sample xs.
func newFit(fam Family, p dist.Params, xs []float64, dropped int, logpdf, cdf func(float64) float64) (Fit, error) {
	kind := string(fam)
	if fam == FamilyGammaMoments {
		kind = string(FamilyGamma)
	}
	rounded := dist.Params{}
	for k, v := range p {
		rounded[k] = round4(v)
	}
	d, err := dist.New(kind, rounded)
	if err != nil {
		return Fit{}, fmt.Errorf("building fitted %s: %w", fam, err)
	}
	ll := 0.0
	for _, x := range xs {
		ll += logpdf(x)
	}
	return Fit{Family: fam, Params: p, N: len(xs), Dropped: dropped, LogLik: ll, KS: KS(xs, cdf), Dist: d}, nil
}
