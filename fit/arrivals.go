package fit

import (
	"fmt"
	"math"
	"slices"
)

// ArrivalOptions configures Arrivals. The zero value is valid.
type ArrivalOptions struct {
	// Bin is the width in seconds of the bins of the rate curve and of the
	// on/off test; 0 means 60 (a minute).
	Bin float64
	// Smooth is the moving-average window of the rate curve, in bins; 0
	// means 5.
	Smooth int
	// MaxStages caps the stages of the rate curve by merging bins; 0 means
	// 120.
	MaxStages int
}

// withDefaults fills the zero fields of o.
func (o ArrivalOptions) withDefaults() ArrivalOptions {
	if o.Bin <= 0 {
		o.Bin = 60
	}
	if o.Smooth <= 0 {
		o.Smooth = 5
	}
	if o.MaxStages <= 0 {
		o.MaxStages = 120
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
	// CV is the coefficient of variation of all N − 1 gaps, ties included.
	CV float64
	// Gaps is the fit of the positive gaps between arrivals (seconds).
	Gaps Choice
	// Poisson is true when the exponential law fits the gaps well (its KS
	// distance grades Good) and there is no grid.
	Poisson bool
	// Grid is the timestamp grid, if any; when Grid.Detected the gap fit
	// describes the grid rather than the arrivals and should not be used.
	Grid Grid
	// OnOff reports idle bins.
	OnOff OnOff
	// Curve is the smoothed rate over time.
	Curve []Stage
	// Warnings are the statistical caveats: ties left out, a grid, on/off
	// behaviour, a poor gap fit.
	Warnings []error
}

// Arrivals fits the arrival times of a trace, in seconds from any origin (in
// any order; a sorted copy is used). It needs at least three arrivals with
// two distinct positive gaps.
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
	a := ArrivalFit{N: len(ts), Span: ts[len(ts)-1] - ts[0]}
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
	a.Grid = DetectGrid(ts)
	if exp, ok := a.Gaps.Lookup(FamilyExponential); ok {
		a.Poisson = !a.Grid.Detected && GradeKS(exp.KS, exp.N) == Good
	}
	a.OnOff = DetectOnOff(ts, opt.Bin)
	a.Curve = RateCurve(ts, opt.Bin, opt.Smooth, opt.MaxStages)
	a.Warnings = a.caveats()
	return a, nil
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
	return append(w, a.Gaps.Warnings...)
}
