package arrival

import (
	"time"

	"surge/dist"
)

// Process names the inter-arrival law of a stream at unit rate.
type Process string

// The arrival processes.
const (
	Constant  Process = "constant"  // evenly spaced arrivals (CV 0)
	Poisson   Process = "poisson"   // exponential gaps (CV 1)
	Gamma     Process = "gamma"     // gamma gaps with the given CV
	Weibull   Process = "weibull"   // Weibull gaps with the given CV
	LogNormal Process = "lognormal" // lognormal gaps with the given CV
	// OnOff alternates bursts and idle periods, each of exponential
	// length or lognormal of a given CV: arrivals during a burst, Poisson or lognormal gaps of the
	// given CV, none while idle. With Poisson bursts it is an interrupted
	// Poisson process, whose gaps are hyperexponential; its gaps are never
	// tied, and its bursts' lengths make counts over a few bursts vary as
	// on/off traffic's do.
	OnOff Process = "onoff"
)

// Config describes an open-loop arrival stream: a renewal process of the
// given CV whose rate follows Rate, or the curve's absolute rates, over time.
//
// CV is required (0.001 ≤ CV ≤ 100) for gamma, weibull and lognormal; for
// poisson it may be left 0 or set to 1; for constant it must be left 0;
// for onoff it is the CV of the gaps within a burst, lognormal, 0 or 1
// for Poisson. vLLM's burstiness b is the gamma shape, so CV =
// CVFromBurstiness(b) = 1/√b. Burst and Idle are required for onoff and
// must be 0 otherwise.
type Config struct {
	Process Process // inter-arrival law; "" means Poisson
	Rate    float64 // mean arrivals per second; must be 0 with Stages or Ramp
	CV      float64 // coefficient of variation of gaps (gamma, weibull, lognormal; onoff within bursts)
	// Burst is onoff's mean number of arrivals per burst (> 0), and Idle
	// the share of time its stream is idle (0 < Idle < 1). At mean rate R
	// a burst lasts Burst·(1 − Idle)/R seconds on average, an idle period
	// Burst·Idle/R, and arrivals come at R/(1 − Idle) during a burst.
	Burst, Idle float64
	// BurstCV and IdleCV are the CVs of onoff's burst and idle lengths:
	// 0 or 1 for exponential lengths, else lognormal ones of that CV (a
	// few long bursts and long silences among many short ones).
	BurstCV, IdleCV float64
	// RateCV is the CV of onoff's rate from one burst to the next: each
	// burst's rate is the mean burst rate times a lognormal factor of
	// mean 1 and this CV; 0 gives every burst the same rate.
	RateCV float64
	// BurstLaw, IdleLaw and RateLaw, when set, are the laws of onoff's
	// burst lengths, idle lengths and burst rate factors in place of
	// BurstCV, IdleCV and RateCV: any law of positive values (an
	// empirical table, say), scaled by its mean, so only its shape
	// counts. A fit states them from a trace's own bursts.
	BurstLaw, IdleLaw, RateLaw dist.Dist
	// Count, when positive, makes the stream send exactly Count arrivals
	// over its curve, which must end at rate 0 (finite mass): the
	// process's gaps are drawn and rescaled to span the curve's whole
	// mass, so the curve says where arrivals fall and Count how many,
	// without the count's own variance (see Stream).
	Count int
	Curve Curve // time-varying rate; the zero Curve is flat
	// Grid, when positive, rounds every offset up to a multiple of Grid:
	// arrivals recorded on a coarse clock, such as a trace whose requests
	// sit on 3-second slots. It keeps the rate and the count per slot and
	// makes every gap a whole number of slots.
	Grid time.Duration
}

// Curve makes a stream's rate vary with time. Stages or Ramp, when present,
// give the absolute base rate and replace Config.Rate (they exclude each
// other); Diurnal and Spikes multiply whatever base rate is in force:
//
//	λ(t) = base(t) · diurnal(t) · Π spike factors active at t
type Curve struct {
	Stages  []Stage  // piecewise-linear absolute rate, by offset
	Ramp    *Ramp    // linear change of absolute rate over a duration
	Diurnal *Diurnal // sinusoidal daily (or any period) modulation
	Spikes  []Spike  // short multiplicative bursts
}

// Stage sets the absolute rate at an offset; the rate is linear between
// stages, equal to the first stage's rate before it and constant after the
// last one. Two stages at the same offset make a step: the later one holds
// from that offset on.
type Stage struct {
	At   time.Duration
	Rate float64 // arrivals per second
}

// Ramp moves the absolute rate linearly from From to To over Over, then holds
// To. It replaces Config.Rate; a ramp ending at 0 ends the stream.
type Ramp struct {
	From, To float64 // arrivals per second
	Over     time.Duration
}

// Diurnal modulates the rate by a sine of the given period whose peak is
// PeakToTrough times its trough, keeping the mean rate equal to the base:
//
//	diurnal(t) = 1 + a·cos(2π(t − PeakAt)/Period),  a = (r − 1)/(r + 1)
//
// for r = PeakToTrough, so peak/trough = (1 + a)/(1 − a) = r and the mean
// over a period is 1.
type Diurnal struct {
	Period       time.Duration
	PeakToTrough float64
	PeakAt       time.Duration // offset of the first peak
}

// Spike multiplies the rate by Factor during [At, At+For). Overlapping
// spikes multiply.
type Spike struct {
	At     time.Duration
	Factor float64
	For    time.Duration
}
