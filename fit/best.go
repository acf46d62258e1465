package fit

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"surge/dist"
)

// Grade says how well a fitted law describes its sample.
type Grade int

// The grades, from best to worst; see GradeKS for the thresholds.
const (
	Good Grade = iota
	Fair
	Poor
)

// String returns "good", "fair" or "poor".
func (g Grade) String() string {
	switch g {
	case Good:
		return "good"
	case Fair:
		return "fair"
	}
	return "poor"
}

// Thresholds of GradeKS on the KS distance D.
const (
	// GoodKS is the distance below which a fit is good whatever the sample
	// size: no quantile of the data is off by more than 3 percentiles.
	GoodKS = 0.03
	// FairKS is the distance above which a fit is poor: beyond it whole
	// deciles of the data move (for instance the fitted median lands below
	// the data's 40th or above its 60th percentile), which changes queueing
	// and batching in a benchmark visibly.
	FairKS = 0.10
)

// GradeKS grades a KS distance d on a sample of n:
//
//   - good when d ≤ max(KSCritical(n), GoodKS): either the KS test does not
//     reject the law at 5 %, or the law is within 3 percentiles of the data
//     everywhere. The absolute floor matters for large traces, where the
//     test rejects differences far too small to matter for a workload
//     (at n = 19,366 the critical value is 0.0098);
//   - fair when d ≤ FairKS;
//   - poor otherwise.
func GradeKS(d float64, n int) Grade {
	switch {
	case d <= math.Max(KSCritical(n), GoodKS):
		return Good
	case d <= FairKS:
		return Fair
	}
	return Poor
}

// Choice is the outcome of Best: every candidate fit, the best one, its grade
// and the distribution to use.
type Choice struct {
	// Fits holds every family that could be fitted, nearest first by KS.
	Fits []Fit
	// Best is Fits[0], the family with the smallest KS distance.
	Best Fit
	// Grade grades Best.KS at Best.N (see GradeKS).
	Grade Grade
	// Empirical is the quantile table of the positive sample (see
	// QuantileTable), built whatever the grade.
	Empirical dist.Dist
	// Use is the distribution to write in a spec: Best.Dist, or Empirical
	// when the best single law is Poor.
	Use dist.Dist
	// Warnings are the families that could not be fitted, and why.
	Warnings []error
}

// fitters are the candidate families Best tries, in order of preference on
// equal KS distance (simplest first).
var fitters = []func([]float64) (Fit, error){
	Exponential, Gamma, Weibull, LogNormal, MomentGamma,
}

// Best fits the exponential, gamma, Weibull, lognormal (maximum likelihood,
// location 0) and moment-matched gamma laws to the positive samples, picks
// the one with the smallest KS distance and grades it with GradeKS. When the
// best law is poor, Choice.Use is the empirical quantile table instead. It
// fails only when no family can be fitted (fewer than two distinct positive
// samples).
func Best(samples []float64) (Choice, error) {
	var c Choice
	for _, f := range fitters {
		fit, err := f(samples)
		if err != nil {
			c.Warnings = append(c.Warnings, err)
			continue
		}
		c.Fits = append(c.Fits, fit)
	}
	if len(c.Fits) == 0 {
		return Choice{}, fmt.Errorf("fitting a distribution: %w", errors.Join(c.Warnings...))
	}
	slices.SortStableFunc(c.Fits, func(a, b Fit) int {
		switch {
		case a.KS < b.KS:
			return -1
		case a.KS > b.KS:
			return 1
		}
		return 0
	})
	c.Best = c.Fits[0]
	c.Grade = GradeKS(c.Best.KS, c.Best.N)
	xs, _ := positive(samples)
	emp, err := QuantileTable(xs)
	if err != nil {
		return Choice{}, err
	}
	c.Empirical, c.Use = emp, c.Best.Dist
	if c.Grade == Poor {
		c.Use = emp
	}
	return c, nil
}

// Lookup returns the fit of family f, if Best fitted it.
func (c Choice) Lookup(f Family) (Fit, bool) {
	i := slices.IndexFunc(c.Fits, func(x Fit) bool { return x.Family == f })
	if i < 0 {
		return Fit{}, false
	}
	return c.Fits[i], true
}
