package sweep

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"surge/metrics"
	"surge/trace"
)

// Over-saturation test settings: Overloaded splits a run into trendWindows
// windows of at least trendMinPer requests each.
const (
	trendWindows = 10
	trendMinPer  = 20
	// trendZ is the one-sided 0.1% point of the standard normal: the
	// Mann–Kendall statistic must be this far above 0.
	trendZ = 3.09
	// trendGrowth is how many times the first window's median latency the
	// last window's must reach.
	trendGrowth = 3
)

// Overloaded reports whether the latency of requests grows without bound
// over a run, the mark of an open-loop load above what the server
// sustains: its queue, and with it TTFT counted from the intended send
// time, grows with every request. recs are the records finished so far,
// in any order; warmup records and records never sent are left out.
//
// The measured records are ordered by intended send time and cut into 10
// windows of equal count (at least 20 requests each, or the test says no);
// each window's median TTFT+lag is its level, a request without a first
// token counting as slower than any other. The run is overloaded when the
// levels rise monotonically in the sense of the Mann–Kendall trend test at
// the 0.1% level,
//
//	S = Σ_{i<j} sign(mⱼ − mᵢ),  Var S = w(w−1)(2w+5)/18,  Z = (S − 1)/√Var S > 3.09
//
// for w = 10 windows (S ≥ 36 of a possible 45), and the last window's
// level is at least 3 times the first's: a trend that is both
// significant and large. Requests still in flight are missing from the
// latest windows, which lowers their levels, so the test errs towards
// saying no. why explains a yes.
func Overloaded(recs []trace.Record) (yes bool, why string) {
	var o []sample
	for i := range recs {
		if x, ok := sampleOf(&recs[i]); ok {
			o = append(o, x)
		}
	}
	return overloaded(o)
}

// sample is what the trend test needs of a record: its intended send
// offset and its TTFT+lag in µs (+Inf without a first token).
type sample struct{ at, lat float64 }

// sampleOf returns r's sample, or false for a warmup, dropped or faulted
// record.
func sampleOf(r *trace.Record) (sample, bool) {
	if !metrics.Sent.Has(r) {
		return sample{}, false
	}
	lat := math.Inf(1)
	if r.TTFTUS > 0 {
		lat = float64(metrics.FromIntended(r, r.TTFTUS))
	}
	return sample{float64(r.IntendedUS), lat}, true
}

// overloaded is Overloaded on samples, which it reorders.
func overloaded(o []sample) (bool, string) {
	if len(o) < trendWindows*trendMinPer {
		return false, ""
	}
	slices.SortFunc(o, func(a, b sample) int { return cmpFloat(a.at, b.at) })
	levels := make([]float64, trendWindows)
	per := len(o) / trendWindows
	buf := make([]float64, 0, per+trendWindows)
	for w := range levels {
		lo, hi := w*per, (w+1)*per
		if w == trendWindows-1 {
			hi = len(o)
		}
		buf = buf[:0]
		for _, x := range o[lo:hi] {
			buf = append(buf, x.lat)
		}
		levels[w] = median(buf)
	}
	z := mannKendallZ(levels)
	first, last := levels[0], levels[len(levels)-1]
	if z <= trendZ || !(last >= trendGrowth*first) {
		return false, ""
	}
	return true, fmt.Sprintf("TTFT grew without bound: median %s in the first tenth of the requests, %s in the last (Mann–Kendall Z = %.1f)",
		msText(first), msText(last), z)
}

// mannKendallZ is the continuity-corrected Mann–Kendall statistic of v
// for an increasing trend, ties scoring 0 and ignored in the variance.
func mannKendallZ(v []float64) float64 {
	var s float64
	for i := range v {
		for j := i + 1; j < len(v); j++ {
			switch {
			case v[j] > v[i]:
				s++
			case v[j] < v[i]:
				s--
			}
		}
	}
	w := float64(len(v))
	return (s - 1) / math.Sqrt(w*(w-1)*(2*w+5)/18)
}

// median returns the median of v, reordering v.
func median(v []float64) float64 {
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	a, b := v[n/2-1], v[n/2]
	if math.IsInf(b, 1) {
		return b
	}
	return (a + b) / 2
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// msText renders µs as milliseconds, or "no first token" for +Inf.
func msText(us float64) string {
	if math.IsInf(us, 1) {
		return "no first token"
	}
	return fmt.Sprintf("%.0f ms", us/1000)
}

// Watch applies Overloaded to the records of a running point as they
// finish and calls stop once it says yes, so an over-saturated point ends
// early instead of queueing for the rest of its schedule. It is safe for
// concurrent use.
type Watch struct {
	stop  func()
	every int

	mu   sync.Mutex
	seen []sample
	next int
	why  string
}

// NewWatch returns a Watch that calls stop when the records it sees are
// overloaded, testing after every `every` records (0: 100).
func NewWatch(stop func(), every int) *Watch {
	if every <= 0 {
		every = 100
	}
	return &Watch{stop: stop, every: every, next: every}
}

// Write records r; it implements driver.Sink's method so a sink can pass
// its records on. It never fails.
func (w *Watch) Write(r *trace.Record) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	x, ok := sampleOf(r)
	if !ok || w.why != "" {
		return nil
	}
	w.seen = append(w.seen, x)
	if len(w.seen) < w.next {
		return nil
	}
	w.next += w.every
	if yes, why := overloaded(slices.Clone(w.seen)); yes {
		w.why = why
		w.stop()
	}
	return nil
}

// Stopped returns why the watch stopped the run, or "".
func (w *Watch) Stopped() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.why
}
