package arrival

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// seeded returns the test's random source for seed.
func seeded(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x5eed))
}

// mustSchedule is Schedule that fails the test on error.
func mustSchedule(t testing.TB, c Config, seed uint64, n int, horizon time.Duration) []time.Duration {
	t.Helper()
	offs, err := c.Schedule(seeded(seed), n, horizon)
	if err != nil {
		t.Fatalf("Schedule: %v", err)
	}
	return offs
}

// gapSums accumulates inter-arrival gaps in seconds.
type gapSums struct{ n, s, s2 float64 }

func (g *gapSums) add(offs []time.Duration) {
	for i := 1; i < len(offs); i++ {
		x := (offs[i] - offs[i-1]).Seconds()
		g.n++
		g.s += x
		g.s2 += x * x
	}
}

// rate is the achieved rate (n−1)/(tₙ − t₁): gaps over the span they cover,
// which leaves out the first arrival's (equilibrium) offset.
func (g gapSums) rate() float64 { return g.n / g.s }

// cv is the sample CV of the gaps.
func (g gapSums) cv() float64 {
	m := g.s / g.n
	return math.Sqrt(g.s2/g.n-m*m) / m
}

// TestScheduleRateAndCV is the acceptance check: 20,000 arrivals at
// 10/s must achieve the rate within 2% and the gap CV within 5%.
//
// The achieved rate over n gaps has a standard error of CV/√n: 0.7% for
// Poisson, but 1.4% at CV 2 and 2.8% at CV 4, so for those a single stream
// misses 2% by pure chance about 15% and 50% of the time (over seeds 1–200:
// gamma CV 2 missed 34, gamma CV 4 104, weibull CV 2 26, poisson 2). Where
// the bounds are at least 2.8 standard errors (perStream) the fixed seed 1
// must meet them alone; every row must meet them pooled over 32 independent
// streams (seeds 1–32, 640,000 gaps, standard errors ≤ 0.5%), and the spread
// of the 32 per-stream rates must be the CV/√n that independent gaps give —
// so a miss of a single heavy stream is noise, not bias, and a sampler that
// smoothed or clumped gaps would fail.
func TestScheduleRateAndCV(t *testing.T) {
	t.Parallel()
	const n, rate, streams = 20000, 10.0, 32
	tests := []struct {
		p         Process
		cv        float64
		perStream bool
		reason    string
	}{
		{Poisson, 1, true, "rate SE 0.7%, CV SE 0.7%"},
		{Gamma, 0.5, true, "rate SE 0.35%, CV SE 0.6%"},
		{Gamma, 2, false, "rate SE 1.4%: pooled only"},
		{Gamma, 4, false, "rate SE 2.8%: pooled only"},
		{Weibull, 2, false, "rate SE 1.4%, CV SE about 2.3%: pooled only"},
	}
	for _, tt := range tests {
		t.Run(string(tt.p), func(t *testing.T) {
			t.Parallel()
			c := Config{Process: tt.p, Rate: rate, CV: tt.cv}
			var pooled gapSums
			var dev []float64 // per-stream log(rate/10)
			for seed := uint64(1); seed <= streams; seed++ {
				var g gapSums
				g.add(mustSchedule(t, c, seed, n, 0))
				pooled.n, pooled.s, pooled.s2 = pooled.n+g.n, pooled.s+g.s, pooled.s2+g.s2
				dev = append(dev, math.Log(g.rate()/rate))
				if seed == 1 {
					t.Logf("seed 1: rate %.4f/s, cv %.4f", g.rate(), g.cv())
					if tt.perStream && (math.Abs(g.rate()/rate-1) > 0.02 || math.Abs(g.cv()/tt.cv-1) > 0.05) {
						t.Errorf("seed 1: rate %v/s, cv %v; want 10/s ± 2%%, %v ± 5%% (%s)", g.rate(), g.cv(), tt.cv, tt.reason)
					}
				}
			}
			t.Logf("pooled: rate %.4f/s, cv %.4f; per-stream rate sd %.4f (independent gaps: %.4f)", pooled.rate(), pooled.cv(), stddev(dev), tt.cv/math.Sqrt(n-1))
			if math.Abs(pooled.rate()/rate-1) > 0.02 || math.Abs(pooled.cv()/tt.cv-1) > 0.05 {
				t.Errorf("pooled: rate %v/s, cv %v; want 10/s ± 2%%, %v ± 5%% (%s)", pooled.rate(), pooled.cv(), tt.cv, tt.reason)
			}
			// The sd of 32 normal estimates has a relative standard error of
			// 1/√62 ≈ 13%; accept ±40%.
			sd := stddev(dev)
			if want := tt.cv / math.Sqrt(n-1); math.Abs(sd/want-1) > 0.4 {
				t.Errorf("per-stream rate sd %.4f; want %.4f ± 40%% (%s)", sd, want, tt.reason)
			}
		})
	}
}

