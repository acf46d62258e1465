package fit

import (
	"math"
	"slices"
)

// Sample is one client's traffic as a trace holds it: start times in
// seconds and every request's input and output lengths.
type Sample struct {
	Times   []float64
	In, Out []float64
	// Reasoning is how many of each request's Out tokens are reasoning.
	Reasoning []float64
	// Episodes is the shape of the sessions: turns, waits and growth.
	Episodes Episodes
	// Prefixes measures the sharing of the sessions' first prompts.
	Prefixes prefixes
	// Categories counts the requests of each category an imported trace
	// names (trace.Turn.Category), Styles those of each content style a
	// generated one has (trace.Turn.Style); nil when none has one.
	Categories, Styles map[string]int
}

// Comparison sets a sample regenerated from a fitted spec beside the
// original: each pair is (original, regenerated).
type Comparison struct {
	Sessions   [2]int     // the sessions (arrivals) of each
	Rate       [2]float64 // mean arrivals per second, (n − 1)/span
	CV         [2]float64 // coefficient of variation of the gaps
	PeakToMean [2]float64 // the busiest whole minute's arrivals over the mean minute's
	// ZeroShare is the share of gaps that are zero (tied arrivals);
	// Dispersion the index of dispersion (variance/mean) of the counts in
	// whole seconds; MinuteCV the CV of the counts in whole minutes, all
	// from the first arrival.
	ZeroShare, Dispersion, MinuteCV [2]float64
	// Reuse is the share of the sessions' first prompt tokens an
	// unbounded prefix cache holds from earlier first prompts.
	Reuse [2]float64
	// ReasoningShare is the share of output tokens that are reasoning.
	ReasoningShare [2]float64
	// In and Out are the length quantiles at ComparisonP.
	In, Out [2][]float64
	// KSIn and KSOut are the two-sample Kolmogorov–Smirnov distances
	// between the original and regenerated lengths.
	KSIn, KSOut float64
	// Spearman is the rank correlation of input and output lengths.
	Spearman [2]float64
	// Episodes says whether both hold sessions of several turns; then
	// KSSteps and KSGrowth are the KS distances of the turns per session
	// and of the context's growth per later turn (Episodes.Delta,
	// negative where it shrank), and Shrinks the share of later turns
	// whose context shrank in each.
	Episodes          bool
	KSSteps, KSGrowth float64
	Shrinks           [2]float64
	// Mix says whether the original names categories; then MixTV is the
	// total variation distance between the shares of the content styles
	// its categories stand for (StyleOf) and the styles of the
	// regenerated requests, half the sum of the shares' differences.
	Mix   bool
	MixTV float64
}

// ComparisonP are the probabilities of Comparison's length quantiles.
var ComparisonP = []float64{0.1, 0.5, 0.9, 0.99}

// Compare computes the comparison of regen with orig.
func Compare(orig, regen Sample) Comparison {
	var c Comparison
	for i, s := range []Sample{orig, regen} {
		ts := slices.Sorted(slices.Values(s.Times))
		c.Sessions[i] = len(ts)
		c.Rate[i], c.CV[i] = rateCV(ts)
		c.PeakToMean[i] = peakToMean(ts)
		c.ZeroShare[i] = zeroShare(ts)
		c.Reuse[i] = s.Prefixes.Reuse()
		c.ReasoningShare[i] = share(s.Reasoning, s.Out)
		if len(ts) > 1 && ts[len(ts)-1] > ts[0] {
			_, c.Dispersion[i] = meanVar(binCounts(ts, 1))
			if m, d := meanVar(binCounts(ts, 60)); m > 0 {
				c.MinuteCV[i] = math.Sqrt(d / m)
			}
		}
		c.In[i], c.Out[i] = quantiles(s.In), quantiles(s.Out)
		c.Spearman[i] = Spearman(s.In, s.Out)
	}
	if m := mixOf(orig.Categories); m != nil {
		c.Mix, c.MixTV = true, mixDistance(m, regen.Styles)
	}
	c.KSIn = KS2(orig.In, regen.In)
	c.KSOut = KS2(orig.Out, regen.Out)
	if o, r := orig.Episodes, regen.Episodes; o.Multi > 0 && r.Multi > 0 {
		c.Episodes = true
		c.KSSteps, c.KSGrowth = KS2(o.Steps, r.Steps), KS2(o.Delta, r.Delta)
		c.Shrinks = [2]float64{float64(o.Shrinks) / float64(len(o.Delta)), float64(r.Shrinks) / float64(len(r.Delta))}
	}
	return c
}

// share returns Σ part / Σ whole, 0 for an empty whole.
func share(part, whole []float64) float64 {
	var p, w float64
	for _, x := range part {
		p += x
	}
	for _, x := range whole {
		w += x
	}
	if w == 0 {
		return 0
	}
	return p / w
}

// zeroShare returns the share of the gaps of sorted times that are 0.
func zeroShare(ts []float64) float64 {
	if len(ts) < 2 {
		return 0
	}
	z := 0
	for i := 1; i < len(ts); i++ {
		if ts[i] == ts[i-1] {
			z++
		}
	}
	return float64(z) / float64(len(ts)-1)
}

// rateCV returns the mean rate and gap CV of sorted times; 0 and 0 for
// fewer than three or times that span nothing (closed-loop sessions).
func rateCV(ts []float64) (rate, cv float64) {
	if len(ts) < 3 || ts[len(ts)-1] <= ts[0] {
		return 0, 0
	}
	span := ts[len(ts)-1] - ts[0]
	mean := span / float64(len(ts)-1)
	var ss float64
	for i := 1; i < len(ts); i++ {
		d := ts[i] - ts[i-1] - mean
		ss += d * d
	}
	return 1 / mean, math.Sqrt(ss/float64(len(ts)-1)) / mean
}

// peakToMean is the busiest whole minute's count over the mean of the
// whole minutes from the first arrival (the last, cut short, left out).
func peakToMean(ts []float64) float64 {
	if len(ts) == 0 {
		return 0
	}
	last := int((ts[len(ts)-1] - ts[0]) / 60)
	if last == 0 {
		return 0
	}
	counts := make([]int, last+1)
	for _, t := range ts {
		counts[int((t-ts[0])/60)]++
	}
	peak, total := 0, 0
	for _, n := range counts[:last] {
		peak, total = max(peak, n), total+n
	}
	return float64(peak) / (float64(total) / float64(last))
}

// quantiles returns the quantiles of xs at ComparisonP.
func quantiles(xs []float64) []float64 {
	s := slices.Sorted(slices.Values(xs))
	q := make([]float64, len(ComparisonP))
	for i, p := range ComparisonP {
		if len(s) > 0 {
			q[i] = Quantile(s, p)
		}
	}
	return q
}

// KS2 is the two-sample Kolmogorov–Smirnov distance: the largest gap
// between the empirical CDFs of a and b.
func KS2(a, b []float64) float64 {
	a, b = slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))
	var d float64
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		x := min(a[i], b[j])
		for i < len(a) && a[i] == x {
			i++
		}
		for j < len(b) && b[j] == x {
			j++
		}
		d = max(d, math.Abs(float64(i)/float64(len(a))-float64(j)/float64(len(b))))
	}
	return d
}
