package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestRank(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p      float64
		n      int
		want   int
		reason string
	}{
		{50, 1000, 500, "⌈0.5·1000⌉"},
		{99, 1000, 990, "⌈0.99·1000⌉"},
		{99.9, 1000, 999, "99.9·1000/100 is 999.0000000000001 in floating point; integer arithmetic keeps 999"},
		{99.9, 999, 999, "⌈998.001⌉"},
		{50, 1, 1, "a single value is every percentile"},
		{1, 10, 1, "⌈0.1⌉ = 1: never rank 0"},
		{100, 10, 10, "p100 is the max"},
		{50, 0, 0, "no values, no rank"},
		{50, 3, 2, "⌈1.5⌉"},
		{90, 7, 7, "⌈6.3⌉"},
	}
	for _, tt := range tests {
		if got := Rank(tt.p, tt.n); got != tt.want {
			t.Errorf("Rank(%v, %d) = %d, want %d (%s)", tt.p, tt.n, got, tt.want, tt.reason)
		}
	}
}

func TestDescribeOneToThousand(t *testing.T) {
	t.Parallel()
	v := make([]float64, 1000)
	for i := range v {
		v[i] = float64(1000 - i)
	}
	slices.Sort(v)
	m := describe("x", UnitUS, v, standardPercentiles[:], 0.95, true)
	if m.N != 1000 || m.Mean != 500.5 || m.Min != 1 || m.Max != 1000 {
		t.Fatalf("n, mean, min, max = %d, %v, %v, %v; want 1000, 500.5, 1, 1000", m.N, m.Mean, m.Min, m.Max)
	}
	tests := []struct {
		p      float64
		value  float64
		lo, hi float64 // 0, 0: no interval
		reason string
	}{
		{50, 500, 469, 532, "the textbook ranks ⌊n/2 − 0.98√n⌋ and ⌈1 + n/2 + 0.98√n⌉"},
		{90, 900, 881, 919, "Binomial(1000, 0.9) quantiles, checked by exact summation"},
		{95, 950, 936, 964, "Binomial(1000, 0.95) quantiles, checked by exact summation"},
		{99, 990, 983, 997, "skewed: the upper side is short since only 10 values lie above"},
		{99.9, 999, 0, 0, "needs n ≥ 3688: 0.999^1000 = 0.37 > 0.025, so no upper rank exists"},
	}
	for i, tt := range tests {
		q := m.Percentiles[i]
		if q.P != tt.p || q.Value != tt.value {
			t.Errorf("p%v = %v, want %v", q.P, q.Value, tt.value)
		}
		switch {
		case tt.lo == 0 && q.CI != nil:
			t.Errorf("p%v: interval %+v, want none (%s)", tt.p, *q.CI, tt.reason)
		case tt.lo == 0 && q.MinN != 3688:
			t.Errorf("p%v: MinN %d, want 3688", tt.p, q.MinN)
		case tt.lo != 0 && (q.CI == nil || q.CI.Lo != tt.lo || q.CI.Hi != tt.hi):
			t.Errorf("p%v: interval %+v, want [%v, %v] (%s)", tt.p, q.CI, tt.lo, tt.hi, tt.reason)
		case tt.lo != 0 && q.CI.Coverage < 0.95:
			t.Errorf("p%v: coverage %v below the level", tt.p, q.CI.Coverage)
		}
	}
}

// binomCDF is P(B ≤ k) for B ~ Binomial(n, p), summed exactly in log
// space: an oracle independent of gonum.
func binomCDF(n int, p float64, k int) float64 {
	s := 0.0
	for i := 0; i <= min(k, n); i++ {
		ln, _ := math.Lgamma(float64(n + 1))
		li, _ := math.Lgamma(float64(i + 1))
		lr, _ := math.Lgamma(float64(n - i + 1))
		s += math.Exp(ln - li - lr + float64(i)*math.Log(p) + float64(n-i)*math.Log1p(-p))
	}
	return s
}

func TestCIRanksAgainstOracle(t *testing.T) {
	t.Parallel()
	const level = 0.95
	for _, n := range []int{6, 20, 37, 100, 400, 999} {
		for _, p := range standardPercentiles {
			l, u, cov, ok := CIRanks(p, n, level)
			if want := n >= MinN(p, level); ok != want {
				t.Errorf("n=%d p%v: ok=%v, but MinN is %d", n, p, ok, MinN(p, level))
				continue
			}
			if !ok {
				continue
			}
			F := func(k int) float64 { return binomCDF(n, p/100, k) }
			// l is the largest rank with F(l−1) ≤ α/2; u the smallest with F(u−1) ≥ 1−α/2.
			if !(F(l-1) <= 0.025+1e-12 && F(l) > 0.025-1e-12) {
				t.Errorf("n=%d p%v: lower rank %d: F(l−1)=%v F(l)=%v", n, p, l, F(l-1), F(l))
			}
			if !(F(u-1) >= 0.975-1e-12 && F(u-2) < 0.975+1e-12) {
				t.Errorf("n=%d p%v: upper rank %d: F(u−2)=%v F(u−1)=%v", n, p, u, F(u-2), F(u-1))
			}
			if want := F(u-1) - F(l-1); math.Abs(cov-want) > 1e-9 || cov < level {
				t.Errorf("n=%d p%v: coverage %v, oracle %v", n, p, cov, want)
			}
			if k := Rank(p, n); k < l || k > u {
				t.Errorf("n=%d p%v: estimate rank %d outside [%d, %d]", n, p, k, l, u)
			}
		}
	}
}

func TestMinN(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p      float64
		want   int
		reason string
	}{
		{50, 6, "0.5^6 = 0.0156 ≤ 0.025 < 0.5^5 = 0.031"},
		{90, 36, "0.9^35 = 0.02503 is just above 0.025"},
		{95, 72, "ln 0.025 / ln 0.95 = 71.9"},
		{99, 368, "0.99^367 = 0.025009"},
		{99.9, 3688, "ln 0.025 / ln 0.999 = 3687.04"},
		{10, 36, "symmetric with p90"},
	}
	for _, tt := range tests {
		if got := MinN(tt.p, 0.95); got != tt.want {
			t.Errorf("MinN(%v) = %d, want %d (%s)", tt.p, got, tt.want, tt.reason)
		}
	}
}

// TestMedianCICoverage draws 1,000 exponential samples and counts how
// often the median's interval holds the true median ln 2. The rate must
// match the interval's exact coverage within 4 binomial standard errors.
func TestMedianCICoverage(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	const reps, n = 1000, 50
	truth := math.Ln2
	_, _, cov, ok := CIRanks(50, n, 0.95)
	if !ok {
		t.Fatal("no interval for the median of 50")
	}
	hits := 0
	v := make([]float64, n)
	for range reps {
		for i := range v {
			v[i] = rng.ExpFloat64()
		}
		slices.Sort(v)
		q := describe("x", UnitUS, v, []float64{50}, 0.95, true).Percentiles[0]
		if q.CI.Lo <= truth && truth <= q.CI.Hi {
			hits++
		}
	}
	got := float64(hits) / reps
	se := math.Sqrt(cov * (1 - cov) / reps)
	if math.Abs(got-cov) > 4*se {
		t.Errorf("coverage %.3f over %d samples, want %.3f ± %.3f", got, reps, cov, 4*se)
	}
}
