package arrival

import (
	"math"
	"math/rand/v2"
	"surge/dist"
	"testing"
)

func TestCVFromBurstiness(t *testing.T) {
	t.Parallel()
	tests := []struct {
		b, want float64
		reason  string
	}{
		{1, 1, "burstiness 1 is Poisson"},
		{4, 0.5, "smoother than Poisson"},
		{0.25, 2, "burstier than Poisson"},
		{0, math.NaN(), "no gamma law has shape 0"},
		{-1, math.NaN(), "negative shape"},
	}
	for _, tt := range tests {
		got := CVFromBurstiness(tt.b)
		if !(math.Abs(got-tt.want) < 1e-12 || math.IsNaN(got) && math.IsNaN(tt.want)) {
			t.Errorf("CVFromBurstiness(%v) = %v; want %v (%s)", tt.b, got, tt.want, tt.reason)
		}
		if back := BurstinessFromCV(got); !math.IsNaN(got) && math.Abs(back-tt.b) > 1e-12 {
			t.Errorf("BurstinessFromCV(%v) = %v; want %v", got, back, tt.b)
		}
	}
}

// TestWeibullShapeCoversCVRange checks that every CV Validate accepts for
// Weibull gaps is solved accurately by dist.WeibullShape.
func TestWeibullShapeCoversCVRange(t *testing.T) {
	t.Parallel()
	for _, cv := range []float64{minCV, 0.01, 0.3, 1, 3, 30, maxCV} {
		k, err := dist.WeibullShape(cv)
		if got := weibullCV(k); err != nil || math.Abs(got-cv) > 1e-9*cv {
			t.Errorf("weibullCV(WeibullShape(%v)) = %v, %v", cv, got, err)
		}
	}
}

// moments returns the sample mean and CV of n draws.
func moments(n int, draw func() float64) (mean, cv float64) {
	var s, s2 float64
	for range n {
		x := draw()
		s += x
		s2 += x * x
	}
	mean = s / float64(n)
	return mean, math.Sqrt(s2/float64(n)-mean*mean) / mean
}

// TestLawMoments draws 400,000 unit-rate gaps per law. The tolerances are at
// least 4 standard errors: the mean's is CV/√n (0.3% at CV 2); the CV's grows
// with the kurtosis and is about 1% for gamma CV 2 and 2% for weibull CV 2.
func TestLawMoments(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p              Process
		cv             float64
		tolMean, tolCV float64 // relative
		reason         string
	}{
		{Constant, 0, 0, 0, "exactly 1"},
		{Poisson, 1, 0.01, 0.01, "exponential"},
		{Gamma, 0.5, 0.005, 0.01, "shape 4, the Marsaglia–Tsang core"},
		{Gamma, 1, 0.01, 0.01, "shape 1 equals the exponential"},
		{Gamma, 2, 0.015, 0.04, "shape 1/4, the boosted small-shape path"},
		{Weibull, 0.5, 0.005, 0.01, "shape above 1"},
		{Weibull, 2, 0.015, 0.08, "shape about 0.54, a heavy tail"},
		{LogNormal, 0.5, 0.005, 0.02, "σ² = ln 1.25"},
		{LogNormal, 2, 0.015, 0.15, "σ² = ln 5, a heavy tail"},
	}
	for _, tt := range tests {
		l := newLaw(Config{Process: tt.p, CV: tt.cv})
		r := rand.New(rand.NewPCG(7, 11))
		mean, cv := moments(400000, func() float64 { return l.gap(r) })
		bad := math.Abs(mean-1) > tt.tolMean
		if tt.cv == 0 {
			bad = bad || cv != 0
		} else {
			bad = bad || math.Abs(cv/tt.cv-1) > tt.tolCV
		}
		if bad {
			t.Errorf("%s cv %v: gap mean %v, cv %v (%s)", tt.p, tt.cv, mean, cv, tt.reason)
		}
	}
}

