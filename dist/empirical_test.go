package dist

import (
	"math"
	"strings"
	"testing"
)

func TestEmpiricalErrors(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	tests := []struct {
		values, weights []float64
		want            string
	}{
		{nil, nil, "empirical: needs at least one value"},
		{[]float64{1, 2}, []float64{1}, "empirical: got 1 weights for 2 values"},
		{[]float64{1, 2}, []float64{1, -1}, "empirical: weights[1] must be finite and >= 0, got -1"},
		{[]float64{1, 2}, []float64{0, 0}, "empirical: weights must have a positive finite sum, got 0"},
		{[]float64{1, nan}, nil, "empirical: values[1] must be finite, got NaN"},
		{[]float64{1, 2}, []float64{1e308, 1e308}, "positive finite sum, got +Inf"},
	}
	for _, tt := range tests {
		if _, err := NewEmpirical(tt.values, tt.weights); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewEmpirical(%v, %v) = %v, want %q", tt.values, tt.weights, err, tt.want)
		}
	}
}

func TestQuantilesErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p, x   []float64
		want   string
		reason string
	}{
		{[]float64{0}, []float64{1}, "p and x need the same length, at least 2; got 1 and 1", "one point"},
		{[]float64{0, 1}, []float64{1, 2, 3}, "got 2 and 3", "length mismatch"},
		{[]float64{0.1, 1}, []float64{1, 2}, "p must run from 0 to 1, got 0.1 to 1", "p starts above 0"},
		{[]float64{0, 0.5, 0.5, 1}, []float64{1, 2, 3, 4}, "p must be strictly increasing, got p[2]=0.5 after 0.5", "repeated p"},
		{[]float64{0, 0.5, 1}, []float64{1, 3, 2}, "x must be non-decreasing, got x[2]=2 after 3", "falling x"},
		{[]float64{0, 1}, []float64{1, math.Inf(1)}, "x[1] must be finite, got +Inf", "infinite x"},
	}
	for _, tt := range tests {
		if _, err := NewQuantiles(tt.p, tt.x); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewQuantiles(%v, %v) = %v, want %q (%s)", tt.p, tt.x, err, tt.want, tt.reason)
		}
	}
}

// TestQuantilesTable checks the interpolation against values worked by hand
// for p = [0 0.5 0.9 1], x = [10 200 200 1000]: uniform on [10, 200] with
// mass 0.5, a point mass 0.4 at 200, uniform on [200, 1000] with mass 0.1.
func TestQuantilesTable(t *testing.T) {
	t.Parallel()
	d, err := NewQuantiles([]float64{0, 0.5, 0.9, 1}, []float64{10, 200, 200, 1000})
	if err != nil {
		t.Fatal(err)
	}
	q := d.(*quantiles)
	tests := []struct {
		name      string
		got, want float64
	}{
		{"Quantile(0)", q.Quantile(0), 10},
		{"Quantile(0.25)", q.Quantile(0.25), 105},
		{"Quantile(0.7)", q.Quantile(0.7), 200},
		{"Quantile(0.95)", q.Quantile(0.95), 600},
		{"Quantile(1)", q.Quantile(1), 1000},
		{"CDF(9)", q.CDF(9), 0},
		{"CDF(105)", q.CDF(105), 0.25},
		{"CDF(199.99)", q.CDF(199.99), 0.5 * 189.99 / 190},
		{"CDF(200)", q.CDF(200), 0.9},
		{"CDF(600)", q.CDF(600), 0.95},
		{"CDF(1000)", q.CDF(1000), 1},
		// 0.5·105 + 0.4·200 + 0.1·600
		{"Mean()", q.Mean(), 192.5},
		// E[X; X <= 105] = 0.25 · (10+105)/2
		{"partialMean(105)", q.partialMean(105), 14.375},
		// 0.5·105 + 0.4·200 + 0.05·(200+600)/2
		{"partialMean(600)", q.partialMean(600), 152.5},
		{"partialMean(5)", q.partialMean(5), 0},
	}
	for _, tt := range tests {
		if math.Abs(tt.got-tt.want) > 1e-12*max(1, math.Abs(tt.want)) {
			t.Errorf("%s = %.15g, want %g", tt.name, tt.got, tt.want)
		}
	}
}
