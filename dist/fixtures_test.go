package dist

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// fixture is one distribution the shared tests run over: every kind and
// parameterisation, clamped and truncated variants, empirical tables and
// mixtures.
type fixture struct {
	str    string               // canonical String; also what Parse reads
	build  func() (Dist, error) // builds it through the Go API, not Parse
	atoms  bool                 // has point masses (discrete, clamped, flat table)
	noMean string               // why the 2% sample-mean check is skipped, if it is
}

// kindOf returns a builder calling New.
func kindOf(kind string, p Params) func() (Dist, error) {
	return func() (Dist, error) { return New(kind, p) }
}

// clampOf returns a builder clamping another one.
func clampOf(b func() (Dist, error), lo, hi float64) func() (Dist, error) {
	return func() (Dist, error) {
		d, err := b()
		if err != nil {
			return nil, err
		}
		return Clamp(d, lo, hi)
	}
}

// mixOf returns a builder for a mixture of New-built components.
func mixOf(w []float64, comps ...func() (Dist, error)) func() (Dist, error) {
	return func() (Dist, error) {
		var ds []Dist
		for _, c := range comps {
			d, err := c()
			if err != nil {
				return nil, err
			}
			ds = append(ds, d)
		}
		return NewMixture(w, ds)
	}
}

// fixtures lists the distributions; all have finite variance and a CV of at
// most about 1, so 20,000 samples put the mean within 2% (about 3 standard
// errors), unless noMean says otherwise.
func fixtures() []fixture {
	return []fixture{
		{"fixed(value=512)", kindOf("fixed", Params{"value": 512}), true, ""},
		{"uniform(min=10,max=20)", kindOf("uniform", Params{"min": 10, "max": 20}), false, ""},
		{"normal(mean=100,sd=15)", kindOf("normal", Params{"mean": 100, "sd": 15}), false, ""},
		{"normal(mean=100,sd=50,min=0,max=200)", kindOf("normal", Params{"mean": 100, "sd": 50, "min": 0, "max": 200}), false, ""},
		{"normal(mean=0,sd=1,min=2,max=4)", kindOf("normal", Params{"mean": 0, "sd": 1, "min": 2, "max": 4}), false, ""},
		{"normal(mean=5,sd=2,max=4)", kindOf("normal", Params{"mean": 5, "sd": 2, "max": 4}), false, ""},
		{"lognormal(median=1000,sigma=0.8)", kindOf("lognormal", Params{"median": 1000, "sigma": 0.8}), false, ""},
		{"lognormal(mean=1000,cv=0.5)", kindOf("lognormal", Params{"mean": 1000, "cv": 0.5}), false, ""},
		{"lognormal(mu=5,sigma=0.5)", kindOf("lognormal", Params{"mu": 5, "sigma": 0.5}), false, ""},
		{"gamma(mean=200,cv=0.7)", kindOf("gamma", Params{"mean": 200, "cv": 0.7}), false, ""},
		{"gamma(shape=0.8,scale=100)", kindOf("gamma", Params{"shape": 0.8, "scale": 100}), false, ""},
		{"gamma(shape=0.1,scale=10)", kindOf("gamma", Params{"shape": 0.1, "scale": 10}), false,
			"cv 3.2 (the small-shape sampler) leaves a 20k-sample mean 2.2% noisy; KS only"},
		{"weibull(shape=1.5,scale=100)", kindOf("weibull", Params{"shape": 1.5, "scale": 100}), false, ""},
		{"weibull(mean=30,cv=0.8)", kindOf("weibull", Params{"mean": 30, "cv": 0.8}), false, ""},
		{"exponential(mean=2)", kindOf("exponential", Params{"mean": 2}), false, ""},
		{"exponential(rate=4)", kindOf("exponential", Params{"rate": 4}), false, ""},
		// alpha = 3 > 2: finite variance (cv 0.58), so the sample mean converges.
		{"pareto(alpha=3,xm=100)", kindOf("pareto", Params{"alpha": 3, "xm": 100}), false, ""},
		{"zipf(s=1.2,n=50)", kindOf("zipf", Params{"s": 1.2, "n": 50}), true, ""},
		{"zipf(s=0.8,n=1000)", kindOf("zipf", Params{"s": 0.8, "n": 1000}), true, ""},
		{"lognormal(median=1000,sigma=0.8,min=300,max=3000)", kindOf("lognormal", Params{"median": 1000, "sigma": 0.8, "min": 300, "max": 3000}), true, ""},
		{"gamma(mean=100,cv=1,min=20)", kindOf("gamma", Params{"mean": 100, "cv": 1, "min": 20}), true, ""},
		// alpha = 1.5 has infinite variance, but max bounds it (cv 0.85).
		{"pareto(alpha=1.5,xm=10,max=100)", kindOf("pareto", Params{"alpha": 1.5, "xm": 10, "max": 100}), true, ""},
		{"weibull(shape=0.9,scale=50,min=5,max=150)", kindOf("weibull", Params{"shape": 0.9, "scale": 50, "min": 5, "max": 150}), true, ""},
		{"exponential(mean=10,max=15)", kindOf("exponential", Params{"mean": 10, "max": 15}), true, ""},
		{"fixed(value=512,max=300)", kindOf("fixed", Params{"value": 512, "max": 300}), true, ""},
		{"zipf(s=1,n=100,max=20)", kindOf("zipf", Params{"s": 1, "n": 100, "max": 20}), true, ""},
		{"empirical(values=[100 200 400 200])", func() (Dist, error) { return NewEmpirical([]float64{100, 200, 400, 200}, nil) }, true, ""},
		{"empirical(values=[3 1 2 9],weights=[1 2 3 0])", func() (Dist, error) { return NewEmpirical([]float64{3, 1, 2, 9}, []float64{1, 2, 3, 0}) }, true, ""},
		{"empirical(p=[0 0.5 1],x=[10 200 1000])", func() (Dist, error) { return NewQuantiles([]float64{0, 0.5, 1}, []float64{10, 200, 1000}) }, false, ""},
		{"empirical(p=[0 0.5 0.9 1],x=[10 200 200 1000])", func() (Dist, error) {
			return NewQuantiles([]float64{0, 0.5, 0.9, 1}, []float64{10, 200, 200, 1000})
		}, true, ""},
		{"empirical(p=[0 0.5 1],x=[10 200 1000],min=50)", clampOf(func() (Dist, error) {
			return NewQuantiles([]float64{0, 0.5, 1}, []float64{10, 200, 1000})
		}, 50, math.Inf(1)), true, ""},
		{"mixture(0.5*lognormal(median=300,sigma=0.5),0.5*normal(mean=4000,sd=500))", mixOf([]float64{0.5, 0.5},
			kindOf("lognormal", Params{"median": 300, "sigma": 0.5}), kindOf("normal", Params{"mean": 4000, "sd": 500})), false, ""},
		{"mixture(6*exponential(mean=100),4*uniform(min=500,max=600),max=550)", clampOf(mixOf([]float64{6, 4},
			kindOf("exponential", Params{"mean": 100}), kindOf("uniform", Params{"min": 500, "max": 600})), math.Inf(-1), 550), true, ""},
		{"mixture(0.5*zipf(s=1,n=10),0.5*fixed(value=20))", mixOf([]float64{0.5, 0.5},
			kindOf("zipf", Params{"s": 1, "n": 10}), kindOf("fixed", Params{"value": 20})), true, ""},
		{"mixture(1*gamma(shape=2,scale=3))", mixOf([]float64{1}, kindOf("gamma", Params{"shape": 2, "scale": 3})), false, ""},
	}
}