// stddev returns the sample standard deviation of xs.
func stddev(xs []float64) float64 {
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	n := float64(len(xs))
	return math.Sqrt((s2 - s*s/n) / (n - 1))
}

func TestQuantise(t *testing.T) {
	t.Parallel()
	tests := []struct {
		t      float64 // seconds
		want   time.Duration
		ok     bool
		reason string
	}{
		{0, 0, true, "zero"},
		{0.49e-6, 0, true, "below half a µs rounds down"},
		{0.5e-6, time.Microsecond, true, "a half rounds up"},
		{1.2345678, 1234568 * time.Microsecond, true, "nearest, not truncated"},
		{3600.0000004, time.Hour, true, "sub-µs noise far out is dropped"},
		{9.3e9, 0, false, "past time.Duration's 292 years"},
		{math.Inf(1), 0, false, "no time at all"},
	}
	for _, tt := range tests {
		if got, ok := quantise(tt.t); got != tt.want || ok != tt.ok {
			t.Errorf("quantise(%v) = %v, %v; want %v, %v (%s)", tt.t, got, ok, tt.want, tt.ok, tt.reason)
		}
	}
}

func TestScheduleConstant(t *testing.T) {
	t.Parallel()
	offs := mustSchedule(t, Config{Process: Constant, Rate: 10}, 1, 20000, 0)
	if offs[0] < 0 || offs[0] >= 100*time.Millisecond {
		t.Errorf("first offset %v; want a phase in [0, 100ms)", offs[0])
	}
	// Equal up to the rounding to whole microseconds.
	for i := 1; i < len(offs); i++ {
		if gap := offs[i] - offs[i-1]; (gap - 100*time.Millisecond).Abs() > time.Microsecond {
			t.Fatalf("gap %d = %v; want 100ms", i, gap)
		}
	}
}

func TestScheduleDeterminism(t *testing.T) {
	t.Parallel()
	for _, c := range []Config{
		{Process: Gamma, CV: 3, Rate: 50},
		{Process: Weibull, CV: 0.7, Curve: combined.Curve},
		{Process: Constant, Curve: stepped.Curve},
	} {
		a := mustSchedule(t, c, 9, 3000, 0)
		b := mustSchedule(t, c, 9, 3000, 0)
		long := mustSchedule(t, c, 9, 6000, 0)
		other := mustSchedule(t, c, 10, 3000, 0)
		if !slices.Equal(a, b) {
			t.Errorf("%s: the same seed gave different offsets", c.Process)
		}
		if len(long) != 6000 || !slices.Equal(a, long[:3000]) {
			t.Errorf("%s: Schedule(3000) is not a prefix of Schedule(6000)", c.Process)
		}
		if slices.Equal(a, other) {
			t.Errorf("%s: seeds 9 and 10 gave the same offsets", c.Process)
		}
		if !slices.IsSorted(long) {
			t.Errorf("%s: offsets decrease", c.Process)
		}
		for _, o := range long {
			if o%time.Microsecond != 0 {
				t.Fatalf("%s: offset %v is not whole microseconds", c.Process, o)
			}
		}
		horizon := long[4000]
		if h := mustSchedule(t, c, 9, 0, horizon); !slices.Equal(h, long[:len(h)]) || len(h) > 4000 || h[len(h)-1] >= horizon {
			t.Errorf("%s: the horizon-limited schedule is not the prefix before the horizon", c.Process)
		}
		s := c.Stream(seeded(9))
		for i, want := range long {
			if got, ok := s.Next(); !ok || got != want {
				t.Fatalf("%s: Stream arrival %d = %v, %v; Schedule has %v", c.Process, i, got, ok, want)
			}
		}
	}
}

func TestScheduleLimits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		c       Config
		n       int
		horizon time.Duration
		wantLen func(int) bool
		wantErr bool
		reason  string
	}{
		{"count", flat, 123, 0, func(n int) bool { return n == 123 }, false, "exactly n"},
		{"count before horizon", flat, 10, time.Hour, func(n int) bool { return n == 10 }, false, "n ends first"},
		{"horizon before count", flat, 1e6, 10 * time.Second, func(n int) bool { return n > 60 && n < 140 }, false, "about 100 in 10 s"},
		{"mass runs out", rampDown, 1e6, 0, func(n int) bool { return n > 250 && n < 350 }, false, "a ramp to 0 holds about 300"},
		{"no limit", flat, 0, 0, nil, true, "an unbounded schedule is refused"},
		{"invalid", Config{Rate: -1}, 10, 0, nil, true, "validation errors are returned"},
	}
	for _, tt := range tests {
		offs, err := tt.c.Schedule(seeded(1), tt.n, tt.horizon)
		if (err != nil) != tt.wantErr || err == nil && !tt.wantLen(len(offs)) {
			t.Errorf("%s: Schedule = %d offsets, %v (%s)", tt.name, len(offs), err, tt.reason)
		}
	}
}

