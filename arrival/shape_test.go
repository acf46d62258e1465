package arrival

import (
	"math"
	"slices"
	"testing"
	"time"
)

// binCounts counts offsets in bins of width w over [0, horizon).
func binCounts(offs []time.Duration, w, horizon time.Duration) []float64 {
	counts := make([]float64, horizon/w)
	for _, o := range offs {
		if i := int(o / w); i < len(counts) {
			counts[i]++
		}
	}
	return counts
}

// TestScheduleDiurnal: at a mean of 100/s with period 1 h and peak/trough 3,
// each 1-minute bin's count over one hour must be within 10% of the curve's
// integral over the bin, computed here in closed form:
//
//	∫ₐᵇ 100·(1 + ½·cos ω(t − φ)) dt = 100·(b − a) + 50·(sin ω(b − φ) − sin ω(a − φ))/ω
//
// Bins expect 3,000 to 9,000 arrivals, so a Poisson bin's standard error is
// at most 1.8% and 10% is over 5 standard errors.
func TestScheduleDiurnal(t *testing.T) {
	t.Parallel()
	phi, w := daily.Curve.Diurnal.PeakAt.Seconds(), 2*math.Pi/3600
	for _, c := range []Config{{Process: Poisson, Rate: 100, Curve: daily.Curve}, {Process: Gamma, CV: 0.5, Rate: 100, Curve: daily.Curve}, {Process: Constant, Rate: 100, Curve: daily.Curve}} {
		counts := binCounts(mustSchedule(t, c, 1, 0, time.Hour), time.Minute, time.Hour)
		worst := 0.0
		for i, got := range counts {
			a, b := float64(i*60), float64(i*60+60)
			want := 100*(b-a) + 50*(math.Sin(w*(b-phi))-math.Sin(w*(a-phi)))/w
			worst = max(worst, math.Abs(got/want-1))
		}
		t.Logf("%s: worst bin error %.2f%%", c.Process, 100*worst)
		if worst >= 0.10 {
			t.Errorf("%s: worst 1-minute bin is %.1f%% off the curve; want < 10%%", c.Process, 100*worst)
		}
	}
}

// binMass integrates RateAt over each bin with a 1 ms midpoint sum — an
// independent route to ∫λ that uses only RateAt, checked by TestRateAt.
func binMass(c Config, w, horizon time.Duration) []float64 {
	mass := make([]float64, horizon/w)
	for at := time.Duration(0); at < horizon; at += time.Millisecond {
		if i := int(at / w); i < len(mass) {
			mass[i] += c.RateAt(at+time.Millisecond/2) / 1000
		}
	}
	return mass
}

// TestScheduleFollowsCurve checks per-bin counts against ∫λ over stages, a
// ramp and their mix with spikes and a diurnal curve. A constant stream
// rescaled in time puts ⌊Λ(b)⌋ − ⌊Λ(a)⌋ arrivals in [a, b), so its counts
// may differ from ∫λ by 1, and by 1 more from microsecond rounding at a bin
// edge. Poisson counts must lie within 4.5 standard errors (√∫λ).
func TestScheduleFollowsCurve(t *testing.T) {
	t.Parallel()
	up := Config{Curve: Curve{Ramp: &Ramp{From: 10, To: 300, Over: 5 * time.Minute}}}
	tests := []struct {
		name    string
		c       Config
		bin     time.Duration
		horizon time.Duration
		reason  string
	}{
		{"stepped", stepped, 5 * time.Second, 2 * time.Minute, "linear stages, a step to 0, a zero stretch, a restart"},
		{"ramp", up, 10 * time.Second, 8 * time.Minute, "ramp from 10/s to 300/s then hold"},
		{"ramp down", rampDown, 2 * time.Second, time.Minute, "ramp to 0: the stream ends"},
		{"combined", combined, 10 * time.Second, 12 * time.Minute, "stages · diurnal · spikes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mass := binMass(tt.c, tt.bin, tt.horizon)
			for _, p := range []Process{Constant, Poisson} {
				c := tt.c
				c.Process = p
				counts := binCounts(mustSchedule(t, c, 2, 0, tt.horizon), tt.bin, tt.horizon)
				for i, got := range counts {
					tol := 2.01
					if p == Poisson {
						tol = 4.5*math.Sqrt(mass[i]) + 0.5
					}
					if math.Abs(got-mass[i]) > tol {
						t.Errorf("%s bin %d: %v arrivals; ∫λ = %.2f ± %.1f (%s)", p, i, got, mass[i], tol, tt.reason)
					}
				}
			}
		})
	}
}

// TestScheduleSpikes checks that the rate inside each spike window is its
// factor times the rate outside all spikes, within 5%. At 1000/s the
// smallest window (×0.2 for 30 s) expects 6,000 arrivals, a standard error
// of 1.3%.
func TestScheduleSpikes(t *testing.T) {
	t.Parallel()
	s := time.Second
	c := Config{Rate: 1000, Curve: Curve{Spikes: []Spike{
		{At: 60 * s, Factor: 5, For: 10 * s},
		{At: 120 * s, Factor: 0.2, For: 30 * s},
		{At: 200 * s, Factor: 2, For: 20 * s},
		{At: 210 * s, Factor: 3, For: 20 * s},
	}}}
	offs := mustSchedule(t, c, 3, 0, 300*s)
	count := func(a, b time.Duration) float64 {
		i, _ := slices.BinarySearch(offs, a)
		j, _ := slices.BinarySearch(offs, b)
		return float64(j - i)
	}
	spiked := count(60*s, 70*s) + count(120*s, 150*s) + count(200*s, 230*s)
	outside := (float64(len(offs)) - spiked) / (300 - 10 - 30 - 30)
	windows := []struct {
		a, b   time.Duration
		factor float64
		reason string
	}{
		{60 * s, 70 * s, 5, "a burst"},
		{120 * s, 150 * s, 0.2, "a lull"},
		{200 * s, 210 * s, 2, "first of two overlapping spikes"},
		{210 * s, 220 * s, 6, "overlap: factors multiply"},
		{220 * s, 230 * s, 3, "second spike alone"},
	}
	for _, w := range windows {
		inside := count(w.a, w.b) / (w.b - w.a).Seconds()
		if got := inside / outside; math.Abs(got/w.factor-1) > 0.05 {
			t.Errorf("[%v, %v): rate %.1f/s is %.3f× the %.1f/s outside; want %v× (%s)", w.a, w.b, inside, got, outside, w.factor, w.reason)
		}
	}
}
