package fit

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"surge/dist"
)

func TestKS(t *testing.T) {
	t.Parallel()
	uniform := func(x float64) float64 { return math.Max(0, math.Min(1, x)) }
	tests := []struct {
		reason string
		xs     []float64
		want   float64
	}{
		{"one point at the median: the ECDF jumps 0→1 where F = 0.5", []float64{0.5}, 0.5},
		{"two points at the quartiles", []float64{0.25, 0.75}, 0.25},
		{"ties act as one jump of 2/n", []float64{0.5, 0.5}, 0.5},
		{"a sample far to the right", []float64{0.9, 0.95, 1}, 0.9},
	}
	for _, tt := range tests {
		if got := KS(tt.xs, uniform); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("KS(%v) = %g, want %g (%s)", tt.xs, got, tt.want, tt.reason)
		}
	}
}

func TestGradeKS(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d      float64
		n      int
		want   Grade
		reason string
	}{
		{0.011, 3981, Good, "Mooncake synthetic exponential: under the 5% critical value 0.0215"},
		{0.04, 500, Good, "small sample: critical value 0.061 is above the absolute floor"},
		{0.0166, 19365, Good, "large sample: test rejects (critical 0.0098) but within 3 percentiles"},
		{0.067, 12031, Fair, "Mooncake conversation input lognormal"},
		{0.10, 100000, Fair, "the fair cap is inclusive"},
		{0.14, 8818, Poor, "Azure coding gaps, best Weibull"},
	}
	for _, tt := range tests {
		if got := GradeKS(tt.d, tt.n); got != tt.want {
			t.Errorf("GradeKS(%g, %d) = %v, want %v (%s)", tt.d, tt.n, got, tt.want, tt.reason)
		}
	}
}

func TestBestChoosesTheGeneratingFamily(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		kind   string
		p      dist.Params
		want   []Family // acceptable winners
	}{
		{"lognormal data: no other family is close", "lognormal", dist.Params{"mu": 0, "sigma": 1.5}, []Family{FamilyLogNormal}},
		{"heavy Weibull: gamma and lognormal miss the tail shape", "weibull", dist.Params{"shape": 0.5, "scale": 1}, []Family{FamilyWeibull}},
		{"exponential data: every family containing it may win by noise", "exponential", dist.Params{"rate": 2},
			[]Family{FamilyExponential, FamilyGamma, FamilyWeibull, FamilyGammaMoments}},
	}
	for i, tt := range tests {
		c, err := Best(draw(t, tt.kind, tt.p, 5000, uint64(100+i)))
		if err != nil {
			t.Fatal(err)
		}
		if !containsFamily(tt.want, c.Best.Family) {
			t.Errorf("%s: best %v, want one of %v", tt.reason, c.Best, tt.want)
		}
		if c.Grade != Good || c.Use != c.Best.Dist {
			t.Errorf("%s: grade %v, use %v; want good and the best law", tt.reason, c.Grade, c.Use)
		}
		if len(c.Fits) != 5 {
			t.Errorf("%s: %d fits, want 5", tt.reason, len(c.Fits))
		}
	}
}

func containsFamily(fs []Family, f Family) bool {
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}

func TestBestFallsBackToEmpiricalWhenPoor(t *testing.T) {
	t.Parallel()
	// Two well-separated modes: no single unimodal law comes close.
	xs := append(draw(t, "lognormal", dist.Params{"mu": 2, "sigma": 0.1}, 3000, 1),
		draw(t, "lognormal", dist.Params{"mu": 7, "sigma": 0.1}, 3000, 2)...)
	c, err := Best(xs)
	if err != nil {
		t.Fatal(err)
	}
	if c.Grade != Poor {
		t.Fatalf("grade %v for a bimodal sample (best %v), want poor", c.Grade, c.Best)
	}
	if c.Use != c.Empirical || !strings.HasPrefix(c.Use.String(), "empirical(p=[0 ") {
		t.Errorf("use %v, want the empirical quantile table", c.Use)
	}
	// The table reproduces the sample: its lower quartile is in the lower mode.
	q := c.Use.(dist.Quantiler)
	if m := q.Quantile(0.25); m < 6 || m > 9 {
		t.Errorf("table quantile 0.25 = %g, want near e² ≈ 7.4", m)
	}
}

func TestBestNeedsSamples(t *testing.T) {
	t.Parallel()
	if _, err := Best([]float64{0, 1}); err == nil {
		t.Error("Best of one positive sample: got no error")
	}
}

func TestQuantile(t *testing.T) {
	t.Parallel()
	xs := []float64{1, 2, 3, 4, 5}
	tests := []struct {
		p, want float64
		reason  string
	}{
		{0, 1, "the minimum"},
		{1, 5, "the maximum"},
		{0.5, 3, "the middle order statistic"},
		{0.1, 1.4, "interpolated: h = 0.4"},
	}
	for _, tt := range tests {
		if got := Quantile(xs, tt.p); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Quantile(%g) = %g, want %g (%s)", tt.p, got, tt.want, tt.reason)
		}
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("Quantile of no samples should be NaN")
	}
}

func TestQuantileTableRoundTrips(t *testing.T) {
	t.Parallel()
	d, err := QuantileTable([]float64{5, 1, 3, 2, 4})
	if err != nil {
		t.Fatal(err)
	}
	back, err := dist.Parse(d.String())
	if err != nil {
		t.Fatalf("parsing %q: %v", d, err)
	}
	if back.String() != d.String() || math.Abs(d.Mean()-3) > 1e-9 {
		t.Errorf("table %v (mean %g) parsed back as %v; want the same, mean 3", d, d.Mean(), back)
	}
	if _, err := QuantileTable(nil); err == nil {
		t.Error("QuantileTable(nil): got no error")
	}
}

func BenchmarkBest(b *testing.B) {
	d, _ := dist.New("gamma", dist.Params{"shape": 0.9, "scale": 0.2})
	r := rand.New(rand.NewPCG(1, 1))
	xs := make([]float64, 20000)
	for i := range xs {
		xs[i] = d.Sample(r)
	}
	for b.Loop() {
		if _, err := Best(xs); err != nil {
			b.Fatal(err)
		}
	}
}
