package fit

import "math"

// KS returns the one-sample Kolmogorov–Smirnov distance between the sorted
// sample xs and a continuous CDF:
//
//	D = max over i of max(F(xᵢ) − (i−1)/n, i/n − F(xᵢ)),  i = 1..n,
//
// which is sup |Fₙ(x) − F(x)| exactly, ties included (inside a run of equal
// values the inner terms are bounded by the run's first and last).
func KS(xs []float64, cdf func(float64) float64) float64 {
	n := float64(len(xs))
	d := 0.0
	for i, x := range xs {
		f := cdf(x)
		d = math.Max(d, math.Max(f-float64(i)/n, float64(i+1)/n-f))
	}
	return d
}

// KSCritical returns the asymptotic 5 % critical value of the KS distance for
// a sample of n drawn from a fully specified law, c/√n with c = 1.358
// (√(−ln(0.025)/2)). With parameters estimated from the same sample the true
// critical value is smaller (Lilliefors), so a D under it is, if anything,
// judged leniently.
func KSCritical(n int) float64 {
	if n <= 0 {
		return math.Inf(1)
	}
	return 1.358 / math.Sqrt(float64(n))
}
