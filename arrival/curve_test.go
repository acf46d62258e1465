package arrival

import (
	"math"
	"testing"
	"time"
)

// Curves shared by the curve, inverse and schedule tests.
var (
	flat    = Config{Rate: 10}
	stepped = Config{Curve: Curve{Stages: []Stage{
		{10 * time.Second, 5}, {20 * time.Second, 15}, {40 * time.Second, 15},
		{40 * time.Second, 0}, {50 * time.Second, 0}, {60 * time.Second, 8},
	}}}
	rampDown = Config{Curve: Curve{Ramp: &Ramp{From: 20, To: 0, Over: 30 * time.Second}}}
	daily    = Config{Rate: 100, Curve: Curve{Diurnal: &Diurnal{Period: time.Hour, PeakToTrough: 3, PeakAt: 15 * time.Minute}}}
	combined = Config{Curve: Curve{
		Stages:  []Stage{{0, 50}, {5 * time.Minute, 200}, {8 * time.Minute, 200}, {8 * time.Minute, 20}},
		Diurnal: &Diurnal{Period: 10 * time.Minute, PeakToTrough: 4, PeakAt: 2 * time.Minute},
		Spikes: []Spike{
			{At: time.Minute, Factor: 5, For: 30 * time.Second},
			{At: 80 * time.Second, Factor: 0.5, For: time.Minute},
		},
	}}
)

func TestRateAt(t *testing.T) {
	t.Parallel()
	s := time.Second
	spiky := Config{Rate: 10, Curve: Curve{Spikes: []Spike{{At: 5 * s, Factor: 3, For: 2 * s}, {At: 6 * s, Factor: 2, For: 2 * s}}}}
	ramped := Config{Curve: Curve{
		Ramp:    &Ramp{From: 10, To: 30, Over: 10 * s},
		Diurnal: &Diurnal{Period: 40 * s, PeakToTrough: 3},
		Spikes:  []Spike{{At: 5 * s, Factor: 2, For: s}},
	}}
	tests := []struct {
		c      Config
		at     time.Duration
		want   float64
		reason string
	}{
		{flat, 0, 10, "flat rate at the start"},
		{flat, 1000 * time.Hour, 10, "flat rate forever"},
		{flat, -s, 0, "nothing before the stream starts"},
		{stepped, 0, 5, "before the first stage: the first stage's rate"},
		{stepped, 15 * s, 10, "halfway between 5 and 15"},
		{stepped, 20 * s, 15, "at a stage: its rate"},
		{stepped, 40*s - 1, 15, "just before the step down"},
		{stepped, 40 * s, 0, "a step is right-continuous: the later stage holds"},
		{stepped, 45 * s, 0, "flat zero stretch"},
		{stepped, 55 * s, 4, "ramping up from the zero stretch"},
		{stepped, 1000 * s, 8, "after the last stage: its rate"},
		{rampDown, 0, 20, "ramp starts at from"},
		{rampDown, 15 * s, 10, "ramp halfway"},
		{rampDown, 30 * s, 0, "ramp reaches to"},
		{rampDown, time.Hour, 0, "ramp holds to"},
		{daily, 15 * time.Minute, 150, "diurnal peak: mean·(1 + a), a = 1/2"},
		{daily, 45 * time.Minute, 50, "diurnal trough: mean·(1 − a)"},
		{daily, 30 * time.Minute, 100, "diurnal quarter period: the mean"},
		{daily, 24*time.Hour + 15*time.Minute, 150, "periodic"},
		{spiky, 5*s - 1, 10, "just before a spike"},
		{spiky, 5 * s, 30, "spike start is inclusive"},
		{spiky, 6 * s, 60, "overlapping spikes multiply"},
		{spiky, 7 * s, 20, "spike end is exclusive"},
		{spiky, 8 * s, 10, "after both spikes"},
		{ramped, 5 * s, 20 * 2 * (1 + 0.5*math.Cos(math.Pi/4)), "ramp · spike · diurnal"},
		{ramped, 20 * s, 30 * (1 - 0.5), "held ramp at the diurnal trough"},
	}
	for _, tt := range tests {
		if got := tt.c.RateAt(tt.at); math.Abs(got-tt.want) > 1e-9*max(1, tt.want) {
			t.Errorf("RateAt(%v) = %v; want %v (%s)", tt.at, got, tt.want, tt.reason)
		}
	}
}

// TestCumulativeMatchesIntegral checks the closed-form Λ against a midpoint
// sum of λ on a 1 ms grid. Every breakpoint of these curves is a whole
// second, so no grid cell straddles a jump and the sum's error is
// O(h²) times λ's second derivative — far below the tolerance.
func TestCumulativeMatchesIntegral(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		c      Config
		until  time.Duration
		reason string
	}{
		{"flat", flat, 100 * time.Second, "Λ = rate·t"},
		{"stepped", stepped, 90 * time.Second, "linear pieces, a step and a zero stretch"},
		{"ramp down", rampDown, 60 * time.Second, "a ramp to 0 then nothing"},
		{"daily", daily, 2 * time.Hour, "sine integral over two periods"},
		{"combined", combined, 15 * time.Minute, "linear·sine products and spikes"},
	}
	const h = 1e-3
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := tt.c.intensity()
			sum := 0.0
			steps := int(math.Round(tt.until.Seconds() / h))
			for k := range steps {
				x := (float64(k) + 0.5) * h
				sum += in.rate(in.find(x), x) * h
				if (k+1)%10000 == 0 { // every 10 s
					at := time.Duration(k+1) * time.Millisecond
					if got := tt.c.Cumulative(at); math.Abs(got-sum) > 1e-6*max(1, sum) {
						t.Fatalf("Cumulative(%v) = %.9g; midpoint sum %.9g (%s)", at, got, sum, tt.reason)
					}
				}
			}
		})
	}
}

func TestMass(t *testing.T) {
	t.Parallel()
	tests := []struct {
		c      Config
		want   float64
		reason string
	}{
		{flat, math.Inf(1), "a flat rate never runs out"},
		{stepped, math.Inf(1), "ends at 8/s"},
		{rampDown, 20 * 30 / 2, "triangle: 20/s down to 0 over 30 s"},
		{Config{Curve: Curve{
			Stages: []Stage{{0, 10}, {10 * time.Second, 10}, {20 * time.Second, 0}},
			Spikes: []Spike{{At: 5 * time.Second, Factor: 3, For: time.Second}},
		}}, 100 + 50 + 20, "flat, trapezoid down to 0, and a spike adding 2·10"},
	}
	for _, tt := range tests {
		if got := tt.c.Mass(); math.Abs(got-tt.want) > 1e-9*tt.want && got != tt.want {
			t.Errorf("Mass() = %v; want %v (%s)", got, tt.want, tt.reason)
		}
	}
}
