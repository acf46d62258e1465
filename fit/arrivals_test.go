package fit

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"surge/arrival"
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

// gammaTimes returns n arrival times of a gamma renewal process of the
// given rate and CV, from start.
func gammaTimes(n int, rate, cv, start float64, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 4))
	k := 1 / (cv * cv)
	g := distuv.Gamma{Alpha: k, Beta: k * rate, Src: r}
	ts := make([]float64, n)
	t := start
	for i := range ts {
		t += g.Rand()
		ts[i] = t
	}
	return ts
}

// TestSelectCurve keeps a rate curve only where the counts change beyond
// their noise: a step from 1/s to 3/s at 600 s is found at a width that
// divides it, with the step's rates; steady Poisson and steady bursty
// (gamma CV 3) arrivals stay flat, the latter because its counts'
// dispersion (about 9) scales the likelihood ratio down. The curve's mass
// is the count, and it is 0 outside the active span.
func TestSelectCurve(t *testing.T) {
	t.Parallel()
	step := append(poissonTimes(600, 1, 5), nil...)
	step = slices.DeleteFunc(step, func(x float64) bool { return x >= 600 })
	for _, x := range poissonTimes(1800, 3, 6) {
		if x < 600 {
			step = append(step, 600+x)
		}
	}
	late := gammaTimes(4000, 2, 1, 39600, 7)
	tests := []struct {
		reason string
		times  []float64
		flat   bool
	}{
		{"a step from 1/s to 3/s", step, false},
		{"steady Poisson at 4/s", poissonTimes(4000, 4, 9), true},
		{"steady gamma arrivals of CV 3", gammaTimes(8000, 4, 3, 0, 8), true},
		{"steady Poisson starting late on the clock", late, true},
	}
	for _, tt := range tests {
		c, err := SelectCurve(tt.times, 240)
		if err != nil {
			t.Fatal(err)
		}
		if c.Flat() != tt.flat || c.Tried == 0 {
			t.Errorf("%s: flat %v (width %g, LR %.1f, dispersion %.3g, score %.1f of %d widths), want flat %v",
				tt.reason, c.Flat(), c.Width, c.LR, c.Dispersion, c.Score, c.Tried, tt.flat)
		}
		if m := c.Cumulative(math.Inf(1)); !within(m, float64(len(tt.times)), 1e-9) {
			t.Errorf("%s: mass %g, want the count %d", tt.reason, m, len(tt.times))
		}
		if c.RateAt(tt.times[0]-1) != 0 || c.RateAt(tt.times[len(tt.times)-1]+1) != 0 {
			t.Errorf("%s: a rate outside the active span", tt.reason)
		}
	}
	c, _ := SelectCurve(step, 240)
	if math.Mod(600, c.Width) != 0 || !within(c.RateAt(300), 1, 0.2) || !within(c.RateAt(900), 3, 0.1) {
		t.Errorf("the step: width %g, rates %g and %g; want a divisor of 600, 1 and 3", c.Width, c.RateAt(300), c.RateAt(900))
	}
	// Mapped through the curve, the arrivals become a unit-rate process.
	u := c.Unit(step)
	if !within((u[len(u)-1]-u[0])/float64(len(u)-1), 1, 0.01) {
		t.Errorf("unit-rate gaps average %g, want 1", (u[len(u)-1]-u[0])/float64(len(u)-1))
	}
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
	gamma := Law{Fit: Fit{Family: FamilyGamma, Params: map[string]float64{"shape": 0.25}}, BIC: 10}
	weibull := Law{Fit: Fit{Family: FamilyWeibull, Params: map[string]float64{"shape": 1}}, BIC: 12}
	onoff := Law{Fit: Fit{Family: FamilyOnOff, Params: map[string]float64{"burst": 98, "idle": 0.743, "cv": 1.69}}}
	tests := []struct {
		reason string
		a      ArrivalFit
		name   string
		cv     float64
	}{
		{"grid with Poisson counts", ArrivalFit{Grid: Grid{Detected: true, Period: 3, Dispersion: 1.1}}, "poisson", 0},
		{"grid with bursty counts: cv from dispersion", ArrivalFit{Grid: Grid{Detected: true, Period: 3, Dispersion: 4}}, "gamma", 2},
		{"best gamma shape 0.25: cv 2", ArrivalFit{Laws: []Law{gamma, weibull}}, "gamma", 2},
		{"a refused gamma: the next law, Weibull of shape 1, cv 1", ArrivalFit{Laws: []Law{{Fit: gamma.Fit, Refused: "ties"}, weibull}}, "weibull", 1},
		{"on/off: the cv within its bursts", ArrivalFit{Laws: []Law{onoff}}, "onoff", 1.69},
		{"every law refused: Poisson", ArrivalFit{Laws: []Law{{Fit: gamma.Fit, Refused: "ties"}}}, "poisson", 0},
	}
	for _, tt := range tests {
		p := tt.a.Process()
		if p.Name != tt.name || math.Abs(p.CV-tt.cv) > 1e-9 {
			t.Errorf("%s: got %s cv %g, want %s cv %g", tt.reason, p.Name, p.CV, tt.name, tt.cv)
		}
	}
	if p := (ArrivalFit{Laws: []Law{onoff}}).Process(); p.Burst != 98 || p.Idle != 0.743 {
		t.Errorf("on/off: burst %g idle %g, want 98 and 0.743", p.Burst, p.Idle)
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

// scheduled returns the arrival times in seconds of an arrival process,
// one hour of it at 2/s, rounded to the microsecond as traces are.
func scheduled(t *testing.T, c arrival.Config, seed uint64) []float64 {
	t.Helper()
	c.Rate = 2
	at, err := c.Schedule(rand.New(rand.NewPCG(seed, 5)), 0, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	ts := make([]float64, len(at))
	for i, a := range at {
		ts[i] = a.Seconds()
	}
	return ts
}

// TestChooseLaw picks the law a stream was drawn from by BIC: Poisson
// for Poisson arrivals, on/off for bursts and idle periods (with about
// their burst size and idle share), and refuses a gamma law that would
// tie the microsecond arrivals of lognormal gaps of CV 13.
func TestChooseLaw(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason  string
		c       arrival.Config
		want    Family
		refused Family
	}{
		{"Poisson", arrival.Config{}, FamilyExponential, ""},
		{"on/off: bursts of 50, idle 60% of the time", arrival.Config{Process: arrival.OnOff, Burst: 50, Idle: 0.6}, FamilyOnOff, ""},
		{"lognormal gaps of cv 13", arrival.Config{Process: arrival.LogNormal, CV: 13}, FamilyLogNormal, FamilyGamma},
	}
	for _, tt := range tests {
		ts := scheduled(t, tt.c, 3)
		a, err := Arrivals(ts, ArrivalOptions{Flat: true})
		if err != nil {
			t.Fatal(err)
		}
		if a.Laws[0].Family != tt.want || a.Laws[0].Refused != "" {
			t.Errorf("%s: best %s (%s), want %s: %s", tt.reason, a.Laws[0].Family, a.Laws[0].Refused, tt.want, lawsComment(a.Laws))
		}
		if tt.refused != "" && !slices.ContainsFunc(a.Laws, func(l Law) bool { return l.Family == tt.refused && strings.Contains(l.Refused, "would tie") }) {
			t.Errorf("%s: %s not refused for its ties: %s", tt.reason, tt.refused, lawsComment(a.Laws))
		}
		if p := a.Process(); tt.want == FamilyOnOff && (!within(p.Burst, 50, 0.35) || math.Abs(p.Idle-0.6) > 0.1) {
			t.Errorf("%s: burst %g idle %g, want about 50 and 0.6", tt.reason, p.Burst, p.Idle)
		}
	}
}
