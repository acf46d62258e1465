package metrics

import "slices"

// denseLimit bounds the values counts keeps one counter each for: every
// whole microsecond below 2²⁰ µs (1.05 s), which holds nearly all
// inter-token gaps.
const denseLimit = 1 << 20

// counts holds a multiset of integers exactly in memory independent of
// its size: a counter per value in [0, denseLimit), and the few other
// values in a list. Pooled ITL has hundreds of gaps per request, too
// many to keep as a list.
type counts struct {
	dense []int64 // dense[v] counts value v
	other []float64
	n     int
	sum   float64
}

// reset empties c for reuse.
func (c *counts) reset() {
	if c.dense == nil {
		c.dense = make([]int64, denseLimit)
	} else {
		clear(c.dense)
	}
	c.other, c.n, c.sum = c.other[:0], 0, 0
}

// add counts v.
func (c *counts) add(v int64) { c.addN(v, 1) }

// addN counts n values v (n > 0). A value outside the dense range is
// listed n times: such gaps (a second or more each) are few.
func (c *counts) addN(v, n int64) {
	c.n += int(n)
	c.sum += float64(v) * float64(n)
	if v >= 0 && v < denseLimit {
		c.dense[v] += n
		return
	}
	for range n {
		c.other = append(c.other, float64(v))
	}
}

// describe summarises the values of c like describe does a sorted list,
// without confidence intervals.
func (c *counts) describe(name, unit string, ps []float64) Metric {
	m := Metric{Name: name, Unit: unit, N: c.n, Percentiles: make([]Percentile, 0, len(ps))}
	if c.n == 0 {
		return m
	}
	slices.Sort(c.other)
	m.Mean, m.Min, m.Max = c.sum/float64(c.n), c.at(1), c.at(c.n)
	for _, p := range ps {
		k := Rank(p, c.n)
		m.Percentiles = append(m.Percentiles, Percentile{P: p, Rank: k, Value: c.at(k)})
	}
	return m
}

// at is the k-th smallest value (1-based); c.other must be sorted. The
// order is: negative values of other, the dense counters, the rest of
// other.
func (c *counts) at(k int) float64 {
	neg, _ := slices.BinarySearch(c.other, 0)
	if k <= neg {
		return c.other[k-1]
	}
	k -= neg
	for v, n := range c.dense {
		if k <= int(n) {
			return float64(v)
		}
		k -= int(n)
	}
	if k <= len(c.other)-neg {
		return c.other[neg+k-1]
	}
	panic("metrics: rank beyond the count")
}
