package compare

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// lognormal draws n sorted values exp(N(0, σ²))·scale.
func lognormal(rng *rand.Rand, n int, sigma, scale float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = scale * math.Exp(sigma*rng.NormFloat64())
	}
	slices.Sort(v)
	return v
}

func TestBootstrapIsDeterministic(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	xb, xc := lognormal(rng, 500, 0.5, 1), lognormal(rng, 400, 0.5, 1.1)
	a := newResampler(7, "ttft").bootstrap(xb, xc, latencyStats, 300, relative)
	b := newResampler(7, "ttft").bootstrap(xb, xc, latencyStats, 300, relative)
	c := newResampler(8, "ttft").bootstrap(xb, xc, latencyStats, 300, relative)
	d := newResampler(7, "e2e").bootstrap(xb, xc, latencyStats, 300, relative)
	for i := range latencyStats {
		if !slices.Equal(a[i], b[i]) {
			t.Errorf("%s: two runs with one seed differ", latencyStats[i].name)
		}
		if slices.Equal(a[i], c[i]) || slices.Equal(a[i], d[i]) {
			t.Errorf("%s: another seed or metric name drew the same resamples", latencyStats[i].name)
		}
	}
}

// TestDrawMatchesSortedResample replays the generator's draws as an
// explicit resample, sorts it, and checks the counting walk gives the
// same nearest-rank percentiles and mean.
func TestDrawMatchesSortedResample(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 2, 7, 100, 1001} {
		v := lognormal(rand.New(rand.NewPCG(uint64(n), 1)), n, 1, 1)
		r := newResampler(5, "x")
		replay := newResampler(5, "x")
		for range 20 {
			got := make([]float64, len(latencyStats))
			r.draw(v, latencyStats, got)
			res := make([]float64, n)
			for i := range res {
				res[i] = v[replay.rng.IntN(n)]
			}
			slices.Sort(res)
			want := make([]float64, len(latencyStats))
			statistics(res, latencyStats, want)
			for i, s := range latencyStats {
				if d := got[i] - want[i]; d > 1e-9*want[i] || d < -1e-9*want[i] {
					t.Fatalf("n %d, %s: walk %g, sorted resample %g", n, s.name, got[i], want[i])
				}
			}
		}
	}
}

func TestPercentileInterval(t *testing.T) {
	t.Parallel()
	d := make([]float64, 1000)
	for i := range d {
		d[i] = float64(i + 1)
	}
	tests := []struct {
		reason string
		alpha  float64
		want   Interval
	}{
		{"95%: the 25th and 975th of 1000", 0.05, Interval{25, 975}},
		{"99%: the 5th and 995th", 0.01, Interval{5, 995}},
		{"80%: the 100th and 900th", 0.2, Interval{100, 900}},
	}
	for _, tt := range tests {
		if got, ok := percentileInterval(d, tt.alpha); !ok || got != tt.want {
			t.Errorf("%s: got %v %v, want %v", tt.reason, got, ok, tt.want)
		}
	}
	if _, ok := percentileInterval([]float64{-1, 0, math.Inf(1)}, 0.05); ok {
		t.Error("an infinite delta gave an interval")
	}
}

// TestBootstrapCoversTheShift: a candidate 20% slower has a p50 and mean
// delta near +20%, and the interval holds it; the same distribution's
// interval holds 0.
func TestBootstrapCoversTheShift(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	xb, same, slow := lognormal(rng, 2000, 0.5, 1), lognormal(rng, 2000, 0.5, 1), lognormal(rng, 2000, 0.5, 1.2)
	stats := []stat{{"p50", 50}, {"mean", 0}}
	shifted := newResampler(1, "x").bootstrap(xb, slow, stats, 1000, relative)
	noise := newResampler(1, "x").bootstrap(xb, same, stats, 1000, relative)
	for i, s := range stats {
		iv, _ := percentileInterval(shifted[i], 0.05)
		if iv.Lo > 0.2 || iv.Hi < 0.2 || !iv.Excludes0() || iv.Hi-iv.Lo > 0.15 {
			t.Errorf("%s of a 20%% slower run: interval %+v", s.name, iv)
		}
		if iv, _ := percentileInterval(noise[i], 0.05); iv.Excludes0() {
			t.Errorf("%s of the same distribution: interval %+v excludes 0", s.name, iv)
		}
	}
}
