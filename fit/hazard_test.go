package fit

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestFitHazard(t *testing.T) {
	tests := []struct {
		name   string
		chance func(x float64) float64
		bins   int
	}{
		{"flat", func(float64) float64 { return 0.01 }, 1},
		{"a step at 150k", func(x float64) float64 {
			if x >= 150e3 {
				return 0.08
			}
			return 0.003
		}, 2},
		{"never", func(float64) float64 { return 0 }, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			var xs []float64
			var shrank []bool
			for range 20000 {
				x := math.Floor(rng.Float64() * 200e3)
				xs = append(xs, x)
				shrank = append(shrank, rng.Float64() < tt.chance(x))
			}
			h := FitHazard(xs, shrank)
			if len(h.At) != tt.bins {
				t.Fatalf("%d bins (at %v, p %v), want %d", len(h.At), h.At, h.P, tt.bins)
			}
			for i, at := range h.At {
				mid := float64(at) + 1000
				if want := tt.chance(mid); math.Abs(h.P[i]-want) > 0.25*want+0.002 {
					t.Errorf("bin from %d: p %.4f, want about %.4f", at, h.P[i], want)
				}
			}
			if tt.bins > 1 && math.Abs(float64(h.At[1])-150e3) > 5e3 {
				t.Errorf("the step is fitted at %d, want near 150000", h.At[1])
			}
			if tt.bins > 1 && h.BIC[1] >= h.BIC[0] {
				t.Errorf("BIC of the bins %.1f is not below one chance's %.1f", h.BIC[1], h.BIC[0])
			}
		})
	}
}
