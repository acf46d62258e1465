package fit

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"surge/arrival"
	"surge/dist"
)

// Law is a candidate law of the gaps of a unit-rate arrival process.
type Law struct {
	Fit
	// K is the number of the law's parameters.
	K int
	// BIC is its Bayesian information criterion, −2·LogLik + K·ln N:
	// lower is better.
	BIC float64
	// Ties is the number of gaps it would make shorter than the trace's
	// resolution, so tied with the arrival before, where the trace has
	// Fit.Dropped of them.
	Ties float64
	// Refused says why a spec may not state the law; empty when it may.
	Refused string
}

// lawParams are the parameters of each family a spec states.
var lawParams = map[Family]int{FamilyExponential: 1, FamilyGamma: 2, FamilyWeibull: 2, FamilyLogNormal: 2, FamilyOnOff: 5}

// ChooseLaw fits the gaps of the unit-rate process that the sorted times
// become through curve (CurveFit.Unit) by maximum likelihood, each law a
// spec can state: exponential (Poisson), gamma, Weibull, lognormal and
// the on/off process (FitOnOff). It ranks
// them by BIC, best first, and refuses a law that would tie arrivals the
// trace does not: one whose expected count of gaps shorter than the
// trace's resolution res (at the curve's rate at each arrival) exceeds
// the trace's ties by more than Poisson noise, ties + 3√(ties + 1) + 1. A
// gamma of shape 0.006, the moment fit of on/off traffic, puts most of
// its gaps within a microsecond of 0, and is refused so. Laws whose
// parameters a spec cannot hold (cv beyond 0.001 to 100) are refused too.
// Refused laws come last.
func ChooseLaw(times []float64, curve CurveFit, res float64) ([]Law, error) {
	unit := curve.Unit(times)
	gaps := make([]float64, len(unit)-1)
	ties := 0
	for i := range gaps {
		gaps[i] = unit[i+1] - unit[i]
		if times[i+1] == times[i] {
			gaps[i], ties = 0, ties+1
		}
	}
	deltas := make([]float64, len(gaps)) // the resolution in unit time at each gap
	for i := range gaps {
		deltas[i] = res * curve.RateAt(times[i+1])
	}
	var laws []Law
	var errs []error
	for _, f := range []func([]float64) (Fit, error){Exponential, Gamma, Weibull, LogNormal, FitOnOff} {
		fit, err := f(gaps)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		l := Law{Fit: fit, K: lawParams[fit.Family]}
		l.BIC = -2*fit.LogLik + float64(l.K)*math.Log(float64(fit.N))
		cdf := lawCDF(fit)
		for _, d := range deltas {
			l.Ties += cdf(d)
		}
		if limit := float64(ties) + 3*math.Sqrt(float64(ties)+1) + 1; l.Ties > limit {
			l.Refused = fmt.Sprintf("would tie %.0f gaps at the trace's %g s resolution, where it ties %d", l.Ties, res, ties)
		} else if _, err := stateLaw(l); err != nil {
			l.Refused = err.Error()
		}
		laws = append(laws, l)
	}
	if len(laws) == 0 {
		return nil, fmt.Errorf("fitting the arrival gaps: %v", errs)
	}
	slices.SortStableFunc(laws, func(a, b Law) int {
		if (a.Refused == "") != (b.Refused == "") {
			return cmp.Compare(len(a.Refused), len(b.Refused))
		}
		return cmp.Compare(a.BIC, b.BIC)
	})
	if laws[0].Family == FamilyOnOff && laws[0].Refused == "" {
		laws[0].Fit = ShapeOnOff(gaps, laws[0].Fit)
	}
	return laws, nil
}

// lawCDF returns the CDF of a fitted gap law.
func lawCDF(f Fit) func(float64) float64 {
	if f.Family == FamilyOnOff {
		return onOffCDF(f)
	}
	if c, ok := f.Dist.(interface{ CDF(float64) float64 }); ok {
		return c.CDF
	}
	return func(float64) float64 { return 0 }
}

