// Package dist holds the probability distributions surge samples lengths,
// think times and tool latencies from.
//
// Every distribution prints itself with String in the compact spec syntax,
// for example "lognormal(median=1000,sigma=0.8,max=16000)", and Parse reads
// that syntax back, so a resolved spec can always be written out again.
//
// Distributions are built by New from a kind and named parameters (see Kinds
// and ParamNames), by NewEmpirical, NewQuantiles and NewMixture, and bounded
// by Clamp. Every kind accepts the optional parameters min and max: the sample
// is clamped into [min, max], which puts point masses at the bounds, except for
// normal, which is truncated to [min, max] instead (sampled by inverse CDF on
// the truncated range, so no mass piles up at the bounds).
//
// Sampling reads randomness only from the *rand.Rand passed to Sample, so a
// seed fixes the sequence, and it does not allocate. All distributions are
// immutable once built and safe for concurrent use (each goroutine must use
// its own *rand.Rand).
package dist

import "math/rand/v2"

// Dist is a univariate distribution that can be sampled.
type Dist interface {
	// Sample draws one value using r; it never reads any other randomness.
	Sample(r *rand.Rand) float64
	// Mean is the analytic mean of the distribution, clamps included.
	Mean() float64
	// String prints the distribution in the compact syntax that Parse reads.
	String() string
}

// Quantiler is implemented by distributions with a quantile function.
type Quantiler interface {
	// Quantile returns the smallest x with CDF(x) >= p, for p in [0, 1].
	// The distributions of this package return NaN for any other p.
	Quantile(p float64) float64
}

// CDFer is implemented by distributions with a cumulative distribution
// function.
type CDFer interface {
	// CDF returns P(X <= x).
	CDF(x float64) float64
}

// model is what Clamp and NewMixture need from a distribution: every
// distribution of this package is one.
type model interface {
	Dist
	Quantiler
	CDFer
}

// partialMeaner is implemented by distributions that know their lower
// partial expectation in closed form.
type partialMeaner interface {
	// partialMean returns E[X; X <= x] = ∫_{-∞}^{x} t dF(t) for finite x.
	partialMean(x float64) float64
}

// caller is implemented by distributions that print as kind(args), so that
// Clamp can append its bounds to the argument list.
type caller interface {
	kind() string
	appendArgs(b []byte) []byte
}
