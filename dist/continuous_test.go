package dist

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mathext"
)

// TestParamForms checks that the mean, cv parameterisations produce the
// asked-for mean exactly and the asked-for cv (the sample CV of 200,000
// draws within 3%).
func TestParamForms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind     string
		mean, cv float64
		reason   string
	}{
		{"lognormal", 1000, 0.5, "σ² = ln(1+cv²)"},
		{"lognormal", 50, 2, "heavy right tail"},
		{"gamma", 200, 0.7, "shape 2.04"},
		{"gamma", 3, 1.5, "shape below 1"},
		{"weibull", 30, 0.8, "shape solved numerically, about 1.26"},
		{"weibull", 30, 2, "shape below 1"},
		{"weibull", 30, 0.05, "shape about 24"},
	}
	for _, tt := range tests {
		d, err := New(tt.kind, Params{"mean": tt.mean, "cv": tt.cv})
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Mean(); math.Abs(got-tt.mean) > 1e-9*tt.mean {
			t.Errorf("%s: Mean() = %g, want %g (%s)", d, got, tt.mean, tt.reason)
		}
		xs := draw(d, 200000, 3)
		m := average(xs)
		v := 0.0
		for _, x := range xs {
			v += (x - m) * (x - m)
		}
		if cv := math.Sqrt(v/float64(len(xs)-1)) / m; math.Abs(cv-tt.cv) > 0.03*tt.cv {
			t.Errorf("%s: sample cv %.4f, want %g within 3%% (%s)", d, cv, tt.cv, tt.reason)
		}
	}
}

func TestExponentialForms(t *testing.T) {
	t.Parallel()
	byMean, _ := New("exponential", Params{"mean": 4})
	byRate, _ := New("exponential", Params{"rate": 0.25})
	if byMean.Mean() != 4 || byRate.Mean() != 4 {
		t.Errorf("means %g and %g, want 4 for mean=4 and rate=0.25", byMean.Mean(), byRate.Mean())
	}
	a, b := draw(byMean, 50, 1), draw(byRate, 50, 1)
	if !slices.Equal(a, b) {
		t.Errorf("mean=4 and rate=0.25 sample differently: %v vs %v", a[:3], b[:3])
	}
}

// TestWeibullShape checks the numerical solve of cv² = Γ(1+2/k)/Γ(1+1/k)² - 1
// against shapes with known cv: k = 1 is exponential (cv 1), k = 2 is
// Rayleigh (cv = √(4/π - 1)), k = 0.5 gives cv = √(Γ(5)/Γ(3)² - 1) = √5.
func TestWeibullShape(t *testing.T) {
	t.Parallel()
	tests := []struct{ cv, k float64 }{
		{1, 1},
		{math.Sqrt(4/math.Pi - 1), 2},
		{math.Sqrt(5), 0.5},
	}
	for _, tt := range tests {
		k, err := WeibullShape(tt.cv)
		if err != nil || math.Abs(k-tt.k) > 1e-9*tt.k {
			t.Errorf("WeibullShape(%g) = %g, %v; want %g", tt.cv, k, err, tt.k)
		}
	}
	// Across the solvable range, the solved shape reproduces its cv.
	for _, cv := range []float64{2e-4, 1e-3, 0.01, 0.3, 3, 30, 100, 1e6} {
		k, err := WeibullShape(cv)
		if got := math.Sqrt(math.Expm1(weibullLogCV2(k))); err != nil || math.Abs(got-cv) > 1e-8*cv {
			t.Errorf("cv of WeibullShape(%g) = %g, %v", cv, got, err)
		}
	}
	for _, cv := range []float64{1e-5, 1e15} {
		if _, err := WeibullShape(cv); err == nil {
			t.Errorf("WeibullShape(%g) succeeded outside the solvable range", cv)
		}
	}
}

// TestGammaSmallShapeQuantile checks the fallback for the tiny quantiles of
// a gamma of shape 0.05, which gonum's inverse returns as 0.
func TestGammaSmallShapeQuantile(t *testing.T) {
	t.Parallel()
	d, _ := New("gamma", Params{"shape": 0.05, "scale": 2})
	for _, p := range []float64{1e-9, 1e-3, 0.1, 0.5, 0.9} {
		x := d.(model).Quantile(p)
		if got := mathext.GammaIncReg(0.05, x/2); !(x > 0) || math.Abs(got-p) > 1e-9*p {
			t.Errorf("Quantile(%g) = %g, where P(0.05, x/2) = %g", p, x, got)
		}
	}
}

// TestPartialMeans checks the closed forms of E[X; X <= x] against the
// numerical fallback, E[X; X <= x] = ∫_0^{F(x)} Q(p) dp by Gauss–Legendre:
// to 1e-4 of the mean for continuous distributions (a wrong formula is off by
// far more), and to 3e-3 where the quantile function jumps (point masses),
// which the quadrature handles poorly; TestDiscretePMF and
// TestQuantilesTable check those exactly.
func TestPartialMeans(t *testing.T) {
	t.Parallel()
	for _, f := range fixtures() {
		d := mustBuild(t, f)
		pm, ok := d.(partialMeaner)
		if !ok {
			t.Errorf("%s has no closed-form partial mean", f.str)
			continue
		}
		tol := 1e-4
		if f.atoms {
			tol = 3e-3
		}
		for _, p := range []float64{0.1, 0.5, 0.9} {
			x := d.Quantile(p)
			want := integrateQuantile(d, d.CDF(x))
			if got := pm.partialMean(x); math.Abs(got-want) > tol*math.Abs(d.Mean()) {
				t.Errorf("%s: partialMean(%g) = %.10g, ∫Q = %.10g", f.str, x, got, want)
			}
		}
	}
}
