package fit

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// FamilyOnOff is the on/off process (arrival.OnOff): bursts of gaps
// within them and idle periods between them.
const FamilyOnOff Family = "onoff"

// onOffQuantiles are the quantiles of the gaps FitOnOff tries as the
// threshold between gaps within a burst and gaps that hold an idle period.
var onOffQuantiles = []float64{0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99, 0.995}

// FitOnOff fits an on/off process to the gaps of a unit-rate process. It
// splits the gaps at a threshold θ: those at most θ are gaps within a
// burst, lognormal (cut at θ), and each longer one holds an idle period,
// θ plus an exponential excess, a share q of the gaps. Its likelihood
//
//	ℓ(θ) = Σ_{g ≤ θ} [ln(1 − q) + ln f(g) − ln F(θ)] + Σ_{g > θ} [ln q − ln m − (g − θ)/m]
//
// (f, F the lognormal's density and CDF, m the mean excess) is maximised
// over θ among quantiles of the gaps (onOffQuantiles), and is the one it
// is compared with the renewal laws by (5 parameters). The process it
// states has a burst per idle gap plus one, so A = (n + 1)/(k + 1)
// arrivals a burst for k idle gaps of n; it is idle for the idle gaps
// less a gap within a burst each, a share f of the time; and its gaps
// within a burst have the CV of those at most θ (their moments: the
// lognormal cut at θ has a far lighter tail than the whole one). Params
// are burst, idle, cv and theta, and the law's q, mu, sigma and excess;
// and burst_cv, idle_cv and rate_cv, the CVs of the bursts' and idle
// periods' lengths and of the bursts' rates, which onOffBursts reads off
// the gaps in their order at the chosen θ (moments, not part of the likelihood or of the CDF).
func FitOnOff(samples []float64) (Fit, error) {
	xs, dropped := positive(samples)
	if len(xs) < 10 {
		return Fit{}, fmt.Errorf("fitting onoff: %w", errTooFew)
	}
	best := Fit{LogLik: math.Inf(-1)}
	for _, p := range onOffQuantiles {
		theta := Quantile(xs, p)
		f, ok := onOffAt(xs, theta)
		if ok && f.LogLik > best.LogLik {
			best = f
		}
	}
	if math.IsInf(best.LogLik, -1) {
		return Fit{}, fmt.Errorf("fitting onoff: no threshold splits the %d gaps into bursts and idle periods", len(xs))
	}
	best.N, best.Dropped = len(xs), dropped
	p := best.Params
	p["burst_cv"], p["idle_cv"], p["rate_cv"] = onOffBursts(samples, p["theta"], p["cv"])
	return best, nil
}

// onOffBursts reads, off gaps in their order split at theta, the CVs of
// the bursts' lengths, of the idle periods' lengths and of the bursts'
// rates (see splitBursts). A rate's CV holds the noise of a count of N
// (CV² cv²/N for gaps of CV cv within bursts), taken out of the rates'
// CV². Each CV is kept within a spec's bounds; lengths are 1
// (exponential) and rates 0 (one rate) when there are fewer than three
// bursts to tell.
func onOffBursts(gaps []float64, theta, cv float64) (burstCV, idleCV, rateCV float64) {
	b := splitBursts(gaps, theta)
	burstCV, idleCV = 1, 1
	if len(b.spans) >= 3 && b.within > 0 {
		_, burstCV = meanCV(b.spans)
		_, idleCV = meanCV(b.idles)
	}
	if len(b.rates) >= 3 {
		noise := 0.0
		for _, n := range b.counts {
			noise += cv * cv / n
		}
		_, cr := meanCV(b.rates)
		rateCV = math.Sqrt(math.Max(cr*cr-noise/float64(len(b.rates)), 0))
	}
	bound := func(v, lo float64) float64 { return round3(math.Min(math.Max(v, lo), maxCV)) }
	return bound(burstCV, minCV), bound(idleCV, minCV), bound(rateCV, 0)
}

// bursts are the complete bursts and the idle periods of gaps split at a
// threshold.
type bursts struct {
	spans  []float64 // each complete burst's length: its gaps within and one gap more
	idles  []float64 // each idle gap less one gap within a burst
	rates  []float64 // N/D of each complete burst of N ≥ minBurstArrivals arrivals over D
	counts []float64 // the N of each rate
	within float64   // the mean gap within a burst
}