// TestFirstIsEquilibrium checks the first epoch's law by its mean, which for
// the forward-recurrence time is E[G²]/(2E[G]) = (1 + CV²)/2.
func TestFirstIsEquilibrium(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p      Process
		cv     float64
		tol    float64 // relative, ≥ 4 standard errors over 200,000 draws
		reason string
	}{
		{Constant, 0, 0.005, "uniform on [0, 1): mean 1/2"},
		{Poisson, 1, 0.01, "memoryless: mean 1"},
		{Gamma, 0.5, 0.01, "mean 5/8"},
		{Gamma, 4, 0.02, "mean 17/2"},
		{Weibull, 2, 0.03, "mean 5/2"},
		{LogNormal, 1.5, 0.03, "mean 13/8"},
	}
	for _, tt := range tests {
		l := newLaw(Config{Process: tt.p, CV: tt.cv})
		r := rand.New(rand.NewPCG(3, 5))
		mean, _ := moments(200000, func() float64 { return l.first(r) })
		if want := (1 + tt.cv*tt.cv) / 2; math.Abs(mean/want-1) > tt.tol {
			t.Errorf("%s cv %v: first epoch mean %v; want %v (%s)", tt.p, tt.cv, mean, want, tt.reason)
		}
	}
}

// TestOnOff draws the gaps of on/off streams two ways: from the
// hyperexponential law, and by simulating the bursts and idle periods
// themselves (exponential lengths, Poisson arrivals while on). The mean
// (1), the CV (OnOffCV) and the share of gaps longer than 3 mean gaps
// must agree, and the first epoch's mean must be (1 + CV²)/2.
func TestOnOff(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ burst, idle float64 }{{40, 0.3}, {2, 0.9}, {100, 0.2}} {
		c := Config{Process: OnOff, Burst: tt.burst, Idle: tt.idle}
		l := newLaw(c)
		r := rand.New(rand.NewPCG(5, 9))
		const n = 400000
		mean, cv := moments(n, func() float64 { return l.gap(r) })
		want := OnOffCV(tt.burst, tt.idle)
		simMean, simCV, simLong := simulateOnOff(r, tt.burst, tt.idle, n)
		long := 0
		for range n {
			if l.gap(r) > 3 {
				long++
			}
		}
		if math.Abs(mean-1) > 0.02 || math.Abs(cv/want-1) > 0.05 || math.Abs(simMean-1) > 0.03 || math.Abs(simCV/want-1) > 0.06 ||
			math.Abs(float64(long)/n-simLong) > 0.005 {
			t.Errorf("burst %g idle %g: law mean %.4f cv %.4f, simulated mean %.4f cv %.4f, OnOffCV %.4f; gaps > 3: %.4f vs %.4f",
				tt.burst, tt.idle, mean, cv, simMean, simCV, want, float64(long)/n, simLong)
		}
		first, _ := moments(n, func() float64 { return l.first(r) })
		if w := (1 + want*want) / 2; math.Abs(first/w-1) > 0.04 {
			t.Errorf("burst %g idle %g: first epoch mean %.4f, want %.4f", tt.burst, tt.idle, first, w)
		}
	}
}

// TestOnOffBursty draws an on/off stream with lognormal gaps of CV 3
// within its bursts: its mean gap is 1 (unit rate), and the share of time
// inside gaps longer than the longest burst gaps is about its idle share.
func TestOnOffBursty(t *testing.T) {
	t.Parallel()
	l := newLaw(Config{Process: OnOff, Burst: 30, Idle: 0.4, CV: 3})
	r := rand.New(rand.NewPCG(8, 1))
	const n = 400000
	mean, cv := moments(n, func() float64 { return l.gap(r) })
	if math.Abs(mean-1) > 0.03 || cv < 3 {
		t.Errorf("mean gap %.4f, cv %.3g; want 1 and above the bursts' 3", mean, cv)
	}
}

