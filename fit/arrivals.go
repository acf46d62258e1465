package fit

import (
	"fmt"
	"math"
	"slices"
)

// ArrivalOptions configures Arrivals. The zero value is valid.
type ArrivalOptions struct {
	// Bin is the width in seconds of the bins of the on/off test; 0 means
	// 60 (a minute).
	Bin float64
	// MaxBins caps the bins of the rate curve (SelectCurve); 0 means 240.
	MaxBins int
	// Flat states one rate over the active span, trying no curve.
	Flat bool
}

// withDefaults fills the zero fields of o.
func (o ArrivalOptions) withDefaults() ArrivalOptions {
	if o.Bin <= 0 {
		o.Bin = 60
	}
	if o.MaxBins <= 0 {
		o.MaxBins = 240
	}
	return o
}

// ArrivalFit describes the arrival times of a trace.
type ArrivalFit struct {
	// N is the number of arrivals; Span the seconds from the first to the
	// last; Rate the mean rate (N − 1)/Span per second.
	N          int
	Span, Rate float64
	// Ties is the number of zero gaps (arrivals sharing the timestamp of
	// the one before). They cannot enter a location-0 likelihood, so Gaps
	// is fitted to the positive gaps only, and Gaps.Best.Dropped = Ties.
	Ties int
	// Resolution is the clock of the timestamps in seconds: the largest
	// power of ten, from 1 µs to 1 s, that divides every one.
	Resolution float64
	// CV is the coefficient of variation of all N − 1 gaps, ties included.
	CV float64
	// Gaps is the fit of the positive gaps between arrivals (seconds), as
	// recorded.
	Gaps Choice
	// Curve is the rate over time on the trace's clock (SelectCurve).
	Curve CurveFit
	// Laws are the candidate laws of the gaps of the unit-rate process,
	// the arrivals mapped through Curve (CurveFit.Unit), best first
	// (ChooseLaw); Process states the first that is not refused.
	Laws []Law
	// Poisson is true when the exponential law fits the gaps well (its KS
	// distance grades Good) and there is no grid.
	Poisson bool
	// Grid is the timestamp grid, if any; when Grid.Detected the gap fit
	// describes the grid rather than the arrivals and should not be used.
	Grid Grid
	// OnOff reports idle bins.
	OnOff OnOff
	// Warnings are the statistical caveats: ties left out, a grid, on/off
	// behaviour, a poor gap fit.
	Warnings []error
}

// Arrivals fits the arrival times of a trace, in seconds on the trace's
// clock (in any order; a sorted copy is used): the gaps as recorded, the
// rate curve (SelectCurve), and the law of the gaps once the curve is
// taken out (ChooseLaw). It needs at least three arrivals with two
// distinct positive gaps.
func Arrivals(times []float64, opt ArrivalOptions) (ArrivalFit, error) {
	opt = opt.withDefaults()
	ts := slices.Clone(times)
	slices.Sort(ts)
	if len(ts) < 3 {
		return ArrivalFit{}, fmt.Errorf("fitting arrivals: need at least 3 arrivals, got %d", len(ts))
	}
	gaps := make([]float64, len(ts)-1)
	for i := range gaps {
		gaps[i] = ts[i+1] - ts[i]
	}
	a := ArrivalFit{N: len(ts), Span: ts[len(ts)-1] - ts[0], Resolution: resolution(ts)}
	if !(a.Span > 0) || math.IsInf(a.Span, 0) {
		return ArrivalFit{}, fmt.Errorf("fitting arrivals: times span %g s", a.Span)
	}
	a.Rate = float64(len(gaps)) / a.Span
	mean, disp := meanVar(gaps)
	a.CV = math.Sqrt(disp / mean) // √(var)/mean = √(dispersion/mean)
	for _, g := range gaps {
		if g == 0 {
			a.Ties++
		}
	}
	var err error
	if a.Gaps, err = Best(gaps); err != nil {
		return ArrivalFit{}, fmt.Errorf("fitting arrival gaps: %w", err)
	}
	maxBins := opt.MaxBins
	if opt.Flat {
		maxBins = 1
	}
	if a.Curve, err = SelectCurve(ts, maxBins); err != nil {
		return ArrivalFit{}, err
	}
	if a.Laws, err = ChooseLaw(ts, a.Curve, a.Resolution); err != nil {
		return ArrivalFit{}, err
	}
	a.Grid = DetectGrid(ts)
	if exp, ok := a.Gaps.Lookup(FamilyExponential); ok {
		a.Poisson = !a.Grid.Detected && GradeKS(exp.KS, exp.N) == Good
	}
	a.OnOff = DetectOnOff(ts, opt.Bin)
	a.Warnings = a.caveats()
	return a, nil
}

// resolution returns the largest power of ten from 1 µs to 1 s that
// divides every time, rounded to the microsecond.
func resolution(ts []float64) float64 {
	res := int64(1e6)
	for _, t := range ts {
		us := int64(math.Round(t * 1e6))
		for res > 1 && us%res != 0 {
			res /= 10
		}
	}
	return float64(res) / 1e6
}

// caveats lists what a reader of the fit should know.
func (a ArrivalFit) caveats() []error {
	var w []error
	if a.Ties > 0 {
		w = append(w, fmt.Errorf("%d of %d gaps are zero (tied timestamps) and were left out of the gap fits", a.Ties, a.N-1))
	}
	if g := a.Grid; g.Detected {
		w = append(w, fmt.Errorf("timestamps sit on a %.4g s grid (%.3g requests per slot): the gap fit describes the grid, not the arrivals", g.Period, g.PerSlot))
	}
	if o := a.OnOff; o.Detected {
		w = append(w, fmt.Errorf("arrivals are on/off: %d of %d bins of %g s are empty", o.Empty, o.Bins, o.Bin))
	}
	if a.Gaps.Grade == Poor && !a.Grid.Detected {
		w = append(w, fmt.Errorf("no single law fits the gaps: best %s has KS D %.3f", a.Gaps.Best.Family, a.Gaps.Best.KS))
	}
	if l, ok := a.law(); ok && GradeKS(l.KS, l.N) == Poor && !a.Grid.Detected {
		w = append(w, fmt.Errorf("the stated law %s fits the unit-rate gaps poorly: KS D %.3f", l.Family, l.KS))
	}
	return append(w, a.Gaps.Warnings...)
}