// Process is an arrival process a spec can state: the law of the gaps at
// unit rate, its CV or, for onoff, its burst and idle share.
type Process struct {
	// Name is "poisson", "gamma", "weibull", "lognormal" or "onoff".
	Name string
	// CV is the gap coefficient of variation, for gamma, weibull and
	// lognormal, and for onoff within its bursts, rounded to 3
	// significant digits.
	CV float64
	// Burst and Idle are onoff's mean arrivals per burst and share of
	// time idle, BurstCV and IdleCV the CVs of its bursts' and idle
	// periods' lengths, RateCV that of its bursts' rates.
	Burst, Idle, BurstCV, IdleCV, RateCV float64
	// BurstLaw, IdleLaw and RateLaw are onoff's tables of its bursts'
	// lengths, idle lengths and rates in place of the CVs, when the trace
	// has bursts enough to tell them.
	BurstLaw, IdleLaw, RateLaw dist.Dist
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
//   - otherwise the first law of Laws that is not refused: the best by BIC
//     of the unit-rate gaps, the curve taken out.
func (a ArrivalFit) Process() Process {
	switch {
	case a.Grid.Detected && a.Grid.Dispersion <= GridPoissonDispersion:
		return Process{Name: "poisson", Why: fmt.Sprintf("on a %.4g s grid; per-slot dispersion %.3g ≈ 1", a.Grid.Period, a.Grid.Dispersion)}
	case a.Grid.Detected:
		p := Process{Name: "gamma", CV: round3(math.Min(maxCV, math.Sqrt(a.Grid.Dispersion)))}
		p.Why = fmt.Sprintf("on a %.4g s grid; cv = √(per-slot dispersion %.3g)", a.Grid.Period, a.Grid.Dispersion)
		return p
	}
	l, ok := a.law()
	if !ok {
		return Process{Name: "poisson", Why: "every law is refused; Poisson"}
	}
	p, _ := stateLaw(l)
	p.Why = fmt.Sprintf("%s has the lowest BIC of the unit-rate gaps", l.Family)
	if i := slices.IndexFunc(a.Laws[1:], func(o Law) bool { return o.Refused == "" }); i >= 0 {
		o := a.Laws[i+1]
		p.Why += fmt.Sprintf(", %.4g below %s", o.BIC-l.BIC, o.Family)
	}
	return p
}

// law returns the first law of a.Laws not refused.
func (a ArrivalFit) law() (Law, bool) {
	for _, l := range a.Laws {
		if l.Refused == "" {
			return l, true
		}
	}
	return Law{}, false
}

// stateLaw returns the process of l, or why a spec cannot state it.
func stateLaw(l Law) (Process, error) {
	var p Process
	switch l.Family {
	case FamilyExponential:
		return Process{Name: "poisson"}, nil
	case FamilyGamma:
		p = Process{Name: "gamma", CV: 1 / math.Sqrt(l.Params["shape"])}
	case FamilyWeibull:
		p = Process{Name: "weibull", CV: WeibullCV(l.Params["shape"])}
	case FamilyLogNormal:
		s := l.Params["sigma"]
		p = Process{Name: "lognormal", CV: math.Sqrt(math.Expm1(s * s))}
	case FamilyOnOff:
		b, i, cv := l.Params["burst"], l.Params["idle"], l.Params["cv"]
		p = Process{Name: "onoff", Burst: round3(b), Idle: round3(i), CV: round3(cv), BurstCV: l.Params["burst_cv"], IdleCV: l.Params["idle_cv"], RateCV: l.Params["rate_cv"],
			BurstLaw: l.Shapes["burst"], IdleLaw: l.Shapes["idle"], RateLaw: l.Shapes["rate"]}
		c := arrival.Config{Process: arrival.OnOff, Rate: 1, Burst: p.Burst, Idle: p.Idle, CV: p.CV, BurstCV: p.BurstCV, IdleCV: p.IdleCV, RateCV: p.RateCV,
			BurstLaw: p.BurstLaw, IdleLaw: p.IdleLaw, RateLaw: p.RateLaw}
		if err := c.Validate(); err != nil {
			return p, fmt.Errorf("burst %.3g, idle %.3g, cv %.3g out of range", b, i, cv)
		}
		return p, nil
	default:
		return p, fmt.Errorf("%s is not an arrival process", l.Family)
	}
	if !(p.CV >= minCV && p.CV <= maxCV) {
		return p, fmt.Errorf("cv %.3g outside the spec's %g to %g", p.CV, float64(minCV), float64(maxCV))
	}
	p.CV = round3(p.CV)
	return p, nil
}

// lawsComment lists the laws with their BIC and why any was refused.
func lawsComment(laws []Law) string {
	var s []string
	for _, l := range laws {
		c := fmt.Sprintf("%s BIC %.1f KS %.3f", l.Family, l.BIC, l.KS)
		if l.Refused != "" {
			c += " (refused: " + l.Refused + ")"
		}
		s = append(s, c)
	}
	return strings.Join(s, "; ")
}

// round3 rounds v to 3 significant digits.
func round3(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	r := math.Pow(10, 2-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*r) / r
}

// WeibullCV is the coefficient of variation of a Weibull law of shape k:
// CV² = Γ(1 + 2/k) / Γ(1 + 1/k)² − 1.
func WeibullCV(k float64) float64 {
	l1, _ := math.Lgamma(1 + 1/k)
	l2, _ := math.Lgamma(1 + 2/k)
	return math.Sqrt(math.Exp(l2-2*l1) - 1)
}
