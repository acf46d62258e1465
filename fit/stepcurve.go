package fit

import (
	"fmt"
	"math"
	"slices"
)

// CurveWidths are the bin widths, in seconds, SelectCurve tries: whole
// seconds, minutes and hours, so that bins line up with the clock of a
// trace and with one another across clients.
var CurveWidths = []float64{1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400}

// Step is a stretch [From, To) of constant rate, in seconds on the
// trace's clock.
type Step struct {
	From, To, Rate float64
}

// CurveFit is the rate of a client over its active span, from its first
// arrival to its last on the trace's clock, and zero outside it: flat, or
// the counts of bins of one width, whichever SelectCurve prefers.
type CurveFit struct {
	// First and Last bound the active span.
	First, Last float64
	// Steps are the rates over the active span, in order, adjacent bins
	// of equal rate merged: one step when flat. Every step's rate times
	// its length is its bins' count, so the steps' mass is N.
	Steps []Step
	// N is the number of arrivals.
	N int
	// Width is the chosen bin width in seconds; 0 when flat.
	Width float64
	// Bins, LR, Dispersion and Score describe the chosen width (or, when
	// flat, the best width refused): its number of bins, the
	// likelihood-ratio statistic 2(ℓ − ℓ₀) of its Poisson counts against
	// the flat rate, the index of dispersion ĉ that scales it, and the
	// quasi-likelihood BIC gain LR/ĉ − (Bins − 1)·ln N.
	Bins                  int
	LR, Dispersion, Score float64
	// Tried is the number of widths compared.
	Tried int
}

// Flat reports whether the curve is one flat rate.
func (c CurveFit) Flat() bool { return c.Width == 0 }

// Mean is the mean rate over the active span, N/(Last − First).
func (c CurveFit) Mean() float64 { return float64(c.N) / (c.Last - c.First) }

// SelectCurve chooses the rate over the active span of the sorted times:
// a flat rate, or the counts of bins of one of CurveWidths (aligned to
// the clock's 0, the first and last bins cut to the span), at most
// maxBins of them. Each width's counts are compared with the flat rate
// by a penalised likelihood: the Poisson likelihood-ratio statistic LR is
// divided by the counts' index of dispersion ĉ (quasi-likelihood, since
// bursty arrivals vary more than Poisson ones), estimated within the bins
// so that the curve's own changes do not count as noise (halfDispersion),
// and at least the dispersion at any narrower width (bursty arrivals vary
// more over longer windows, and a few wide bins estimate it poorly), and
// the width with the largest LR/ĉ − (bins − 1)·ln N (a BIC) wins, if
// above 0; otherwise the rate is flat. A curve is kept only when it
// explains the counts beyond their noise.
func SelectCurve(times []float64, maxBins int) (CurveFit, error) {
	n := len(times)
	c := CurveFit{N: n}
	if n < 2 {
		return c, fmt.Errorf("fitting the rate: need 2 arrivals, got %d", n)
	}
	c.First, c.Last = times[0], times[n-1]
	if !(c.Last > c.First) || math.IsInf(c.Last-c.First, 0) {
		return c, fmt.Errorf("fitting the rate: times span %g s", c.Last-c.First)
	}
	best := binned{score: math.Inf(-1)}
	floor := 1.0 // the dispersion at the narrower widths
	for _, w := range CurveWidths {
		b, ok := binCurve(times, w, max(maxBins, len(times)), floor)
		if !ok {
			continue
		}
		floor = b.disp
		if len(b.counts) > maxBins {
			continue
		}
		c.Tried++
		if b.score > best.score {
			best = b
		}
	}
	c.Steps = []Step{{c.First, c.Last, c.Mean()}}
	if c.Tried > 0 {
		c.Bins, c.LR, c.Dispersion, c.Score = len(best.counts), best.lr, best.disp, best.score
	}
	if best.score > 0 {
		c.Width, c.Steps = best.width, best.steps(c.First, c.Last)
	}
	return c, nil
}

// binned is the counts of one bin width over an active span.
type binned struct {
	width           float64
	k0              float64 // index of the first bin
	counts, expo    []float64
	lr, disp, score float64
}

