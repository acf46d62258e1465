package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"surge/trace"
)

// longRec is a successful request with n gaps drawn below hi µs, kept as
// a record keeps them (the first trace.MaxITLGaps one by one, the rest
// counted), and the same gaps as a list.
func longRec(n int, hi int64, seed uint64) (trace.Record, []float64) {
	r := okRec("c", 0, 1000, 10_000_000)
	r.ITLUS = nil
	r.Chunks, r.ServerOutputTokens, r.OutputTokens = n+1, n+1, n+1
	rng := rand.New(rand.NewPCG(seed, seed))
	all := make([]float64, n)
	for i := range n {
		g := rng.Int64N(hi)
		all[i] = float64(g)
		r.AddGap(g)
	}
	slices.Sort(all)
	return r, all
}

// TestITLTail checks that ITL figures read a record's tail: pooled and
// per-request percentiles are exact for gaps below 1,024 µs, within 0.1%
// above, and counts and means are exact.
func TestITLTail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		hi     int64
		tol    float64 // relative
		reason string
	}{
		{1000, 0, "tiny events: every gap below 1,024 µs, so exact"},
		{200_000, 1.0 / 1024, "gaps up to 200 ms: within 0.1%"},
	}
	for _, tt := range tests {
		rec, all := longRec(trace.MaxITLGaps+30_000, tt.hi, uint64(tt.hi))
		short := okRec("c", 0, 1000, 10_000)
		s := Summarize(records(nil, rec, short), Options{})
		itl := s.All.Latency.ITL
		pooled := slices.Sorted(slices.Values(append(slices.Clone(all), float64(short.ITLUS[0]), float64(short.ITLUS[1]))))
		if itl.N != len(pooled) {
			t.Fatalf("%s: ITL n %d, want %d", tt.reason, itl.N, len(pooled))
		}
		var sum float64
		for _, v := range pooled {
			sum += v
		}
		if math.Abs(itl.Mean-sum/float64(len(pooled))) > 1e-6 {
			t.Errorf("%s: mean %v, want exactly %v", tt.reason, itl.Mean, sum/float64(len(pooled)))
		}
		for _, p := range itl.Percentiles {
			want := pooled[Rank(p.P, len(pooled))-1]
			if math.Abs(p.Value-want) > tt.tol*want {
				t.Errorf("%s: p%v %v, want %v", tt.reason, p.P, p.Value, want)
			}
		}
		for _, p := range []float64{0, 50, 99, 99.9, 100} {
			gaps := make([]float64, 0, len(rec.ITLUS))
			for _, g := range rec.ITLUS {
				gaps = append(gaps, float64(g))
			}
			got := ownITL(&rec, gaps, p)
			var want float64
			if p == 0 {
				want = float64(rec.GapSumUS()) / float64(len(all))
			} else {
				want = all[Rank(p, len(all))-1]
			}
			if math.Abs(got-want) > tt.tol*want {
				t.Errorf("%s: the request's own p%v %v, want %v", tt.reason, p, got, want)
			}
		}
	}
}
