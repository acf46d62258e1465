package trace

import (
	"iter"
	"math/bits"
	"slices"
)

// MaxITLGaps is how many inter-token gaps a record keeps one by one in
// ITLUS: every gap of any request up to 16,385 token events, which holds
// nearly every real completion. The gaps after them are counted in
// ITLTail, so a record stays small whatever a server streams (one that
// sends a million tiny events made records of 10 MB each).
const MaxITLGaps = 16384

// tailBits is the precision of ITLTail's gaps: the significant bits kept.
const tailBits = 10

// GapTail is the inter-token gaps of a request after its first
// MaxITLGaps: how many there were, their exact sum, and how many had each
// value once rounded to 10 significant bits (exact below 1,024 µs,
// within 0.1% above; at most about 15,000 distinct values up to a day).
// Percentiles over them are within 0.1% of the exact ones; counts, sums
// and means are exact.
type GapTail struct {
	N     int64 `json:"n"`      // gaps
	SumUS int64 `json:"sum_us"` // their exact sum, µs
	// Gaps are [gap µs, count] pairs, ascending by gap, with no count 0.
	Gaps [][2]int64 `json:"gaps"`
}

// RoundGap is the value GapTail counts the gap us as: us itself below
// 1,024 µs (and for any negative gap), else us rounded to the nearest
// multiple of a power of two that leaves 10 significant bits.
func RoundGap(us int64) int64 {
	if us < 1<<tailBits {
		return us
	}
	shift := bits.Len64(uint64(us)) - tailBits
	return (us + 1<<(shift-1)) >> shift << shift
}

// Add counts the gap us.
func (t *GapTail) Add(us int64) { t.AddN(us, 1) }

// AddN counts n gaps of us each (n > 0).
func (t *GapTail) AddN(us, n int64) {
	t.N += n
	t.SumUS += us * n
	v := RoundGap(us)
	i, found := slices.BinarySearchFunc(t.Gaps, v, func(e [2]int64, v int64) int {
		switch {
		case e[0] < v:
			return -1
		case e[0] > v:
			return 1
		}
		return 0
	})
	if found {
		t.Gaps[i][1] += n
		return
	}
	t.Gaps = slices.Insert(t.Gaps, i, [2]int64{v, n})
}

// AddGap appends the next inter-token gap of r, us µs: to ITLUS while it
// holds fewer than MaxITLGaps, else to ITLTail.
func (r *Record) AddGap(us int64) {
	if len(r.ITLUS) < MaxITLGaps {
		r.ITLUS = append(r.ITLUS, us)
		return
	}
	if r.ITLTail == nil {
		r.ITLTail = &GapTail{}
	}
	r.ITLTail.Add(us)
}

// Gaps is how many inter-token gaps r has: len(ITLUS) plus ITLTail's.
func (r *Record) Gaps() int64 {
	n := r.listed()
	if r.ITLTail != nil {
		n += r.ITLTail.N
	}
	return n
}

// GapSumUS is the exact sum of r's inter-token gaps, µs.
func (r *Record) GapSumUS() int64 {
	var sum int64
	for g := range r.GapValues() {
		sum += g
	}
	if r.ITLTail != nil {
		sum += r.ITLTail.SumUS
	}
	return sum
}

// GapCounts yields r's inter-token gaps as (gap µs, count): each gap of
// ITLUS once, in order, then ITLTail's values in ascending order.
func (r *Record) GapCounts() iter.Seq2[int64, int64] {
	return func(yield func(int64, int64) bool) {
		for g := range r.GapValues() {
			if !yield(g, 1) {
				return
			}
		}
		if r.ITLTail == nil {
			return
		}
		for _, e := range r.ITLTail.Gaps {
			if !yield(e[0], e[1]) {
				return
			}
		}
	}
}

// CompactITL moves the gaps of ITLUS past the first MaxITLGaps into
// ITLTail, so a record written before the tail existed (every gap in
// ITLUS) costs no more than a new one once read.
func (r *Record) CompactITL() {
	if len(r.ITLUS) <= MaxITLGaps {
		return
	}
	rest := r.ITLUS[MaxITLGaps:]
	r.ITLUS = slices.Clone(r.ITLUS[:MaxITLGaps])
	if r.ITLTail == nil {
		r.ITLTail = &GapTail{}
	}
	// The gaps the record had in its tail follow those of ITLUS; order
	// within the tail is not kept, so merging them is exact.
	for _, g := range rest {
		r.ITLTail.Add(g)
	}
}
