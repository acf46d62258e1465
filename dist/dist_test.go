package dist

import (
	"math"
	"slices"
	"sync"
	"testing"
)

// TestFit checks every fixture's sampler against its own CDF and Mean: with
// a fixed seed and 20,000 samples the Kolmogorov–Smirnov distance must be
// below 0.02 (the 1% critical value is about 0.0115) and the sample mean
// within 2% of Mean().
func TestFit(t *testing.T) {
	t.Parallel()
	for _, f := range fixtures() {
		t.Run(f.str, func(t *testing.T) {
			t.Parallel()
			d := mustBuild(t, f)
			xs := draw(d, 20000, 1)
			mean := average(xs)
			if ks := ksDistance(xs, d.CDF); ks >= 0.02 {
				t.Errorf("KS distance %.4f, want < 0.02", ks)
			}
			if f.noMean != "" {
				return
			}
			if rel := math.Abs(mean-d.Mean()) / math.Abs(d.Mean()); rel > 0.02 {
				t.Errorf("sample mean %g, Mean() %g: off by %.2f%%, want <= 2%%", mean, d.Mean(), 100*rel)
			}
		})
	}
}

// TestMeanMatchesQuadrature checks Mean() (closed forms, clamps, truncation,
// mixtures) against an independent integral of the quantile function,
// E[X] = ∫_0^1 Q(p) dp, to 0.1%.
func TestMeanMatchesQuadrature(t *testing.T) {
	t.Parallel()
	for _, f := range fixtures() {
		t.Run(f.str, func(t *testing.T) {
			t.Parallel()
			d := mustBuild(t, f)
			want := quadMean(d.Quantile)
			if rel := math.Abs(d.Mean()-want) / math.Abs(want); !(rel < 1e-3) {
				t.Errorf("Mean() = %g, ∫Q(p)dp = %g: off by %.3g%%", d.Mean(), want, 100*rel)
			}
		})
	}
}

// TestQuantileCDF checks that Quantile inverts CDF: CDF(Q(p)) = p for
// continuous distributions; for those with point masses, Q(p) is the
// smallest x with CDF(x) >= p, that is CDF(Q(p)) >= p while CDF is below p
// a little (one part in a million) left of Q(p).
func TestQuantileCDF(t *testing.T) {
	t.Parallel()
	ps := []float64{1e-6, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1 - 1e-6}
	for _, f := range fixtures() {
		t.Run(f.str, func(t *testing.T) {
			t.Parallel()
			d := mustBuild(t, f)
			for _, p := range ps {
				x := d.Quantile(p)
				got := d.CDF(x)
				if !f.atoms {
					if math.Abs(got-p) > 1e-9*min(p, 1-p)+1e-14 {
						t.Errorf("CDF(Quantile(%g)) = CDF(%g) = %.12g", p, x, got)
					}
					continue
				}
				left := x - 1e-6*max(1, math.Abs(x))
				if below := d.CDF(left); got < p-1e-14 || below >= p {
					t.Errorf("Quantile(%g) = %g, but CDF there is %g and at %g it is %g", p, x, got, left, below)
				}
			}
			if q := d.Quantile(1.5); !math.IsNaN(q) {
				t.Errorf("Quantile(1.5) = %g, want NaN", q)
			}
		})
	}
}

// TestDeterministic checks that a seed fixes the sample sequence.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	for _, f := range fixtures() {
		d := mustBuild(t, f)
		a, b := draw(d, 100, 7), draw(d, 100, 7)
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%s: sample %d differs between runs with one seed: %g, %g", f.str, i, a[i], b[i])
			}
		}
	}
}

// TestConcurrentSample checks that goroutines sampling one distribution,
// each with its own generator, get the sequences they would alone: sampling
// shares no mutable state.
func TestConcurrentSample(t *testing.T) {
	t.Parallel()
	for _, f := range fixtures() {
		d := mustBuild(t, f)
		var wg sync.WaitGroup
		got := make([][]float64, 4)
		for g := range got {
			wg.Go(func() { got[g] = draw(d, 500, uint64(g)) })
		}
		wg.Wait()
		for g := range got {
			if !slices.Equal(got[g], draw(d, 500, uint64(g))) {
				t.Errorf("%s: goroutine %d drew a different sequence", f.str, g)
			}
		}
	}
}

// TestSampleAllocs checks that sampling allocates nothing. It cannot run in
// parallel: AllocsPerRun counts the whole process's allocations.
func TestSampleAllocs(t *testing.T) {
	for _, f := range fixtures() {
		d := mustBuild(t, f)
		r := newRand(1)
		if n := testing.AllocsPerRun(1000, func() { d.Sample(r) }); n != 0 {
			t.Errorf("%s: Sample allocates %g times per call", f.str, n)
		}
	}
}

// BenchmarkSample measures one draw per kind and variant.
func BenchmarkSample(b *testing.B) {
	for _, f := range fixtures() {
		b.Run(f.str, func(b *testing.B) {
			d := mustBuild(b, f)
			r := newRand(1)
			b.ReportAllocs()
			s := 0.0
			for b.Loop() {
				s += d.Sample(r)
			}
			_ = s
		})
	}
}
