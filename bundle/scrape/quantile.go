package scrape

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Quantiles is an engine-side latency distribution over a window.
type Quantiles struct {
	Family string
	// FromUS and ToUS are the two scrapes whose histograms were
	// differenced: the window actually measured.
	FromUS, ToUS int64
	Count, Sum   float64   // observations in the window and their total
	Values       []float64 // one per asked quantile; NaN when Count is 0
	// Buckets holds, one per asked quantile, the bucket its rank fell
	// in: all the histogram knows of the quantile is that it lies there.
	// Zero when its value is NaN.
	Buckets []Bucket
}

// Mean is Sum/Count: the window's exact mean, which needs no
// interpolation; NaN when the window has no observations.
func (q Quantiles) Mean() float64 {
	if !(q.Count > 0) {
		return math.NaN()
	}
	return q.Sum / q.Count
}

// Bucket is the histogram bucket (Lo, Hi] holding a quantile's rank.
type Bucket struct {
	Lo, Hi float64 // Hi is +Inf for the overflow bucket
	// Top is set when no bucket above this one has observations: an
	// estimate in it interpolates toward a bound that no observation
	// need have come near.
	Top bool
}

// Width is Hi − Lo: the finest difference the histogram can tell for a
// quantile in the bucket; +Inf for the overflow bucket.
func (b Bucket) Width() float64 { return b.Hi - b.Lo }

// HistogramQuantiles estimates quantiles qs (each in 0..1) of the
// histogram family over a window of the run, as Prometheus'
// histogram_quantile(q, sum by (le) (increase(family_bucket[w]))) does.
//
// The window's histogram is the difference of the cumulative bucket
// counts at two successful scrapes: the last at or before fromUS (the
// first scrape if none is) and the first at or after toUS (the last
// scrape if none is), so it covers [fromUS, toUS] when scrapes bracket
// it. Label sets are summed bucket by bucket (by le). A series whose count
// went down between the two scrapes was reset and contributes its later
// counts whole; one absent at the first scrape contributes whole too.
//
// A quantile q is then found as Prometheus does: with N the count of the
// +Inf bucket and C(le) the cumulative counts, the rank r = q·N falls in
// the first bucket (lo, hi] with C(hi) ≥ r, and the estimate assumes the
// observations spread uniformly within it:
//
//	v = lo + (hi − lo) · (r − C(lo)) / (C(hi) − C(lo))
//
// where lo = 0 for the first bucket (unless its bound is ≤ 0, which is
// then the answer). A rank in the +Inf bucket gives the largest finite
// bound. So an estimate is only as fine as the engine's buckets: vLLM's
// TTFT buckets are 20 ms wide around 50 ms and 250 ms wide around 1 s.
// Unlike Prometheus, q = 0 gives the lower bound of the first non-empty
// bucket rather than NaN when the first bucket is empty.
func (s *Series) HistogramQuantiles(family string, fromUS, toUS int64, qs ...float64) (Quantiles, error) {
	ok := s.OK()
	if len(ok) == 0 {
		return Quantiles{}, fmt.Errorf("quantiles of %s: no successful scrape", family)
	}
	if toUS < fromUS {
		return Quantiles{}, fmt.Errorf("quantiles of %s: window ends (%d µs) before it starts (%d µs)", family, toUS, fromUS)
	}
	a, b := bracket(ok, fromUS, toUS)
	hb := buckets(ok[b], family)
	if hb == nil {
		return Quantiles{}, fmt.Errorf("quantiles of %s: no such histogram at %d µs", family, ok[b].AtUS)
	}
	var ha map[string]*Histogram
	if a != b {
		ha = buckets(ok[a], family)
	}
	le, cum, sum := window(ha, hb)
	out := Quantiles{Family: family, FromUS: ok[a].AtUS, ToUS: ok[b].AtUS, Sum: sum}
	if n := len(cum); n > 0 {
		out.Count = cum[n-1]
	}
	for _, q := range qs {
		out.Values = append(out.Values, BucketQuantile(q, le, cum))
		b, _ := BucketOf(q, le, cum)
		out.Buckets = append(out.Buckets, b)
	}
	return out, nil
}

// bracket returns the indexes in ok of the scrapes differenced for the
// window [fromUS, toUS].
func bracket(ok []Scrape, fromUS, toUS int64) (a, b int) {
	b = len(ok) - 1
	for i, sc := range ok {
		if sc.AtUS <= fromUS {
			a = i
		}
	}
	for i := len(ok) - 1; i >= 0 && ok[i].AtUS >= toUS; i-- {
		b = i
	}
	return a, max(a, b)
}

