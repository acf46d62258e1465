package fit

import (
	"math"
	"math/rand/v2"
	"testing"
)

// poissonTimes returns n arrival times of a Poisson process of the given
// rate (per second), from a fixed seed.
func poissonTimes(n int, rate float64, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 2))
	ts := make([]float64, n)
	t := 0.0
	for i := range ts {
		t += r.ExpFloat64() / rate
		ts[i] = t
	}
	return ts
}

// slotted stamps times with the start of their slot of the given period,
// plus a jitter of up to ±1 ms as Mooncake's stamps have.
func slotted(times []float64, period float64, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 3))
	out := make([]float64, len(times))
	jitter := map[float64]float64{}
	for i, t := range times {
		s := math.Floor(t/period) * period
		if _, ok := jitter[s]; !ok {
			jitter[s] = float64(r.IntN(3)-1) / 1000
		}
		out[i] = s + jitter[s]
	}
	return out
}

func TestDetectGrid(t *testing.T) {
	t.Parallel()
	poisson := poissonTimes(12000, 3.4, 1)
	tests := []struct {
		reason  string
		times   []float64
		want    bool
		period  float64
		perSlot float64
	}{
		{"Poisson stamped in 3 s slots, as Mooncake conversation", slotted(poisson, 3, 1), true, 3, 10.2},
		{"the same arrivals unstamped: no ties", poisson, false, 0, 0},
		{"evenly spaced arrivals are regular, not a grid: no ties", []float64{0, 1, 2, 3, 4, 5}, false, 0, 0},
	}
	for _, tt := range tests {
		g := DetectGrid(tt.times)
		if g.Detected != tt.want {
			t.Errorf("%s: detected %v, want %v (%+v)", tt.reason, g.Detected, tt.want, g)
			continue
		}
		if !tt.want {
			continue
		}
		if !within(g.Period, tt.period, 0.001) || !within(g.PerSlot, tt.perSlot, 0.02) {
			t.Errorf("%s: period %g, per slot %g; want %g, %g", tt.reason, g.Period, g.PerSlot, tt.period, tt.perSlot)
		}
		// Poisson counts per slot have dispersion 1 ± √(2/1200).
		if math.Abs(g.Dispersion-1) > 0.15 {
			t.Errorf("%s: dispersion %g, want ≈ 1", tt.reason, g.Dispersion)
		}
	}
}

// TestDetectGridSparse counts the slots of a grid whose slots are few
// and far between, 10¹¹ of them, without holding a count per slot: four
// slots of two requests each, 1 µs apart and then 10⁵ s later, the
// rest empty.
func TestDetectGridSparse(t *testing.T) {
	t.Parallel()
	times := []float64{0, 0, 1e-6, 1e-6, 2e-6, 2e-6, 1e5, 1e5}
	g := DetectGrid(times)
	if !g.Detected || g.Slots < 9e10 || g.Slots > 1.1e11 {
		t.Fatalf("detected %v, %d slots; want a grid of about 1e11", g.Detected, g.Slots)
	}
	// Σc² = 16 over n slots holding 8: dispersion (16/n − m²)/m ≈ 2.
	if !within(g.Dispersion, 2, 1e-6) {
		t.Errorf("dispersion %g, want 2", g.Dispersion)
	}
}

func TestDetectOnOff(t *testing.T) {
	t.Parallel()
	on := []float64{0} // an arrival at 0 aligns the bins with the minutes
	var onOff []float64
	for _, t := range poissonTimes(6000, 2, 4) {
		if t < 2940 { // 49 minutes: four idle stretches below
			on = append(on, t)
		}
	}
	for _, t := range on {
		// Stretch every tenth minute into an idle stretch of five minutes.
		minute := math.Floor(t / 60)
		shift := math.Floor(minute/10) * 300
		onOff = append(onOff, t+shift)
	}
	tests := []struct {
		reason string
		times  []float64
		want   bool
		empty  int
	}{
		{"steady Poisson at 2/s leaves no minute empty", on, false, 0},
		{"five idle minutes after every ten", onOff, true, 20},
	}
	for _, tt := range tests {
		o := DetectOnOff(tt.times, 60)
		if o.Detected != tt.want || o.Empty != tt.empty {
			t.Errorf("%s: detected %v with %d empty bins, want %v with %d (%+v)", tt.reason, o.Detected, o.Empty, tt.want, tt.empty, o)
		}
	}
}

