package dist

import (
	"math"
	"testing"
)

// TestDiscretePMF compares the sampled frequencies of discrete
// distributions, 20,000 draws with a fixed seed, with their exact PMF
// computed here independently: the largest difference in probability must
// be under 0.015 (about 4.5 standard errors at p = 0.5) and the sample mean
// within 2% of Mean(), which must equal Σ k P(k).
func TestDiscretePMF(t *testing.T) {
	t.Parallel()
	zipfPMF := func(s float64, n int) map[float64]float64 {
		pmf, h := map[float64]float64{}, 0.0
		for k := 1; k <= n; k++ {
			h += math.Pow(float64(k), -s)
		}
		for k := 1; k <= n; k++ {
			pmf[float64(k)] = math.Pow(float64(k), -s) / h
		}
		return pmf
	}
	tests := []struct {
		build  func() (Dist, error)
		pmf    map[float64]float64
		reason string
	}{
		{kindOf("zipf", Params{"s": 1.2, "n": 50}), zipfPMF(1.2, 50), "s > 1"},
		{kindOf("zipf", Params{"s": 0.8, "n": 1000}), zipfPMF(0.8, 1000), "s < 1 is fine for finite n"},
		{kindOf("zipf", Params{"s": 2, "n": 1}), map[float64]float64{1: 1}, "a single rank"},
		{func() (Dist, error) { return NewEmpirical([]float64{3, 1, 2, 9, 1}, []float64{1, 2, 3, 0, 2}) },
			map[float64]float64{1: 0.5, 2: 0.375, 3: 0.125}, "unsorted, a repeated value, a zero weight"},
		{func() (Dist, error) { return NewEmpirical([]float64{100, 200, 400}, nil) },
			map[float64]float64{100: 1.0 / 3, 200: 1.0 / 3, 400: 1.0 / 3}, "equal weights"},
		{kindOf("fixed", Params{"value": 7}), map[float64]float64{7: 1}, "point mass"},
		{clampOf(kindOf("zipf", Params{"s": 1, "n": 4}), 2, 3), map[float64]float64{2: (1 + 0.5) / (25.0 / 12), 3: (1.0/3 + 0.25) / (25.0 / 12)},
			"clamping moves mass onto the bounds"},
	}
	for _, tt := range tests {
		d, err := tt.build()
		if err != nil {
			t.Fatal(err)
		}
		const n = 20000
		freq := map[float64]float64{}
		sum := 0.0
		for _, x := range draw(d, n, 5) {
			freq[x] += 1.0 / n
			sum += x
		}
		worst, mean := 0.0, 0.0
		for x, p := range tt.pmf {
			worst = max(worst, math.Abs(freq[x]-p))
			mean += x * p
		}
		for x, f := range freq {
			if _, ok := tt.pmf[x]; !ok {
				t.Errorf("%s: drew %g (frequency %g), outside the support (%s)", d, x, f, tt.reason)
			}
		}
		if worst > 0.015 {
			t.Errorf("%s: sampled PMF off by %.4f (%s)", d, worst, tt.reason)
		}
		if math.Abs(d.Mean()-mean) > 1e-9*mean {
			t.Errorf("%s: Mean() = %g, want Σ k P(k) = %g (%s)", d, d.Mean(), mean, tt.reason)
		}
		if rel := math.Abs(sum/n-mean) / mean; rel > 0.02 {
			t.Errorf("%s: sample mean %g vs %g (%s)", d, sum/n, mean, tt.reason)
		}
	}
}

// TestTableCDFQuantile checks the step CDF and its inverse on a small table.
func TestTableCDFQuantile(t *testing.T) {
	t.Parallel()
	d, err := NewEmpirical([]float64{10, 20, 30}, []float64{1, 2, 1})
	if err != nil {
		t.Fatal(err)
	}
	m := d.(model)
	tests := []struct {
		x, cdf float64
		reason string
	}{
		{9.99, 0, "below the support"},
		{10, 0.25, "at the first value"},
		{19.99, 0.25, "between values"},
		{20, 0.75, "at a value"},
		{30, 1, "at the last value"},
		{1e9, 1, "far above"},
	}
	for _, tt := range tests {
		if got := m.CDF(tt.x); got != tt.cdf {
			t.Errorf("CDF(%g) = %g, want %g (%s)", tt.x, got, tt.cdf, tt.reason)
		}
	}
	quantiles := []struct{ p, x float64 }{{0, 10}, {0.1, 10}, {0.25, 10}, {0.2500001, 20}, {0.75, 20}, {0.76, 30}, {1, 30}}
	for _, q := range quantiles {
		if got := m.Quantile(q.p); got != q.x {
			t.Errorf("Quantile(%g) = %g, want %g", q.p, got, q.x)
		}
	}
	z, _ := New("zipf", Params{"s": 1, "n": 3})
	zm := z.(model)
	if got, want := zm.CDF(2.5), (1+0.5)/(1+0.5+1.0/3); math.Abs(got-want) > 1e-15 {
		t.Errorf("zipf CDF(2.5) = %g, want %g", got, want)
	}
	if zm.CDF(0.99) != 0 || zm.CDF(3) != 1 || zm.Quantile(1) != 3 || zm.Quantile(0) != 1 {
		t.Errorf("zipf ends: CDF(0.99)=%g CDF(3)=%g Q(1)=%g Q(0)=%g", zm.CDF(0.99), zm.CDF(3), zm.Quantile(1), zm.Quantile(0))
	}
}