// buckets returns a family's histograms in one scrape by label set, or
// nil if it has none.
func buckets(sc Scrape, family string) map[string]*Histogram {
	var out map[string]*Histogram
	for _, smp := range sc.Samples {
		if smp.Name == family && smp.Histogram != nil {
			if out == nil {
				out = map[string]*Histogram{}
			}
			out[labelKey(smp.Labels)] = smp.Histogram
		}
	}
	return out
}

// window returns the increase from a to b of the histograms summed by
// le: bounds ascending (ending +Inf), cumulative counts, and sum.
func window(a, b map[string]*Histogram) (le, cum []float64, sum float64) {
	byLE := map[float64]float64{}
	for k, hb := range b {
		ha := a[k]
		if ha != nil && float64(hb.Count) < float64(ha.Count) {
			ha = nil // reset between the scrapes
		}
		before := map[float64]float64{}
		if ha != nil {
			for i, l := range ha.LE {
				before[float64(l)] = float64(ha.Cum[i])
			}
			sum -= float64(ha.Sum)
		}
		for i, l := range hb.LE {
			byLE[float64(l)] += max(float64(hb.Cum[i])-before[float64(l)], 0)
		}
		sum += float64(hb.Sum)
	}
	for l := range byLE {
		le = append(le, l)
	}
	slices.SortFunc(le, cmp.Compare[float64])
	for _, l := range le {
		cum = append(cum, byLE[l])
	}
	return le, cum, sum
}

// BucketQuantile returns the q-quantile of a cumulative histogram with
// ascending upper bounds le (the last +Inf) and cumulative counts cum,
// interpolating linearly within the bucket holding rank q·N, as
// HistogramQuantiles describes. It returns NaN when the histogram is empty
// or has no +Inf bucket, −Inf for q < 0 and +Inf for q > 1. Counts that
// decrease (as float rounding can make them) are raised to keep cum
// monotonic, as Prometheus does.
func BucketQuantile(q float64, le, cum []float64) float64 {
	switch {
	case math.IsNaN(q):
		return math.NaN()
	case q < 0:
		return math.Inf(-1)
	case q > 1:
		return math.Inf(1)
	}
	c, b, rank, ok := locate(q, le, cum)
	n := len(le)
	switch {
	case !ok:
		return math.NaN()
	case b == n-1:
		return le[n-2]
	case b == 0 && le[0] <= 0:
		return le[0]
	}
	lo, below := 0.0, 0.0
	if b > 0 {
		lo, below = le[b-1], c[b-1]
	}
	return lo + (le[b]-lo)*(rank-below)/(c[b]-below)
}

// BucketOf returns the bucket of the histogram (le, cum), as
// BucketQuantile takes it, that holds the rank of the q-quantile; false
// when BucketQuantile would return NaN or an infinity. The first bucket's
// lower bound is 0, or its own bound when that is ≤ 0.
func BucketOf(q float64, le, cum []float64) (Bucket, bool) {
	if !(q >= 0 && q <= 1) {
		return Bucket{}, false
	}
	c, b, _, ok := locate(q, le, cum)
	if !ok {
		return Bucket{}, false
	}
	top := 0
	for i := range c {
		if i == 0 && c[0] > 0 || i > 0 && c[i] > c[i-1] {
			top = i
		}
	}
	out := Bucket{Hi: le[b], Top: b == top}
	switch {
	case b > 0:
		out.Lo = le[b-1]
	case le[0] <= 0:
		out.Lo = le[0]
	}
	return out, true
}

// locate returns the monotonic cumulative counts of (le, cum), the index
// of the bucket holding rank q·N (the first finite one whose count
// reaches it; for rank 0, the first non-empty one; else the +Inf bucket)
// and the rank; false when the histogram is empty, not finite, or has no
// +Inf bucket.
func locate(q float64, le, cum []float64) (c []float64, b int, rank float64, ok bool) {
	n := len(le)
	if n < 2 || len(cum) != n || !math.IsInf(le[n-1], 1) {
		return nil, 0, 0, false
	}
	c = slices.Clone(cum)
	for i := 1; i < n; i++ {
		c[i] = max(c[i], c[i-1])
	}
	total := c[n-1]
	if !(total > 0) || math.IsInf(total, 1) {
		return nil, 0, 0, false
	}
	rank = q * total
	for b < n-1 && (c[b] < rank || c[b] == 0) {
		b++
	}
	return c, b, rank, true
}
