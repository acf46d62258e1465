package trace

import (
	"bytes"
	"math"
	"slices"
	"testing"
)

// TestPack: a packed record reads its gaps back in order, counts and sums
// them as before, writes the same line, and unpacks to what it was, for
// gaps of any size and sign, with or without a tail.
func TestPack(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		gaps Gaps
		tail *GapTail
	}{
		{"none", nil, nil},
		{"one", Gaps{7}, nil},
		{"steady", Gaps{8000, 8012, 7990, 8000, 31000, 8001}, nil},
		{"extremes", Gaps{0, -5, math.MaxInt64, math.MinInt64, 1, -1}, nil},
		{"with a tail", Gaps{3, 4}, &GapTail{N: 2, SumUS: 10, Gaps: [][2]int64{{5, 2}}}},
	} {
		r := Record{Client: "c", E2EUS: 99, ITLUS: slices.Clone(tt.gaps), ITLTail: tt.tail}
		want := r
		r.Pack()
		if len(tt.gaps) > 0 && r.ITLUS != nil {
			t.Errorf("%s: ITLUS kept after Pack", tt.name)
		}
		if got := slices.Collect(r.GapValues()); !slices.Equal(got, tt.gaps) {
			t.Errorf("%s: GapValues %v, want %v", tt.name, got, tt.gaps)
		}
		if r.Gaps() != want.Gaps() || r.GapSumUS() != want.GapSumUS() {
			t.Errorf("%s: %d gaps summing to %d, want %d and %d", tt.name, r.Gaps(), r.GapSumUS(), want.Gaps(), want.GapSumUS())
		}
		var gotCounts, wantCounts [][2]int64
		for g, n := range r.GapCounts() {
			gotCounts = append(gotCounts, [2]int64{g, n})
		}
		for g, n := range want.GapCounts() {
			wantCounts = append(wantCounts, [2]int64{g, n})
		}
		if !slices.Equal(gotCounts, wantCounts) {
			t.Errorf("%s: GapCounts %v, want %v", tt.name, gotCounts, wantCounts)
		}
		if a, b := recordLine(t, &r), recordLine(t, &want); !bytes.Equal(a, b) {
			t.Errorf("%s: packed record writes\n%s\nunpacked\n%s", tt.name, a, b)
		}
		r.Pack() // again: nothing
		r.Unpack()
		if !slices.Equal(r.ITLUS, want.ITLUS) || r.packed != nil {
			t.Errorf("%s: unpacked to %v (packed %v), want %v", tt.name, r.ITLUS, r.packed, want.ITLUS)
		}
	}
}

// recordLine is r as a RecordWriter writes it.
func recordLine(t *testing.T, r *Record) []byte {
	t.Helper()
	var b bytes.Buffer
	rw, err := NewRecordWriter(&b, RunHeader{})
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := rw.Write(r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// BenchmarkPack measures packing and reading back 250 gaps of a
// simulated stream, and reports the bytes a gap takes packed.
func BenchmarkPack(b *testing.B) {
	gaps := make(Gaps, 250)
	for i := range gaps {
		gaps[i] = 8000 + int64(i%7)*13
		if i%9 == 0 {
			gaps[i] = 31000 + int64(i)
		}
	}
	var size int
	for b.Loop() {
		r := Record{ITLUS: slices.Clone(gaps)}
		r.Pack()
		size = len(r.packed)
		var sum int64
		for g := range r.GapValues() {
			sum += g
		}
		_ = sum
	}
	b.ReportMetric(float64(size)/float64(len(gaps)), "B/gap")
}