// TestOnOffLengthCV draws an on/off stream whose bursts and idle periods
// have lognormal lengths of CV 2: its mean gap stays 1, the arrivals per
// burst have CV² = 1/A + 2² (Poisson counts over lengths of CV 2), and the
// idle periods, read off as the gaps far longer than any within a burst,
// have CV 2 about their mean A·f. Exponential lengths (CV 1) give a count
// CV of about 1 and an idle CV of 1, which the bounds refuse.
func TestOnOffLengthCV(t *testing.T) {
	t.Parallel()
	const burst, idle, lengthCV = 50, 0.99, 2.0
	for _, tt := range []struct {
		cv         float64
		wantCounts float64
	}{{lengthCV, math.Sqrt(1/burst + lengthCV*lengthCV)}, {1, math.Sqrt(1/burst + 1)}} {
		l := newLaw(Config{Process: OnOff, Burst: burst, Idle: idle, BurstCV: tt.cv, IdleCV: tt.cv})
		r := rand.New(rand.NewPCG(3, 7))
		var counts, idles []float64
		sum, k := 0.0, 0.0
		const n = 1_000_000
		for range n {
			g := l.gap(r)
			sum += g
			k++
			if g > 0.5 { // within a burst gaps are Exp(mean 0.01): never above 0.5; idle ones rarely below
				counts, idles, k = append(counts, k), append(idles, g), 0
			}
		}
		cm, ccv := moments(len(counts), func() float64 { v := counts[0]; counts = counts[1:]; return v })
		im, icv := moments(len(idles), func() float64 { v := idles[0]; idles = idles[1:]; return v })
		if math.Abs(sum/n-1) > 0.03 || math.Abs(cm/burst-1) > 0.05 || math.Abs(im/(burst*idle)-1) > 0.05 {
			t.Errorf("length cv %g: mean gap %.4f, arrivals per burst %.4g, idle %.4g; want 1, %g, %g", tt.cv, sum/n, cm, im, float64(burst), burst*idle)
		}
		if math.Abs(ccv/tt.wantCounts-1) > 0.15 || math.Abs(icv/tt.cv-1) > 0.15 {
			t.Errorf("length cv %g: arrivals per burst cv %.3g (want %.3g), idle cv %.3g (want %g)", tt.cv, ccv, tt.wantCounts, icv, tt.cv)
		}
	}
}

// TestOnOffLaws draws an on/off stream whose bursts' lengths, idle
// lengths and rates follow laws scaled by their means: idle periods
// uniform over [10, 30] (scaled to mean A·f, of the uniform's CV
// 10/(20·√3) ≈ 0.289), bursts exponential and every burst at one rate
// (a fixed law). The mean gap stays 1, a burst brings A arrivals, and
// the idle periods keep the uniform's CV and its lower bound, scaled (a
// gap may hold two idle periods, about a burst too short for an arrival).
func TestOnOffLaws(t *testing.T) {
	t.Parallel()
	const burst, idle = 50, 0.99
	l := newLaw(Config{Process: OnOff, Burst: burst, Idle: idle,
		BurstLaw: mustLaw("exponential(mean=7)"), IdleLaw: mustLaw("uniform(min=10,max=30)"), RateLaw: mustLaw("3")})
	r := rand.New(rand.NewPCG(5, 9))
	var counts, idles []float64
	sum, k, lo := 0.0, 0.0, math.Inf(1)
	const n = 1_000_000
	for range n {
		g := l.gap(r)
		sum += g
		k++
		if g > 0.5 { // within a burst gaps are Exp(mean 0.01); idle ones at least 24.75
			counts, idles, k = append(counts, k), append(idles, g), 0
			lo = math.Min(lo, g)
		}
	}
	cm, ccv := moments(len(counts), func() float64 { v := counts[0]; counts = counts[1:]; return v })
	im, icv := moments(len(idles), func() float64 { v := idles[0]; idles = idles[1:]; return v })
	wantIdle, wantCV := burst*idle, 1/(2*math.Sqrt(3))
	if math.Abs(sum/n-1) > 0.03 || math.Abs(cm/burst-1) > 0.05 || math.Abs(im/wantIdle-1) > 0.03 {
		t.Errorf("mean gap %.4f, arrivals per burst %.4g, idle %.4g; want 1, %g, %g", sum/n, cm, im, float64(burst), wantIdle)
	}
	if math.Abs(icv/wantCV-1) > 0.1 || math.Abs(ccv/math.Sqrt(1/burst+1)-1) > 0.15 {
		t.Errorf("idle cv %.3g (want %.3g), arrivals per burst cv %.3g (want %.3g)", icv, wantCV, ccv, math.Sqrt(1/burst+1))
	}
	if lo < wantIdle/2 {
		t.Errorf("shortest idle gap %.4g; the law scaled bounds idle periods below by %.4g", lo, wantIdle/2)
	}
}