// splitBursts splits gaps, in their order, at theta: a gap above it holds
// an idle period, the others are gaps within a burst. A complete burst
// (the first and last, cut by the trace's ends, are left out) of N
// arrivals spans D, the sum of its gaps within: its length is about D and
// one gap more, and its rate N/D; only bursts of at least
// minBurstArrivals tell a rate. An idle gap is an idle period and about
// one gap within a burst, whose spread is small beside the period's.
func splitBursts(gaps []float64, theta float64) bursts {
	var b bursts
	var d []float64
	var n, sum, nw float64
	seen := false
	for _, g := range gaps {
		if g <= theta {
			n, sum, nw = n+1, sum+g, nw+1
			b.within += g
			continue
		}
		if seen {
			d = append(d, sum)
			if n >= minBurstArrivals && sum > 0 {
				b.rates, b.counts = append(b.rates, n/sum), append(b.counts, n)
			}
		}
		b.idles = append(b.idles, g)
		n, sum, seen = 0, 0, true
	}
	if nw > 0 {
		b.within /= nw
	}
	b.spans = d
	for i := range b.spans {
		b.spans[i] += b.within
	}
	for i := range b.idles {
		b.idles[i] = math.Max(b.idles[i]-b.within, 1e-9)
	}
	return b
}

// minBurstArrivals is the fewest arrivals a burst needs for onOffBursts
// to read its rate.
const minBurstArrivals = 5

// meanCV returns the mean and the CV of xs.
func meanCV(xs []float64) (mean, cv float64) {
	mean, sd := stat.MeanStdDev(xs, nil)
	return mean, sd / mean
}

// onOffAt fits the on/off law with threshold theta to the sorted positive
// gaps xs; ok is false when either side has fewer than two gaps.
func onOffAt(xs []float64, theta float64) (Fit, bool) {
	k := len(xs) - sortSearch(xs, theta) // gaps above theta
	within := xs[:len(xs)-k]
	if k < 2 || len(within) < 2 {
		return Fit{}, false
	}
	ln, err := LogNormal(within)
	if err != nil {
		return Fit{}, false
	}
	w := distuv.LogNormal{Mu: ln.Params["mu"], Sigma: ln.Params["sigma"]}
	n := float64(len(xs))
	q := float64(k) / n
	var excess, wsum, wsq float64
	for _, x := range xs[len(within):] {
		excess += x - theta
	}
	for _, x := range within {
		wsum, wsq = wsum+x, wsq+x*x
	}
	m := math.Max(excess/float64(k), 1e-12)
	lnF := math.Log(w.CDF(theta))
	ll := float64(len(within))*(math.Log1p(-q)-lnF) + ln.LogLik + float64(k)*(math.Log(q)-math.Log(m)) - excess/m
	// The process: a burst per idle gap plus one; idle for each idle gap
	// less one gap within a burst.
	mw := wsum / float64(len(within))
	cv := math.Sqrt(math.Max(wsq/float64(len(within))-mw*mw, 0)) / mw
	total := wsum + excess + float64(k)*theta
	idle := (excess + float64(k)*(theta-mw)) / total
	f := Fit{Family: FamilyOnOff, LogLik: ll,
		Params: map[string]float64{"burst": (n + 1) / float64(k+1), "idle": idle, "cv": cv, "theta": theta,
			"q": q, "mu": w.Mu, "sigma": w.Sigma, "excess": m}}
	f.KS = KS(xs, onOffCDF(f))
	return f, true
}

// onOffCDF returns the CDF of the gap law FitOnOff fitted.
func onOffCDF(f Fit) func(float64) float64 {
	p := f.Params
	w := distuv.LogNormal{Mu: p["mu"], Sigma: p["sigma"]}
	theta, q, m := p["theta"], p["q"], p["excess"]
	cut := w.CDF(theta)
	return func(x float64) float64 {
		if x <= theta {
			return (1 - q) * w.CDF(x) / cut
		}
		return 1 - q*math.Exp(-(x-theta)/m)
	}
}

// sortSearch returns the number of sorted xs at most x.
func sortSearch(xs []float64, x float64) int {
	i, _ := slices.BinarySearchFunc(xs, x, func(a, b float64) int {
		if a <= b {
			return -1
		}
		return 1
	})
	return i
}
