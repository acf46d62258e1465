package fit

import "math"

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