// TestOnOffRateCV draws an on/off stream whose bursts' rates vary by a
// lognormal factor of CV 1: the mean gap stays 1, and the rate of each
// long burst, its N arrivals over its span, varies with CV 1 once the
// Poisson noise of its count (CV² 1/N) is taken out; with rate_cv 0 it
// varies by that noise alone.
func TestOnOffRateCV(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ cv, lo, hi float64 }{{1, 0.85, 1.15}, {0, 0, 0.1}} {
		l := newLaw(Config{Process: OnOff, Burst: 500, Idle: 0.99, RateCV: tt.cv})
		r := rand.New(rand.NewPCG(4, 2))
		var rates []float64
		sum, span, k, noise := 0.0, 0.0, 0.0, 0.0
		const n = 1_000_000
		for range n {
			g := l.gap(r)
			sum += g
			if g <= 0.5 { // gaps within a burst are 0.01 on average, idle ones ≈ 495
				span, k = span+g, k+1
				continue
			}
			if k >= 20 {
				rates, noise = append(rates, k/span), noise+1/k
			}
			span, k = 0, 0
		}
		bursts := float64(len(rates))
		_, cv := moments(len(rates), func() float64 { v := rates[0]; rates = rates[1:]; return v })
		got := math.Sqrt(math.Max(cv*cv-noise/bursts, 0))
		if math.Abs(sum/n-1) > 0.05 || got < tt.lo || got > tt.hi {
			t.Errorf("rate cv %g: mean gap %.4f, bursts' rate cv %.3g (raw %.3g), want within [%g, %g]", tt.cv, sum/n, got, cv, tt.lo, tt.hi)
		}
	}
}

// simulateOnOff runs an interrupted Poisson process at unit mean rate,
// bursts of mean A/λ and idle periods of mean A·f with λ = 1/(1 − f),
// and returns the mean and CV of n gaps and the share longer than 3.
func simulateOnOff(r *rand.Rand, burst, idle float64, n int) (mean, cv, long float64) {
	lam := 1 / (1 - idle)
	on, off := burst/lam, burst*idle
	var gaps []float64
	t, last, end := 0.0, -1.0, r.ExpFloat64()*on
	for len(gaps) < n {
		next := t + r.ExpFloat64()/lam
		if next > end { // the burst ends first: idle, then a new burst
			t = end + r.ExpFloat64()*off
			end = t + r.ExpFloat64()*on
			continue
		}
		t = next
		if last >= 0 {
			gaps = append(gaps, t-last)
		}
		last = t
	}
	i := 0
	mean, cv = moments(n, func() float64 { i++; return gaps[i-1] })
	for _, g := range gaps {
		if g > 3 {
			long++
		}
	}
	return mean, cv, long / float64(n)
}

func TestGammaSampler(t *testing.T) {
	t.Parallel()
	tests := []struct {
		alpha, tolCV float64 // tolCV is relative, about 4 standard errors
		reason       string
	}{
		{0.05, 0.1, "tiny shape: the U^(1/α) boost dominates"},
		{0.3, 0.03, "small shape, boosted"},
		{1, 0.02, "the exponential"},
		{2.5, 0.02, "the Marsaglia–Tsang core"},
		{40, 0.02, "nearly normal"},
	}
	for _, tt := range tests {
		g := newGammaSampler(tt.alpha)
		r := rand.New(rand.NewPCG(1, uint64(tt.alpha*100)))
		const n = 300000
		mean, cv := moments(n, func() float64 { return g.sample(r) })
		// Gamma(α, 1) has mean α and CV 1/√α; the mean's standard error is
		// α·CV/√n = √(α/n).
		if math.Abs(mean-tt.alpha) > 4*math.Sqrt(tt.alpha/n) || math.Abs(cv*math.Sqrt(tt.alpha)-1) > tt.tolCV {
			t.Errorf("Gamma(%v): mean %v, cv %v; want %v, %v (%s)", tt.alpha, mean, cv, tt.alpha, 1/math.Sqrt(tt.alpha), tt.reason)
		}
	}
}

// weibullCV returns the CV of a Weibull law of shape k,
// √(Γ(1 + 2/k)/Γ(1 + 1/k)² − 1), computed independently of the solver.
func weibullCV(k float64) float64 {
	l2, _ := math.Lgamma(1 + 2/k)
	l1, _ := math.Lgamma(1 + 1/k)
	return math.Sqrt(math.Expm1(l2 - 2*l1))
}
