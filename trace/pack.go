package trace

import (
	"encoding/binary"
	"iter"
)

// Pack keeps r's ITLUS in a compact form, each gap the zigzag varint of
// its difference from the gap before: about 2 bytes a gap rather than 8,
// for a reader holding many records (a report of millions). ITLUS is nil
// after it; Gaps, GapSumUS, GapCounts and GapValues read the packed gaps
// as they read ITLUS, a RecordWriter writes them, and Unpack restores
// ITLUS. Packing a packed record does nothing.
func (r *Record) Pack() {
	if len(r.ITLUS) == 0 || r.packed != nil {
		return
	}
	b := make([]byte, 0, 2*len(r.ITLUS))
	prev := int64(0)
	for _, g := range r.ITLUS {
		b = binary.AppendVarint(b, g-prev)
		prev = g
	}
	r.packed, r.npacked, r.ITLUS = b[:len(b):len(b)], int32(len(r.ITLUS)), nil
}

// Unpack restores the ITLUS of a packed record; it does nothing to
// another.
func (r *Record) Unpack() {
	if r.packed == nil {
		return
	}
	gaps := make(Gaps, 0, r.npacked)
	for g := range r.GapValues() {
		gaps = append(gaps, g)
	}
	r.ITLUS, r.packed, r.npacked = gaps, nil, 0
}

// GapValues yields the gaps of ITLUS in order, packed or not (ITLTail's
// are counted, not listed: see GapCounts).
func (r *Record) GapValues() iter.Seq[int64] {
	return func(yield func(int64) bool) {
		if r.packed == nil {
			for _, g := range r.ITLUS {
				if !yield(g) {
					return
				}
			}
			return
		}
		b, g := r.packed, int64(0)
		for len(b) > 0 {
			d, n := binary.Varint(b)
			if n <= 0 {
				return // Pack wrote it: it cannot be malformed
			}
			b, g = b[n:], g+d
			if !yield(g) {
				return
			}
		}
	}
}

// listed is the number of gaps in ITLUS, packed or not.
func (r *Record) listed() int64 { return int64(len(r.ITLUS)) + int64(r.npacked) }
