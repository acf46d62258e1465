package fit

import "math"

// Stage is one point of a rate curve: from offset At (seconds from the first
// arrival) the rate is Rate requests per second, linear between stages as a
// spec's arrival.stages are.
type Stage struct {
	At, Rate float64
}

// OnOff describes idle periods: bins of a fixed width with no arrival at all.
type OnOff struct {
	// Detected is true when Empty ≥ 2 and Empty ≥ 10 × Expected: far more
	// idle bins than a Poisson process at the mean rate would leave.
	Detected bool
	// Bin is the bin width in seconds; Bins the number of whole bins from
	// the first arrival (a last partial bin is left out); Empty the bins
	// without an arrival.
	Bin         float64
	Bins, Empty int
	// Expected is the number of empty bins a Poisson process at the mean
	// rate would give: Bins · e^{−rate·Bin}.
	Expected float64
	// MaxGap is the longest gap between arrivals, in seconds.
	MaxGap float64
}

// binCounts counts the sorted times in whole bins of width w from times[0];
// arrivals in a last partial bin are left out.
func binCounts(times []float64, w float64) []float64 {
	t0 := times[0]
	n := int(math.Floor((times[len(times)-1] - t0) / w))
	counts := make([]float64, n)
	for _, t := range times {
		if i := int(math.Floor((t - t0) / w)); i < n {
			counts[i]++
		}
	}
	return counts
}

// DetectOnOff counts the empty bins of width bin (seconds) in sorted times.
func DetectOnOff(times []float64, bin float64) OnOff {
	o := OnOff{Bin: bin}
	if len(times) < 2 || !(bin > 0) {
		return o
	}
	for i := 1; i < len(times); i++ {
		o.MaxGap = math.Max(o.MaxGap, times[i]-times[i-1])
	}
	counts := binCounts(times, bin)
	o.Bins = len(counts)
	total := 0.0
	for _, c := range counts {
		total += c
		if c == 0 {
			o.Empty++
		}
	}
	if o.Bins == 0 {
		return o
	}
	o.Expected = float64(o.Bins) * math.Exp(-total/float64(o.Bins))
	o.Detected = o.Empty >= 2 && float64(o.Empty) >= 10*o.Expected
	return o
}

// RateCurve estimates the arrival rate over time: counts in whole bins of
// width bin seconds from the first arrival, smoothed by a centred moving
// average over smooth bins (shrinking at the ends; 1 for none), divided by
// the bin width, one Stage at the centre of each bin. When there would be
// more than maxStages bins, bins are merged so that there are at most
// maxStages. It returns nil when the times span less than one bin.
//
// Smoothing trades time resolution for noise: a Poisson count of c per bin
// has relative error 1/√c, and averaging s bins divides that by √s.
func RateCurve(times []float64, bin float64, smooth, maxStages int) []Stage {
	if len(times) < 2 || !(bin > 0) {
		return nil
	}
	if maxStages > 0 {
		if n := (times[len(times)-1] - times[0]) / bin; n > float64(maxStages) {
			bin *= math.Ceil(n / float64(maxStages))
		}
	}
	counts := binCounts(times, bin)
	if len(counts) == 0 {
		return nil
	}
	sm := movingAverage(counts, max(smooth, 1))
	stages := make([]Stage, len(sm))
	for i, c := range sm {
		stages[i] = Stage{At: (float64(i) + 0.5) * bin, Rate: c / bin}
	}
	return stages
}

// movingAverage returns the centred moving average of xs over w points
// (w/2 either side), using only the points that exist near the ends.
func movingAverage(xs []float64, w int) []float64 {
	h := w / 2
	out := make([]float64, len(xs))
	for i := range xs {
		lo, hi := max(0, i-h), min(len(xs), i+h+1)
		s := 0.0
		for _, x := range xs[lo:hi] {
			s += x
		}
		out[i] = s / float64(hi-lo)
	}
	return out
}