// binCurve counts the sorted times in bins of width w from ⌊first/w⌋ to
// the bin holding last (the first and last cut to the span), and scores
// them against a flat rate, their dispersion at least floor; ok is false
// when the span holds fewer than two bins or more than maxBins.
func binCurve(times []float64, w float64, maxBins int, floor float64) (binned, bool) {
	first, last := times[0], times[len(times)-1]
	k0, k1 := math.Floor(first/w), math.Ceil(last/w)-1
	k1 = math.Max(k1, k0)
	nb := k1 - k0 + 1
	if nb < 2 || nb > float64(maxBins) {
		return binned{}, false
	}
	b := binned{width: w, k0: k0, counts: make([]float64, int(nb)), expo: make([]float64, int(nb))}
	for j := range b.expo {
		lo, hi := math.Max(first, (k0+float64(j))*w), math.Min(last, (k0+float64(j)+1)*w)
		b.expo[j] = hi - lo
	}
	halves := make([]float64, 2*len(b.counts)) // counts in the bins' halves
	for _, t := range times {
		j := max(min(int(math.Floor(t/w)-k0), len(b.counts)-1), 0)
		b.counts[j]++
		h := 2*j + min(int(math.Floor(2*(t/w-k0-float64(j)))), 1)
		halves[max(h, 2*j)]++
	}
	n := float64(len(times))
	ll := 0.0
	for j, c := range b.counts {
		if c > 0 {
			ll += c * math.Log(c/b.expo[j])
		}
	}
	b.lr = math.Max(2*(ll-n*math.Log(n/(last-first))), 0)
	b.disp = math.Max(floor, halfDispersion(halves, b.expo, w))
	b.score = b.lr/b.disp - (nb-1)*math.Log(n)
	return b, true
}

// halfDispersion estimates the index of dispersion of the counts of bins
// of width w from the differences of the two halves of each full bin, at
// least 1: the halves of a bin share its mean, so Var(a − b) ≈ ĉ·E(a + b)
// however the mean moves from bin to bin,
//
//	ĉ = max(1, Σ (aⱼ − bⱼ)² / Σ (aⱼ + bⱼ)).
//
// It measures the noise at half the width, which for bursty arrivals
// grows with the width towards CV²; without a full bin holding an
// arrival it is 1.
func halfDispersion(halves, expo []float64, w float64) float64 {
	var num, den float64
	for j, e := range expo {
		if e < w {
			continue
		}
		d := halves[2*j] - halves[2*j+1]
		num, den = num+d*d, den+halves[2*j]+halves[2*j+1]
	}
	if den == 0 {
		return 1
	}
	return math.Max(1, num/den)
}

// steps returns the bins' rates as steps over [first, last], adjacent
// bins of equal rate merged.
func (b binned) steps(first, last float64) []Step {
	var out []Step
	for j, c := range b.counts {
		lo := math.Max(first, (b.k0+float64(j))*b.width)
		hi := math.Min(last, (b.k0+float64(j)+1)*b.width)
		if j == len(b.counts)-1 {
			hi = last
		}
		r := c / b.expo[j]
		if k := len(out) - 1; k >= 0 && out[k].Rate == r {
			out[k].To = hi
			continue
		}
		out = append(out, Step{lo, hi, r})
	}
	return out
}

// Cumulative returns Λ(t), the curve's expected arrivals before t: 0
// before First, N after Last.
func (c CurveFit) Cumulative(t float64) float64 {
	m := 0.0
	for _, s := range c.Steps {
		if t <= s.From {
			break
		}
		m += s.Rate * (math.Min(t, s.To) - s.From)
	}
	return m
}

// Unit maps the sorted times through the curve, τᵢ = Λ(tᵢ), to the time
// of a unit-rate process: their gaps are the gaps the arrival process
// states, free of the curve (time rescaling).
func (c CurveFit) Unit(times []float64) []float64 {
	out := make([]float64, len(times))
	m, k := 0.0, 0 // Λ(Steps[k].From)
	for i, t := range times {
		for k < len(c.Steps)-1 && t >= c.Steps[k].To {
			m += c.Steps[k].Rate * (c.Steps[k].To - c.Steps[k].From)
			k++
		}
		s := c.Steps[k]
		out[i] = m + s.Rate*math.Max(0, math.Min(t, s.To)-s.From)
	}
	return out
}

// RateAt returns the curve's rate at t: 0 outside the active span.
func (c CurveFit) RateAt(t float64) float64 {
	i, _ := slices.BinarySearchFunc(c.Steps, t, func(s Step, t float64) int {
		if s.To <= t {
			return -1
		}
		return 1
	})
	if i >= len(c.Steps) || t < c.Steps[i].From {
		if t == c.Last && len(c.Steps) > 0 {
			return c.Steps[len(c.Steps)-1].Rate
		}
		return 0
	}
	return c.Steps[i].Rate
}