func TestRateCurve(t *testing.T) {
	t.Parallel()
	// 1/s for 10 minutes, then 3/s for 10 minutes, evenly spaced.
	var ts []float64
	for i := range 600 {
		ts = append(ts, float64(i))
	}
	for i := range 1800 {
		ts = append(ts, 600+float64(i)/3)
	}
	tests := []struct {
		reason    string
		smooth    int
		maxStages int
		stages    int
		first     Stage
		last      Stage
	}{
		{"unsmoothed minutes: the step shows exactly", 1, 0, 19, Stage{30, 1}, Stage{1110, 3}},
		{"smoothed over 5 minutes: the ends average what exists", 5, 0, 19, Stage{30, 1}, Stage{1110, 3}},
		{"capped at 5 stages: 4-minute bins", 1, 5, 4, Stage{120, 1}, Stage{840, 3}},
	}
	for _, tt := range tests {
		c := RateCurve(ts, 60, tt.smooth, tt.maxStages)
		if len(c) != tt.stages {
			t.Errorf("%s: %d stages, want %d", tt.reason, len(c), tt.stages)
			continue
		}
		if !nearStage(c[0], tt.first) || !nearStage(c[len(c)-1], tt.last) {
			t.Errorf("%s: first %v last %v, want %v and %v", tt.reason, c[0], c[len(c)-1], tt.first, tt.last)
		}
	}
	// Smoothing spreads the step over the window: the bin just after it
	// averages two slow and three fast minutes.
	c := RateCurve(ts, 60, 5, 0)
	if got, want := c[10].Rate, (1+1+3+3+3)/5.0; math.Abs(got-want) > 0.02 {
		t.Errorf("smoothed rate after the step = %g, want %g", got, want)
	}
}

func nearStage(a, b Stage) bool {
	return math.Abs(a.At-b.At) < 1e-9 && math.Abs(a.Rate-b.Rate) < 0.02
}

func TestArrivalsPoisson(t *testing.T) {
	t.Parallel()
	a, err := Arrivals(poissonTimes(4000, 4, 9), ArrivalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Poisson || a.Grid.Detected || a.OnOff.Detected {
		t.Errorf("Poisson %v grid %v on/off %v; want true, false, false", a.Poisson, a.Grid.Detected, a.OnOff.Detected)
	}
	if !within(a.Rate, 4, 0.05) || math.Abs(a.CV-1) > 0.05 {
		t.Errorf("rate %g, cv %g; want 4 and 1", a.Rate, a.CV)
	}
	if p := a.Process(); p.Name == "gamma" && math.Abs(p.CV-1) > 0.05 {
		t.Errorf("process %+v, want Poisson or CV near 1", p)
	}
}

func TestArrivalsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		times  []float64
	}{
		{"too few arrivals", []float64{0, 1}},
		{"all at one instant", []float64{5, 5, 5}},
		{"one gap: cannot fit a two-parameter law", []float64{0, 0, 1}},
	}
	for _, tt := range tests {
		if _, err := Arrivals(tt.times, ArrivalOptions{}); err == nil {
			t.Errorf("%s: got no error", tt.reason)
		}
	}
}

func TestProcess(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		a      ArrivalFit
		name   string
		cv     float64
	}{
		{"grid with Poisson counts", ArrivalFit{Grid: Grid{Detected: true, Period: 3, Dispersion: 1.1}}, "poisson", 0},
		{"grid with bursty counts: cv from dispersion", ArrivalFit{Grid: Grid{Detected: true, Period: 3, Dispersion: 4}}, "gamma", 2},
		{"poor fit: gamma with the gaps' cv, clamped to the spec's range", ArrivalFit{CV: 130, Gaps: Choice{Grade: Poor}}, "gamma", 100},
		{"best gamma shape 0.25: cv 2", ArrivalFit{Gaps: Choice{Fits: []Fit{{Family: FamilyGamma, Params: map[string]float64{"shape": 0.25}}}}}, "gamma", 2},
		{"best lognormal is not stateable: next Weibull of shape 1 has cv 1", ArrivalFit{Gaps: Choice{Fits: []Fit{
			{Family: FamilyLogNormal}, {Family: FamilyWeibull, Params: map[string]float64{"shape": 1}}}}}, "weibull", 1},
	}
	for _, tt := range tests {
		p := tt.a.Process()
		if p.Name != tt.name || math.Abs(p.CV-tt.cv) > 1e-9 {
			t.Errorf("%s: got %s cv %g, want %s cv %g", tt.reason, p.Name, p.CV, tt.name, tt.cv)
		}
	}
}

func TestWeibullCV(t *testing.T) {
	t.Parallel()
	tests := []struct{ k, want float64 }{
		{1, 1},                     // the exponential
		{2, 0.5227232008770633},    // Rayleigh: √(4/π − 1)
		{0.5, math.Sqrt(24/4 - 1)}, // Γ(5)/Γ(3)² − 1 = 24/4 − 1
	}
	for _, tt := range tests {
		if got := WeibullCV(tt.k); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("WeibullCV(%g) = %g, want %g", tt.k, got, tt.want)
		}
	}
}
