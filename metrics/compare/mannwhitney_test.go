package compare

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMannWhitneyKnownValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		x, y   []float64
		u, p   float64
	}{
		{"scipy.stats.mannwhitneyu docs (Conover): males against females, asymptotic",
			[]float64{19, 22, 16, 29, 24}, []float64{20, 11, 17, 12}, 17, 0.11134688653314041},
		{"no overlap, 3 against 3: z = (4.5 − ½)/√5.25 (scipy asymptotic 0.0808556)",
			[]float64{1, 2, 3}, []float64{4, 5, 6}, 0, 0.0808555983700523},
		{"every value tied: no evidence at all",
			[]float64{7, 7, 7}, []float64{7, 7}, 3, 1},
		{"identical samples: U = μ, p = 1",
			[]float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, 8, 1},
		// 1,2,2,3 | 2,3,3,4 ranked together: 1 → 1; the three 2s share
		// ranks 2–4, mean 3; the three 3s ranks 5–7, mean 6; 4 → 8. R₁ =
		// 1+3+3+6 = 13, U = 13 − 10 = 3; Σ(t³−t) = 24 + 24 = 48;
		// σ² = 16/12·(9 − 48/56) = 10.857; z = (|3 − 8| − ½)/3.2950 = 1.3657.
		{"ties get mean ranks and shrink σ",
			[]float64{1, 2, 2, 3}, []float64{2, 3, 3, 4}, 3, math.Erfc(4.5 / math.Sqrt(16.0/12*(9-48.0/56)) / math.Sqrt2)},
	}
	for _, tt := range tests {
		u, p, ok := MannWhitney(tt.x, tt.y)
		if !ok || u != tt.u || math.Abs(p-tt.p) > 1e-12 {
			t.Errorf("%s: U %g, p %.15g, ok %v; want U %g, p %.15g", tt.reason, u, p, ok, tt.u, tt.p)
		}
	}
}

func TestMannWhitneyEmptyAndSymmetric(t *testing.T) {
	t.Parallel()
	if _, _, ok := MannWhitney(nil, []float64{1}); ok {
		t.Error("an empty sample was tested")
	}
	x, y := []float64{3, 1, 4, 1, 5, 9, 2, 6}, []float64{5, 3, 5, 8, 9, 7, 9, 3, 2}
	u1, p1, _ := MannWhitney(x, y)
	u2, p2, _ := MannWhitney(y, x)
	if u1+u2 != float64(len(x)*len(y)) || p1 != p2 {
		t.Errorf("swapping the samples: U %g + %g, want %d; p %g and %g, want equal", u1, u2, len(x)*len(y), p1, p2)
	}
	if x[0] != 3 {
		t.Error("MannWhitney sorted its input in place")
	}
}

// TestMannWhitneyMatchesExactDistribution enumerates every split of the
// ranks 1…16 into two groups of 8 (C(16, 8) = 12,870) for the exact null
// distribution of U, and checks the approximation's two-sided p against
// the exact P(|U − μ| ≥ |u − μ|) for every u. The approximation is
// within 0.011 of it everywhere; without the continuity correction it
// would be 0.027 off at U = 20.
func TestMannWhitneyMatchesExactDistribution(t *testing.T) {
	t.Parallel()
	const n1, n = 8, 16
	freq := map[int]int{} // U → number of splits
	total := 0
	for mask := 0; mask < 1<<n; mask++ {
		if popcount(mask) != n1 {
			continue
		}
		r1 := 0
		for i := range n {
			if mask&(1<<i) != 0 {
				r1 += i + 1
			}
		}
		freq[r1-n1*(n1+1)/2]++
		total++
	}
	mu := n1 * (n - n1) / 2
	for u := 0; u <= n1*(n-n1); u++ {
		exact := 0
		for v, f := range freq {
			if abs(v-mu) >= abs(u-mu) {
				exact += f
			}
		}
		x, y := splitWithU(u, n1, n)
		gotU, p, _ := MannWhitney(x, y)
		pe := float64(exact) / float64(total)
		if gotU != float64(u) || math.Abs(p-pe) > 0.015 {
			t.Errorf("U %d: got U %g, approximate p %.4f, exact %.4f", u, gotU, p, pe)
		}
	}
}

// splitWithU builds samples of n1 and n − n1 distinct values whose U is u:
// x holds the top n1 ranks, then moves down one rank at a time.
func splitWithU(u, n1, n int) (x, y []float64) {
	in := make([]bool, n)
	for i := n - n1; i < n; i++ {
		in[i] = true
	}
	// U counts pairs (x > y); lowering an x value past a y value removes one.
	for excess := n1*(n-n1) - u; excess > 0; {
		for i := 1; i < n && excess > 0; i++ {
			if in[i] && !in[i-1] {
				in[i], in[i-1] = false, true
				excess--
			}
		}
	}
	for i := range n {
		if in[i] {
			x = append(x, float64(i))
		} else {
			y = append(y, float64(i))
		}
	}
	return x, y
}

func popcount(m int) int {
	c := 0
	for ; m != 0; m &= m - 1 {
		c++
	}
	return c
}

func abs(v int) int { return max(v, -v) }

// TestRankSumOfBinaryIsTwoProportionZ checks the tie correction: on 0/1
// values the rank test without continuity correction is the pooled
// two-proportion z-test, z = (p̂₁ − p̂₂)/√(p̄(1 − p̄)(1/n₁ + 1/n₂)), with
// the permutation variance's N − 1 for N: z_U = z·√((N − 1)/N).
func TestRankSumOfBinaryIsTwoProportionZ(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason         string
		n1, k1, n2, k2 int // k failures of n
	}{
		{"equal sizes", 100, 10, 100, 20},
		{"unequal sizes, rare failures", 500, 3, 80, 4},
		{"one side without failures", 50, 0, 60, 6},
	}
	for _, tt := range tests {
		x, y := binary(tt.n1, tt.k1), binary(tt.n2, tt.k2)
		u, sigma := rankSum(x, y)
		z := (u - float64(tt.n1*tt.n2)/2) / sigma
		p1, p2 := float64(tt.k1)/float64(tt.n1), float64(tt.k2)/float64(tt.n2)
		pbar := float64(tt.k1+tt.k2) / float64(tt.n1+tt.n2)
		n := float64(tt.n1 + tt.n2)
		want := (p1 - p2) / math.Sqrt(pbar*(1-pbar)*(1/float64(tt.n1)+1/float64(tt.n2))) * math.Sqrt((n-1)/n)
		if math.Abs(z-want) > 1e-9 {
			t.Errorf("%s: z %g, want %g", tt.reason, z, want)
		}
	}
}

// binary is n sorted values, k of them 1.
func binary(n, k int) []float64 {
	v := make([]float64, n)
	for i := n - k; i < n; i++ {
		v[i] = 1
	}
	return v
}

// TestMannWhitneyFalsePositiveRate: over 2,000 pairs of samples of one
// distribution, p < 0.05 about 5% of the time (binomial sd 0.5%).
func TestMannWhitneyFalsePositiveRate(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	const trials = 2000
	hits := 0
	for range trials {
		x, y := make([]float64, 40), make([]float64, 50)
		for i := range x {
			x[i] = rng.ExpFloat64()
		}
		for i := range y {
			y[i] = rng.ExpFloat64()
		}
		if _, p, _ := MannWhitney(x, y); p < 0.05 {
			hits++
		}
	}
	if rate := float64(hits) / trials; rate < 0.035 || rate > 0.065 {
		t.Errorf("false-positive rate %.3f at α = 0.05", rate)
	}
}
