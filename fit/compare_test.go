package fit

import (
	"math"
	"testing"
)

func TestKS2(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		a, b   []float64
		want   float64
	}{
		{"identical samples", []float64{1, 2, 3}, []float64{3, 2, 1}, 0},
		{"disjoint samples", []float64{1, 2}, []float64{3, 4}, 1},
		{"half shifted", []float64{1, 2, 3, 4}, []float64{3, 4, 5, 6}, 0.5},
		{"ties count together", []float64{1, 1, 2, 2}, []float64{1, 2, 2, 2}, 0.25},
	}
	for _, tt := range tests {
		if got := KS2(tt.a, tt.b); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: KS2 %g, want %g", tt.reason, got, tt.want)
		}
	}
}

// TestCompare checks the comparison's arrival figures on hand-made
// samples: evenly spaced arrivals (rate exact, CV 0, every minute equal)
// against the same count crowded into the first of their minutes.
func TestCompare(t *testing.T) {
	t.Parallel()
	var even, crowded Sample
	for i := range 600 { // 10 minutes at 1/s
		even.Times = append(even.Times, float64(i))
		at := float64(i)
		if i%60 < 30 {
			at = float64(i/60*60) + float64(i%60)/60 // half of each minute in its first second
		}
		crowded.Times = append(crowded.Times, at)
		even.In, even.Out = append(even.In, 100), append(even.Out, 10)
		crowded.In, crowded.Out = append(crowded.In, 100), append(crowded.Out, 10)
	}
	c := Compare(even, crowded)
	if math.Abs(c.Rate[0]-1) > 1e-9 || c.CV[0] > 1e-9 || math.Abs(c.PeakToMean[0]-1) > 1e-9 {
		t.Errorf("even arrivals: rate %g, CV %g, peak/mean %g; want 1, 0, 1", c.Rate[0], c.CV[0], c.PeakToMean[0])
	}
	if c.CV[1] < 1 || c.KSIn != 0 || c.In[1][1] != 100 {
		t.Errorf("crowded arrivals: CV %g (want above 1), KS in %g, input p50 %g", c.CV[1], c.KSIn, c.In[1][1])
	}
}
