package fit

import (
	"fmt"
	"math"
	"slices"
)

// LengthFit describes the input and output lengths of a trace.
type LengthFit struct {
	// Input and Output are the fits of each length (see Best).
	Input, Output Length
	// Spearman and Pearson are the rank and linear correlations of input
	// and output over the requests. The emitted spec keeps the rank
	// correlation (a Gaussian copula), not the rest of the joint shape, so a
	// large |Spearman| is a caveat on it.
	Spearman, Pearson float64
	// Warnings are the statistical caveats: a poor fit replaced by the
	// empirical table, or a strong dependence the copula may not capture.
	Warnings []error
	// Reasoning is the law of each request's reasoning tokens, when any
	// request reasons; Output is then the answer after it. ReasoningShare
	// is the share of all output tokens that are reasoning.
	Reasoning      *Length
	ReasoningShare float64
}

// DependentSpearman is the |Spearman| from which LengthFit warns that the
// dependence of input and output is strong enough that a Gaussian copula
// (what a spec states) may misrepresent their joint shape.
const DependentSpearman = 0.3

// Length is the fit of one length column.
type Length struct {
	Choice
	// Min and Max are the smallest and largest observed lengths; the
	// emitted distribution is clamped to them, so a cap in the trace (an
	// output limit) becomes the spec's max.
	Min, Max float64
	// Mean is the sample mean, over every sample.
	Mean float64
}

// Lengths fits input and output lengths of the same requests (equal
// lengths) and measures their dependence. A side with fewer than two
// distinct positive lengths gets the table of its values (see fitAny).
func Lengths(in, out []float64) (LengthFit, error) {
	if len(in) != len(out) {
		return LengthFit{}, fmt.Errorf("fitting lengths: %d inputs but %d outputs", len(in), len(out))
	}
	var l LengthFit
	var err error
	if l.Input, err = fitAny(in); err != nil {
		return LengthFit{}, fmt.Errorf("fitting input lengths: %w", err)
	}
	if l.Output, err = fitAny(out); err != nil {
		return LengthFit{}, fmt.Errorf("fitting output lengths: %w", err)
	}
	l.Spearman, l.Pearson = Spearman(in, out), Pearson(in, out)
	for _, side := range []struct {
		name string
		l    Length
	}{{"input", l.Input}, {"output", l.Output}} {
		if side.l.Grade == Poor {
			l.Warnings = append(l.Warnings, fmt.Errorf("%s: no single law fits (best %s, KS D %.3f); using the empirical quantile table",
				side.name, side.l.Best.Family, side.l.Best.KS))
		}
		l.Warnings = append(l.Warnings, side.l.Warnings...)
	}
	if math.Abs(l.Spearman) >= DependentSpearman {
		l.Warnings = append(l.Warnings, fmt.Errorf("input and output are dependent (Spearman %.2f): the spec keeps the rank correlation through a Gaussian copula, not the joint shape", l.Spearman))
	}
	return l, nil
}

// FitLength fits one column of lengths with Best and records its range and
// mean. Non-positive lengths are left out of the fits (Best reports how many)
// but not out of Min and Mean. A spec states lengths exactly, so only a
// good law is used for them: a fair one (KS up to 0.10) would regenerate
// visibly other lengths, and the empirical quantile table is used instead.
func FitLength(xs []float64) (Length, error) {
	c, err := Best(xs)
	if err != nil {
		return Length{}, err
	}
	if c.Grade != Good {
		c.Use = c.Empirical
	}
	l := Length{Choice: c, Min: slices.Min(xs), Max: slices.Max(xs)}
	for _, x := range xs {
		l.Mean += x
	}
	l.Mean /= float64(len(xs))
	if math.IsNaN(l.Mean) {
		return Length{}, fmt.Errorf("lengths contain NaN")
	}
	return l, nil
}
