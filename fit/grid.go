package fit

import (
	"math"
	"slices"
)

// Grid describes arrival timestamps that sit on a regular grid of slots, as
// when a trace stamps requests with the start of a fixed interval (Mooncake's
// conversation trace: 3 s slots, ≈ 10 requests each). Gaps between such
// timestamps are mostly zero and otherwise multiples of the period, so no
// continuous law fits them; the counts per slot carry the information.
type Grid struct {
	// Detected is true when ZeroShare ≥ GridZeroShare and OnGrid ≥ GridOnGrid.
	Detected bool
	// ZeroShare is the share of gaps that are exactly zero (tied timestamps).
	ZeroShare float64
	// Period is the slot length in seconds: Σ dⱼ / Σ mⱼ over the gaps dⱼ
	// between distinct timestamps that lie near a whole multiple mⱼ of their
	// median; 0 when there are fewer than two distinct timestamps.
	Period float64
	// OnGrid is the share of gaps between distinct timestamps within 2 % of
	// a whole multiple (≥ 1) of the median gap.
	OnGrid float64
	// Slots counts the slots from the first to the last timestamp, empty
	// ones included; PerSlot is the mean number of requests per slot.
	Slots   int
	PerSlot float64
	// Dispersion is the index of dispersion of the counts per slot,
	// variance / mean: 1 for Poisson arrivals, more for bursty ones (for a
	// renewal process it tends to the squared CV of its gaps).
	Dispersion float64
}

// Thresholds of DetectGrid.
const (
	// GridZeroShare is the least share of zero gaps that suggests slots:
	// over half the requests share their timestamp with the one before.
	GridZeroShare = 0.5
	// GridOnGrid is the least share of gaps between distinct timestamps
	// that must be whole multiples of the period.
	GridOnGrid = 0.9
	// gridTolerance is how far, as a fraction of the period, a gap may be
	// from a whole multiple and still count as on the grid (Mooncake's
	// 3 s slots are stamped 2,999 to 3,001 ms apart).
	gridTolerance = 0.02
)

// DetectGrid looks for a timestamp grid in sorted times (seconds).
func DetectGrid(times []float64) Grid {
	var g Grid
	if len(times) < 2 {
		return g
	}
	var distinct []float64
	zeros := 0
	for i, t := range times {
		if i > 0 && t == times[i-1] {
			zeros++
			continue
		}
		distinct = append(distinct, t)
	}
	g.ZeroShare = float64(zeros) / float64(len(times)-1)
	if len(distinct) < 2 {
		return g
	}
	g.Period, g.OnGrid = gridPeriod(distinct)
	g.Detected = g.ZeroShare >= GridZeroShare && g.OnGrid >= GridOnGrid
	if g.Period > 0 {
		g.Slots, g.PerSlot, g.Dispersion = slotCounts(times, g.Period)
	}
	return g
}

// gridPeriod returns the period of the distinct sorted timestamps and the
// share of their gaps that are whole multiples of it.
func gridPeriod(distinct []float64) (period, onGrid float64) {
	d := make([]float64, len(distinct)-1)
	for i := range d {
		d[i] = distinct[i+1] - distinct[i]
	}
	sorted := slices.Clone(d)
	slices.Sort(sorted)
	p0 := Quantile(sorted, 0.5)
	var sumD, sumM float64
	on := 0
	for _, x := range d {
		m := math.Round(x / p0)
		if m >= 1 && math.Abs(x/p0-m) <= gridTolerance {
			on++
			sumD += x
			sumM += m
		}
	}
	if sumM == 0 {
		return p0, 0
	}
	return sumD / sumM, float64(on) / float64(len(d))
}

// slotCounts assigns each sorted time to the slot round((t − t₀)/period)
// and returns the number of slots, the mean count and the index of
// dispersion. It sums the squared counts of the slots that hold a time,
// run by run, so its memory does not grow with the number of slots.
func slotCounts(times []float64, period float64) (slots int, mean, dispersion float64) {
	t0 := times[0]
	last := math.Round((times[len(times)-1] - t0) / period)
	if !(last < 1<<53) {
		return 0, 0, 0
	}
	slots = int(last) + 1
	var sumSq float64
	run, at := 0.0, 0.0
	for i, t := range times {
		k := math.Round((t - t0) / period)
		if i > 0 && k != at {
			sumSq += run * run
			run = 0
		}
		run, at = run+1, k
	}
	sumSq += run * run
	n := float64(slots)
	mean = float64(len(times)) / n
	if mean == 0 {
		return slots, 0, 0
	}
	return slots, mean, (sumSq/n - mean*mean) / mean
}

// meanVar returns the mean of xs and the index of dispersion variance/mean
// (population variance).
func meanVar(xs []float64) (mean, dispersion float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	v /= float64(len(xs))
	if mean == 0 {
		return 0, 0
	}
	return mean, v / mean
}
