package metrics

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

func TestRadixSortMatchesSlicesSort(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	tests := []struct {
		name   string
		n      int
		gen    func() float64
		reason string
	}{
		{"integer µs", 5000, func() float64 { return float64(rng.Int64N(1e7)) }, "low mantissa bytes are all zero, and skipped"},
		{"fractions", 5000, func() float64 { return rng.ExpFloat64() * 1e4 }, "every byte varies"},
		{"signed", 5000, func() float64 { return rng.NormFloat64() * 1e3 }, "negative lags sort below positive ones"},
		{"few distinct", 3000, func() float64 { return float64(rng.IntN(3)) - 1 }, "many ties, zero included"},
		{"extremes", 2000, func() float64 {
			return []float64{math.Inf(-1), -math.MaxFloat64, -1e-300, 0, 1e-300, math.MaxFloat64, math.Inf(1)}[rng.IntN(7)]
		}, "infinities and denormal-adjacent values"},
		{"small", 10, func() float64 { return rng.Float64() }, "below the radix threshold"},
	}
	var s sorter
	for _, tt := range tests {
		v := make([]float64, tt.n)
		for i := range v {
			v[i] = tt.gen()
		}
		want := slices.Clone(v)
		slices.Sort(want)
		s.sort(v)
		if !reflect.DeepEqual(v, want) {
			t.Errorf("%s: radix order differs from slices.Sort (%s)", tt.name, tt.reason)
		}
	}
}

func TestCountsMatchesSortedList(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 10))
	var c counts
	c.reset()
	var list []float64
	for range 20_000 {
		var v int64
		switch rng.IntN(10) {
		case 0:
			v = denseLimit + rng.Int64N(1e8) // a stall beyond the dense range
		case 1:
			v = -rng.Int64N(100) // clock oddity: still counted, in order
		default:
			v = rng.Int64N(60_000)
		}
		c.add(v)
		list = append(list, float64(v))
	}
	slices.Sort(list)
	ps := []float64{0.1, 5, 10, 50, 90, 99, 99.9, 100}
	want := describe("itl", UnitUS, list, ps, 0.95, false)
	got := c.describe("itl", UnitUS, ps)
	if got.N != want.N || got.Min != want.Min || got.Max != want.Max || math.Abs(got.Mean-want.Mean) > 1e-9*math.Abs(want.Mean) {
		t.Errorf("n, min, max, mean = %d %v %v %v; want %d %v %v %v", got.N, got.Min, got.Max, got.Mean, want.N, want.Min, want.Max, want.Mean)
	}
	if !reflect.DeepEqual(got.Percentiles, want.Percentiles) {
		t.Errorf("percentiles\n%+v\nwant\n%+v", got.Percentiles, want.Percentiles)
	}
	c.reset()
	if c.n != 0 || c.describe("itl", UnitUS, ps).N != 0 {
		t.Error("reset kept values")
	}
}
