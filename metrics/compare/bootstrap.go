package compare

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"surge/metrics"
)

// stat is a statistic of a sample: the nearest-rank percentile p, or the
// mean when p is 0.
type stat struct {
	name string
	p    float64
}

// latencyStats are the rows of every latency metric, percentiles in
// increasing order (statistics relies on it), then the mean.
var latencyStats = []stat{{"p50", 50}, {"p90", 90}, {"p99", 99}, {"mean", 0}}

// meanStat is the one statistic of throughput and error rows.
var meanStat = []stat{{"mean", 0}}

// statistics fills out[i] with stats[i] of sorted v, which must not be
// empty.
func statistics(v []float64, stats []stat, out []float64) {
	sum := 0.0
	for _, x := range v {
		sum += x
	}
	for i, s := range stats {
		if s.p == 0 {
			out[i] = sum / float64(len(v))
		} else {
			out[i] = v[metrics.Rank(s.p, len(v))-1]
		}
	}
}

// resampler draws bootstrap resamples. A resample of a sorted sample v is
// held as counts: counts[i] is how many times v[i] was drawn, so its
// statistics come from one pass over v in order, O(n) instead of sorting
// the resample.
type resampler struct {
	rng    *rand.Rand
	counts []int32
}

// newResampler seeds a resampler with (seed, FNV-1a of name): each
// metric draws its own reproducible stream, whatever other rows exist.
func newResampler(seed uint64, name string) *resampler {
	h := fnv.New64a()
	h.Write([]byte(name))
	return &resampler{rng: rand.New(rand.NewPCG(seed, h.Sum64()))}
}

// draw fills out with stats of one resample of sorted v: len(v) values
// drawn uniformly with replacement. Percentiles are nearest-rank on the
// resample: the value where the running count first reaches ⌈p/100·n⌉.
func (r *resampler) draw(v []float64, stats []stat, out []float64) {
	n := len(v)
	if cap(r.counts) < n {
		r.counts = make([]int32, n)
	}
	counts := r.counts[:n]
	clear(counts)
	for range n {
		counts[r.rng.IntN(n)]++
	}
	next, cum, sum := 0, 0, 0.0
	for next < len(stats) && stats[next].p == 0 {
		next++
	}
	for i, c := range counts {
		if c == 0 {
			continue
		}
		cum += int(c)
		sum += float64(c) * v[i]
		for next < len(stats) && stats[next].p > 0 && metrics.Rank(stats[next].p, n) <= cum {
			out[next] = v[i]
			next++
		}
	}
	for i, s := range stats {
		if s.p == 0 {
			out[i] = sum / float64(n)
		}
	}
}

// deltaFunc is the change from a base value b to a candidate value c.
type deltaFunc func(b, c float64) float64

// relative is (c − b)/b; ±Inf or NaN when b is 0.
func relative(b, c float64) float64 { return (c - b) / b }

// absolute is c − b.
func absolute(b, c float64) float64 { return c - b }

// bootstrap returns, for each stat, the sorted deltas of resamples
// resamples of the sorted samples base and cand, each resampled
// independently.
func (r *resampler) bootstrap(base, cand []float64, stats []stat, resamples int, delta deltaFunc) [][]float64 {
	out := make([][]float64, len(stats))
	for i := range out {
		out[i] = make([]float64, resamples)
	}
	bs, cs := make([]float64, len(stats)), make([]float64, len(stats))
	for k := range resamples {
		r.draw(base, stats, bs)
		r.draw(cand, stats, cs)
		for i := range stats {
			out[i][k] = delta(bs[i], cs[i])
		}
	}
	for _, d := range out {
		slices.Sort(d)
	}
	return out
}

// Interval is a confidence interval of a delta.
type Interval struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// Excludes0 reports whether the interval lies wholly above or below 0.
func (iv Interval) Excludes0() bool { return iv.Lo > 0 || iv.Hi < 0 }

// percentileInterval is the bootstrap percentile interval at level 1 − α
// of sorted deltas d of B resamples: [d_(l), d_(u)] with the nearest
// ranks l = ⌈B·α/2⌉ and u = ⌈B·(1 − α/2)⌉. ok is false when some delta
// is not finite (a resample of a base of 0).
func percentileInterval(d []float64, alpha float64) (Interval, bool) {
	// slices.Sort puts NaNs first, so the two ends show every bad delta.
	if len(d) == 0 || math.IsNaN(d[0]) || math.IsInf(d[0], 0) || math.IsInf(d[len(d)-1], 0) {
		return Interval{}, false
	}
	lo := metrics.Rank(100*alpha/2, len(d))
	hi := metrics.Rank(100*(1-alpha/2), len(d))
	return Interval{Lo: d[lo-1], Hi: d[hi-1]}, true
}
