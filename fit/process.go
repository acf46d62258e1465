package fit

import (
	"fmt"
	"math"
)

// Process is an arrival process a spec can state: the law of the gaps at
// unit rate and, for gamma and Weibull, its CV.
type Process struct {
	// Name is "poisson", "gamma" or "weibull".
	Name string
	// CV is the gap coefficient of variation, for gamma and weibull; it is
	// kept within the spec's range [0.001, 100].
	CV float64
	// Why says in a few words how the process was chosen.
	Why string
}

// The range of cv a spec accepts.
const (
	minCV = 0.001
	maxCV = 100
)

// GridPoissonDispersion is the largest per-slot index of dispersion for
// which gridded arrivals are taken as Poisson. Counts of a Poisson process
// have dispersion 1; over ~1,000 slots its sampling error is ≈ √(2/slots)
// ≈ 0.05, and slow rate changes add a little more.
const GridPoissonDispersion = 1.25

// Process chooses the process a spec should state for these arrivals:
//
//   - on a timestamp grid, from the per-slot index of dispersion D (the gaps
//     only measure the grid): Poisson when D ≤ GridPoissonDispersion,
//     otherwise gamma with CV √D (a renewal process's counts have
//     dispersion → CV²);
//   - when the best law is poor (for instance on/off traffic), gamma with
//     the gaps' own CV, which keeps the burstiness but not the shape;
//   - otherwise the best law that a spec can state: gamma with CV 1/√k,
//     Weibull with CV √(Γ(1+2/k)/Γ(1+1/k)² − 1), Poisson for the
//     exponential; a lognormal best is replaced by the better of gamma and
//     Weibull. So a trace whose gaps pass as exponential (ArrivalFit.Poisson)
//     but fit a Weibull better, like Azure conversation (CV 1.09), keeps
//     the Weibull.
func (a ArrivalFit) Process() Process {
	switch {
	case a.Grid.Detected && a.Grid.Dispersion <= GridPoissonDispersion:
		return Process{Name: "poisson", Why: fmt.Sprintf("on a %.4g s grid; per-slot dispersion %.3g ≈ 1", a.Grid.Period, a.Grid.Dispersion)}
	case a.Grid.Detected:
		return gammaCV(math.Sqrt(a.Grid.Dispersion), fmt.Sprintf("on a %.4g s grid; cv = √(per-slot dispersion %.3g)", a.Grid.Period, a.Grid.Dispersion))
	case a.Gaps.Grade == Poor:
		return gammaCV(a.CV, fmt.Sprintf("no single law fits the gaps; gamma with their cv %.3g", a.CV))
	}
	for _, f := range a.Gaps.Fits {
		switch f.Family {
		case FamilyExponential:
			return Process{Name: "poisson", Why: "exponential gaps fit best"}
		case FamilyGamma, FamilyGammaMoments:
			return gammaCV(1/math.Sqrt(f.Params["shape"]), fmt.Sprintf("%s fits best of the stateable laws", f.Family))
		case FamilyWeibull:
			p := gammaCV(WeibullCV(f.Params["shape"]), "weibull fits best of the stateable laws")
			p.Name = "weibull"
			return p
		}
	}
	return gammaCV(a.CV, fmt.Sprintf("gamma with the gaps' cv %.3g", a.CV))
}

// gammaCV returns a gamma process with cv clamped to the spec's range and
// rounded to 3 significant digits.
func gammaCV(cv float64, why string) Process {
	cv = math.Max(minCV, math.Min(maxCV, cv))
	r := math.Pow(10, 2-math.Floor(math.Log10(cv)))
	return Process{Name: "gamma", CV: math.Round(cv*r) / r, Why: why}
}

// WeibullCV is the coefficient of variation of a Weibull law of shape k:
// CV² = Γ(1 + 2/k) / Γ(1 + 1/k)² − 1.
func WeibullCV(k float64) float64 {
	l1, _ := math.Lgamma(1 + 1/k)
	l2, _ := math.Lgamma(1 + 2/k)
	return math.Sqrt(math.Exp(l2-2*l1) - 1)
}
