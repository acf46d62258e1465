package dist

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// bare is a Dist from outside the package: no CDF, no quantile.
type bare struct{}

func (bare) Sample(*rand.Rand) float64 { return 1 }
func (bare) Mean() float64             { return 1 }
func (bare) String() string            { return "bare" }

func TestMixtureErrors(t *testing.T) {
	t.Parallel()
	one, _ := New("fixed", Params{"value": 1})
	tests := []struct {
		weights []float64
		comps   []Dist
		want    string
	}{
		{nil, nil, "mixture: needs at least one component"},
		{[]float64{1, 2}, []Dist{one}, "mixture: got 2 weights for 1 components"},
		{[]float64{1, 0}, []Dist{one, one}, "mixture: weight 2 must be finite and > 0, got 0"},
		{[]float64{-1}, []Dist{one}, "mixture: weight 1 must be finite and > 0, got -1"},
		{[]float64{math.NaN()}, []Dist{one}, "got NaN"},
		{[]float64{1e308, 1e308}, []Dist{one, one}, "mixture: weights sum to infinity"},
		{[]float64{1}, []Dist{bare{}}, "mixture: component 1 (bare) has no CDF or quantile"},
	}
	for _, tt := range tests {
		if _, err := NewMixture(tt.weights, tt.comps); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewMixture(%v, ...) = %v, want %q", tt.weights, err, tt.want)
		}
	}
}

// TestMixtureQuantile checks the bisected quantile on a mixture of a point
// mass at 1 (weight 1/2) and uniform on [2, 3] (weight 1/2).
func TestMixtureQuantile(t *testing.T) {
	t.Parallel()
	d, err := Parse("mixture(1*fixed(value=1),1*uniform(min=2,max=3))")
	if err != nil {
		t.Fatal(err)
	}
	m := d.(model)
	tests := []struct {
		p, x   float64
		reason string
	}{
		{0, 1, "lower end"},
		{0.25, 1, "inside the point mass"},
		{0.5, 1, "top of the point mass: the smallest x with F(x) >= 0.5"},
		{0.5 + 1e-9, 2 + 2e-9, "just past the gap"},
		{0.75, 2.5, "inside the uniform part"},
		{1, 3, "upper end"},
	}
	for _, tt := range tests {
		if got := m.Quantile(tt.p); math.Abs(got-tt.x) > 1e-12 {
			t.Errorf("Quantile(%g) = %.15g, want %g (%s)", tt.p, got, tt.x, tt.reason)
		}
	}
	if m.CDF(1.5) != 0.5 || m.CDF(2.5) != 0.75 || m.CDF(0.5) != 0 {
		t.Errorf("CDF(0.5, 1.5, 2.5) = %g, %g, %g; want 0, 0.5, 0.75", m.CDF(0.5), m.CDF(1.5), m.CDF(2.5))
	}
}

// TestMixtureOfOne checks that a one-component mixture draws no selector, so
// it samples exactly like its component.
func TestMixtureOfOne(t *testing.T) {
	t.Parallel()
	c, _ := New("lognormal", Params{"median": 10, "sigma": 1})
	m, _ := NewMixture([]float64{3}, []Dist{c})
	if a, b := draw(c, 100, 4), draw(m, 100, 4); !slices.Equal(a, b) {
		t.Error("a one-component mixture samples differently from its component")
	}
	if m.Mean() != c.Mean() {
		t.Errorf("Mean() = %g, want the component's %g", m.Mean(), c.Mean())
	}
}
