package dist

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// opaque hides a distribution's closed-form partial mean and its printing
// hooks, as a distribution from outside the package would.
type opaque struct{ m model }

func (o opaque) Sample(r *rand.Rand) float64 { return o.m.Sample(r) }
func (o opaque) Mean() float64               { return o.m.Mean() }
func (o opaque) String() string              { return o.m.String() }
func (o opaque) CDF(x float64) float64       { return o.m.CDF(x) }
func (o opaque) Quantile(p float64) float64  { return o.m.Quantile(p) }

func TestClampErrors(t *testing.T) {
	t.Parallel()
	ln, _ := New("lognormal", Params{"median": 100, "sigma": 1})
	c, _ := Clamp(ln, 10, 20)
	tests := []struct {
		d        Dist
		min, max float64
		want     string
	}{
		{ln, 5, 3, "min (5) must be <= max (3)"},
		{ln, math.NaN(), 3, "min and max must not be NaN"},
		{c, 30, 40, "[30, 40] does not overlap the existing clamp [10, 20]"},
		{bare{}, 0, 1, "cannot clamp bare: it has no CDF or quantile"},
	}
	for _, tt := range tests {
		if _, err := Clamp(tt.d, tt.min, tt.max); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Clamp(%s, %g, %g) = %v, want %q", tt.d, tt.min, tt.max, err, tt.want)
		}
	}
}

func TestClampComposition(t *testing.T) {
	t.Parallel()
	ln, _ := New("lognormal", Params{"median": 100, "sigma": 1})
	nrm, _ := New("normal", Params{"mean": 0, "sd": 1})
	c1, _ := Clamp(ln, 10, 200)
	tests := []struct {
		d        Dist
		min, max float64
		want     string
		reason   string
	}{
		{ln, math.Inf(-1), math.Inf(1), "lognormal(median=100,sigma=1)", "no bounds: unchanged"},
		{c1, 50, 500, "lognormal(median=100,sigma=1,min=50,max=200)", "clamping a clamp narrows it"},
		{c1, math.Inf(-1), 100, "lognormal(median=100,sigma=1,min=10,max=100)", "one side"},
		{nrm, -1, 1, "normal(mean=0,sd=1,min=-1,max=1)", "a normal is truncated, not clamped"},
		{opaque{ln.(model)}, 10, math.Inf(1), "mixture(1*lognormal(median=100,sigma=1),min=10)", "outside distributions print as a one-component mixture"},
	}
	for _, tt := range tests {
		d, err := Clamp(tt.d, tt.min, tt.max)
		if err != nil || d.String() != tt.want {
			t.Errorf("Clamp(%s, %g, %g) = %v, %v; want %s (%s)", tt.d, tt.min, tt.max, d, err, tt.want, tt.reason)
		}
	}
	// The truncated normal has no point masses at its bounds.
	tn, _ := Clamp(nrm, -1, 1)
	if got := tn.(CDFer).CDF(-1); got != 0 {
		t.Errorf("truncated normal CDF(-1) = %g, want 0", got)
	}
}

// TestClampPointMasses checks the CDF and quantile of a clamped lognormal
// around its bounds.
func TestClampPointMasses(t *testing.T) {
	t.Parallel()
	ln, _ := New("lognormal", Params{"median": 1000, "sigma": 0.8})
	inner := ln.(model)
	c, _ := Clamp(ln, 300, 3000)
	m := c.(model)
	fLo, fHi := inner.CDF(300), inner.CDF(3000)
	tests := []struct {
		name      string
		got, want float64
	}{
		{"CDF just below min", m.CDF(299.999), 0},
		{"CDF at min (the point mass)", m.CDF(300), fLo},
		{"CDF inside", m.CDF(1000), 0.5},
		{"CDF just below max", m.CDF(2999.999), inner.CDF(2999.999)},
		{"CDF at max", m.CDF(3000), 1},
		{"Quantile inside the lower mass", m.Quantile(fLo / 2), 300},
		{"Quantile at the median", m.Quantile(0.5), inner.Quantile(0.5)},
		{"Quantile inside the upper mass", m.Quantile((1 + fHi) / 2), 3000},
	}
	for _, tt := range tests {
		if math.Abs(tt.got-tt.want) > 1e-12*max(1, tt.want) {
			t.Errorf("%s = %.15g, want %.15g", tt.name, tt.got, tt.want)
		}
	}
}

// TestClampMeanClosedForm checks clamped means against formulas worked out
// independently of the package's partial-mean machinery.
func TestClampMeanClosedForm(t *testing.T) {
	t.Parallel()
	m, a, b := 10.0, 4.0, 15.0
	tests := []struct {
		spec   string
		want   float64
		reason string
	}{
		{"exponential(mean=10,max=15)", m * -math.Expm1(-b/m), "E[min(X,b)] = m (1 - e^{-b/m})"},
		{"exponential(mean=10,min=4)", a + m*math.Exp(-a/m), "E[max(X,a)] = a + m e^{-a/m}"},
		{"uniform(min=0,max=10)", 5, "unclamped"},
		{"mixture(1*uniform(min=0,max=10),min=2,max=5)", 2*0.2 + (25.0-4)/20 + 5*0.5, "2 P(X<2) + ∫_2^5 x/10 dx + 5 P(X>5)"},
		{"fixed(value=7,min=9)", 9, "a point mass below min moves to min"},
		{"pareto(alpha=1,xm=1,max=100)", 1 + math.Log(100), "α = 1: ∫_1^100 x·x^{-2} dx + 100·(1/100)"},
		{"pareto(alpha=0.5,xm=1,max=100)", 9 + 10, "α = 0.5, infinite mean unclamped: 0.5∫_1^100 x^{-0.5} dx + 100·100^{-0.5}"},
	}
	for _, tt := range tests {
		d, err := Parse(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Mean(); math.Abs(got-tt.want) > 1e-12*tt.want {
			t.Errorf("%s: Mean() = %.15g, want %.15g (%s)", tt.spec, got, tt.want, tt.reason)
		}
	}
}

// TestClampOutside checks clamping a distribution from outside the package:
// its mean comes from integrating the quantile function and matches the
// closed form, and its printed form parses back to a distribution that
// samples the same.
func TestClampOutside(t *testing.T) {
	t.Parallel()
	for _, spec := range []string{"lognormal(median=1000,sigma=0.8)", "gamma(shape=0.8,scale=100)", "mixture(1*normal(mean=500,sd=300))",
		"mixture(1*lognormal(median=300,sigma=0.5),1*weibull(shape=2,scale=50))"} {
		d, _ := Parse(spec)
		for _, b := range [][2]float64{{math.Inf(-1), 900}, {30, math.Inf(1)}, {30, 900}} {
			want, _ := Clamp(d, b[0], b[1])
			got, err := Clamp(opaque{d.(model)}, b[0], b[1])
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got.Mean()-want.Mean()) > 1e-6*math.Abs(want.Mean()) {
				t.Errorf("%s in [%g, %g]: integrated mean %.10g, closed form %.10g", spec, b[0], b[1], got.Mean(), want.Mean())
			}
			back, err := Parse(got.String())
			if err != nil {
				t.Fatalf("Parse(%q): %v", got, err)
			}
			if !slices.Equal(draw(got, 50, 2), draw(back, 50, 2)) {
				t.Errorf("%s re-parsed samples differently", got)
			}
		}
	}
}