func TestStream(t *testing.T) {
	t.Parallel()
	s := Config{Process: "bogus", Rate: 1}.Stream(seeded(1))
	if _, ok := s.Next(); ok || s.Err() == nil {
		t.Errorf("a Stream of an invalid config yielded an arrival or no error")
	}
	s = rampDown.Stream(seeded(1))
	last := time.Duration(0)
	for {
		o, ok := s.Next()
		if !ok {
			break
		}
		last = o
	}
	if _, ok := s.Next(); ok || last > 30*time.Second || s.Err() != nil {
		t.Errorf("a finished Stream restarted, ran past the ramp's end (%v) or erred", last)
	}
}

// TestStreamAllocs guards the hot path: drawing an arrival allocates nothing.
func TestStreamAllocs(t *testing.T) {
	for _, c := range []Config{flat, {Process: Gamma, CV: 0.3, Curve: combined.Curve}, {Process: Weibull, CV: 2, Rate: 5}} {
		s := c.Stream(seeded(1))
		if a := testing.AllocsPerRun(1000, func() { s.Next() }); a != 0 {
			t.Errorf("%s: %v allocations per arrival", c.Process, a)
		}
	}
}

func BenchmarkSchedule(b *testing.B) {
	for _, bc := range []struct {
		name string
		c    Config
	}{
		{"poisson", Config{Rate: 1000}},
		{"gamma", Config{Process: Gamma, CV: 2, Rate: 1000}},
		{"gamma_cv0.5", Config{Process: Gamma, CV: 0.5, Rate: 1000}},
		{"weibull", Config{Process: Weibull, CV: 2, Rate: 1000}},
		{"poisson_diurnal_stages", Config{Curve: combined.Curve}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			const n = 100000
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := bc.c.Schedule(seeded(uint64(i)), n, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "arrivals/s")
		})
	}
}

// TestCount sends exactly Count arrivals over a curve that ends, 1,000
// over [0, 100 s) at 10/s and none after: every seed gives 1,000, where
// the uncounted stream's count varies by about CV·√1000. Poisson arrivals
// given their count are uniform, so the first half holds 500 ± 4·√250;
// gamma gaps keep their CV.
func TestCount(t *testing.T) {
	t.Parallel()
	stages := Curve{Stages: []Stage{{0, 10}, {100 * time.Second, 10}, {100 * time.Second, 0}}}
	for _, tt := range []struct {
		p  Process
		cv float64
	}{{Poisson, 0}, {Gamma, 3}, {OnOff, 0}} {
		c := Config{Process: tt.p, CV: tt.cv, Curve: stages, Count: 1000}
		if tt.p == OnOff {
			c.Burst, c.Idle = 20, 0.5
		}
		var counts []int
		for seed := range uint64(5) {
			at, err := c.Schedule(rand.New(rand.NewPCG(seed, 3)), 0, time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			counts = append(counts, len(at))
			half := 0
			for _, a := range at {
				if a < 50*time.Second {
					half++
				}
			}
			if tt.p == Poisson && (half < 500-4*16 || half > 500+4*16) {
				t.Errorf("poisson seed %d: %d of 1000 in the first half", seed, half)
			}
			if tt.p == Gamma {
				if _, cv := gapMoments(at); math.Abs(cv/3-1) > 0.25 {
					t.Errorf("gamma seed %d: gap cv %.3g, want about 3", seed, cv)
				}
			}
		}
		if slices.ContainsFunc(counts, func(n int) bool { return n != 1000 }) {
			t.Errorf("%s: counts %v, want 1000 each", tt.p, counts)
		}
	}
	if err := (Config{Rate: 1, Count: 10}).Validate(); err == nil || !strings.Contains(err.Error(), "needs a rate curve that ends at rate 0") {
		t.Errorf("a count without an end: %v", err)
	}
}

// gapMoments returns the mean and CV of the gaps of sorted offsets.
func gapMoments(at []time.Duration) (mean, cv float64) {
	i := 0
	return moments(len(at)-1, func() float64 { i++; return (at[i] - at[i-1]).Seconds() })
}