// mustBuild builds f or fails the test.
func mustBuild(t testing.TB, f fixture) model {
	t.Helper()
	d, err := f.build()
	if err != nil {
		t.Fatalf("building %s: %v", f.str, err)
	}
	m, ok := d.(model)
	if !ok {
		t.Fatalf("%s has no CDF or quantile", f.str)
	}
	return m
}

// draw returns n samples of d from a PCG seeded with seed.
func draw(d Dist, n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = d.Sample(r)
	}
	return xs
}

// average returns the arithmetic mean of xs.
func average(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// ksDistance returns the Kolmogorov–Smirnov statistic sup_x |F_n(x) - F(x)|
// of the sample xs (sorted in place) against cdf. It compares both sides of
// every distinct sample value, F_n(v-) with F(v-) and F_n(v) with F(v), so it
// is exact for distributions with point masses too.
func ksDistance(xs []float64, cdf func(float64) float64) float64 {
	slices.Sort(xs)
	n := float64(len(xs))
	d := 0.0
	for i := 0; i < len(xs); {
		j := i
		for j < len(xs) && xs[j] == xs[i] {
			j++
		}
		left := cdf(math.Nextafter(xs[i], math.Inf(-1)))
		d = max(d, math.Abs(float64(i)/n-left), math.Abs(float64(j)/n-cdf(xs[i])))
		i = j
	}
	return d
}

// quadMean returns ∫_0^1 q(p) dp by the midpoint rule: 2000 points on
// [1/4, 3/4] and 400 on each of the panels [2^-(k+1), 2^-k] and their
// mirrors near 1, k = 2..50, so unbounded tails of q are followed down to
// p = 2^-51 from either end.
func quadMean(q func(float64) float64) float64 {
	panel := func(a, b float64, n int) float64 {
		h := (b - a) / float64(n)
		s := 0.0
		for i := range n {
			s += q(a + (float64(i)+0.5)*h)
		}
		return s * h
	}
	s := panel(0.25, 0.75, 2000)
	for k := 2; k <= 50; k++ {
		lo, hi := math.Ldexp(1, -k-1), math.Ldexp(1, -k)
		s += panel(lo, hi, 400) + panel(1-hi, 1-lo, 400)
	}
	return s
}

// newRand returns a PCG-backed generator seeded with seed.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }
