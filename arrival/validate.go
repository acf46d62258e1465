package arrival

import (
	"cmp"
	"errors"
	"fmt"
	"math"

	"surge/dist"
)

// Validate reports every problem with c, joined with errors.Join, naming
// each field as the spec writes it (arrival.cv, arrival.stages[2].at). The
// rules:
//
//   - process is "", constant, poisson, gamma, weibull, lognormal or onoff;
//   - rate is positive and finite unless stages or a ramp give the rate, in
//     which case it must be 0 (stages and ramp replace it; they also exclude
//     each other);
//   - cv is required in [0.001, 100] for gamma, weibull and lognormal, may
//     be 0 or 1 for poisson, must be 0 for constant, and for onoff may be
//     0 (Poisson bursts) or in [0.001, 100];
//   - burst (> 0, at most 10⁶) and idle (in [10⁻⁶, 1 − 10⁻⁶]) are
//     required for onoff and must be 0 for the others, as must its burst,
//     idle and rate cvs and laws; a law excludes its cv and needs a finite
//     positive mean and no mass below 0;
//   - stages have offsets ≥ 0 in non-decreasing order (equal offsets make a
//     step) and finite rates ≥ 0, not all 0;
//   - a ramp has finite rates ≥ 0, not both 0, over a positive duration;
//   - a diurnal curve has a positive period, a finite peak_to_trough ≥ 1 and
//     a peak_at ≥ 0;
//   - spikes start at offsets ≥ 0, last a positive time and have finite
//     factors > 0.
func (c Config) Validate() error {
	errs := c.validateProcess()
	errs = append(errs, c.validateRate()...)
	errs = append(errs, validateStages(c.Curve.Stages)...)
	errs = append(errs, validateRamp(c.Curve.Ramp)...)
	errs = append(errs, validateDiurnal(c.Curve.Diurnal)...)
	errs = append(errs, validateSpikes(c.Curve.Spikes)...)
	if c.Grid < 0 {
		errs = append(errs, fmt.Errorf("grid %v is negative", c.Grid))
	}
	if c.Count != 0 {
		errs = append(errs, c.validateCount()...)
	}
	return errors.Join(errs...)
}

// validateProcess checks the process name and its cv, burst and idle.
func (c Config) validateProcess() []error {
	cv := c.CV
	onOff := c.Burst != 0 || c.Idle != 0 || c.BurstCV != 0 || c.IdleCV != 0 || c.RateCV != 0 ||
		c.BurstLaw != nil || c.IdleLaw != nil || c.RateLaw != nil
	if c.Process != OnOff && onOff {
		return []error{fmt.Errorf("arrival.burst, arrival.idle and their cvs and laws: apply to onoff only, not %s", cmp.Or(c.Process, Poisson))}
	}
	switch c.Process {
	case "", Poisson:
		if cv != 0 && cv != 1 {
			return []error{fmt.Errorf("arrival.cv: poisson gaps have cv 1, got %g (use gamma or weibull for another cv)", cv)}
		}
	case Constant:
		if cv != 0 {
			return []error{fmt.Errorf("arrival.cv: constant gaps have cv 0, got %g", cv)}
		}
	case Gamma, Weibull, LogNormal:
		if !(cv >= minCV && cv <= maxCV) {
			return []error{fmt.Errorf("arrival.cv: %s needs a cv between %g and %g, got %g", c.Process, minCV, maxCV, cv)}
		}
	case OnOff:
		return c.validateOnOff()
	default:
		return []error{fmt.Errorf("arrival.process: unknown process %q (want constant, poisson, gamma, weibull, lognormal or onoff)", c.Process)}
	}
	return nil
}

// The bounds of onoff's burst and idle share: within them the gap law's
// two rates stay apart by less than 10¹², well inside float64's precision.
const (
	MaxBurst = 1e6
	MinIdle  = 1e-6
	MaxIdle  = 1 - 1e-6
)

// validateOnOff checks onoff's burst and idle share.
func (c Config) validateOnOff() []error {
	var errs []error
	if c.CV != 0 && !(c.CV >= minCV && c.CV <= maxCV) {
		errs = append(errs, fmt.Errorf("arrival.cv: onoff's gaps within a burst need a cv between %g and %g, got %g", minCV, maxCV, c.CV))
	}
	if !(c.Burst > 0 && c.Burst <= MaxBurst) {
		errs = append(errs, fmt.Errorf("arrival.burst: want a mean number of arrivals per burst in (0, %g], got %g", float64(MaxBurst), c.Burst))
	}
	if !(c.Idle >= MinIdle && c.Idle <= MaxIdle) {
		errs = append(errs, fmt.Errorf("arrival.idle: want the share of time idle between %g and %g, got %g", MinIdle, MaxIdle, c.Idle))
	}
	for _, p := range []struct {
		name string
		cv   float64
	}{{"burst_cv", c.BurstCV}, {"idle_cv", c.IdleCV}} {
		if p.cv != 0 && !(p.cv >= minCV && p.cv <= maxCV) {
			errs = append(errs, fmt.Errorf("arrival.%s: want a cv between %g and %g, got %g", p.name, minCV, maxCV, p.cv))
		}
	}
	if !(c.RateCV >= 0 && c.RateCV <= maxCV) {
		errs = append(errs, fmt.Errorf("arrival.rate_cv: want a cv of the bursts' rates between 0 and %g, got %g", maxCV, c.RateCV))
	}
	for _, l := range []struct {
		name string
		law  dist.Dist
		cv   float64
	}{{"burst", c.BurstLaw, c.BurstCV}, {"idle", c.IdleLaw, c.IdleCV}, {"rate", c.RateLaw, c.RateCV}} {
		if l.law == nil {
			continue
		}
		if l.cv != 0 {
			errs = append(errs, fmt.Errorf("arrival.%s_law: conflicts with %s_cv; give one", l.name, l.name))
		}
		if err := CheckShape(l.law); err != nil {
			errs = append(errs, fmt.Errorf("arrival.%s_law: %w", l.name, err))
		}
	}
	return errs
}

// CheckShape checks a law onoff scales by its mean (Config.BurstLaw,
// IdleLaw, RateLaw): it must have a finite positive mean and, where it
// says, no mass below 0.
func CheckShape(d dist.Dist) error {
	if m := d.Mean(); !(m > 0) || math.IsInf(m, 1) {
		return fmt.Errorf("%s has mean %g; want a law of positive lengths with a finite mean", d, m)
	}
	if q, ok := d.(dist.Quantiler); ok && q.Quantile(0) < 0 {
		return fmt.Errorf("%s takes values below 0 (down to %g); want a law of lengths at least 0 (add min=0)", d, q.Quantile(0))
	}
	return nil
}

// MaxCount bounds Config.Count: the stream holds its arrivals' epochs,
// 8 bytes each, before the first is sent.
const MaxCount = 100_000_000

// validateCount checks an exact count against the curve's mass.
func (c Config) validateCount() []error {
	switch m := c.Mass(); {
	case c.Count < 0 || c.Count > MaxCount:
		return []error{fmt.Errorf("arrival.count: want 1 to %d arrivals, got %d", MaxCount, c.Count)}
	case math.IsInf(m, 1):
		return []error{errors.New("arrival.count: needs a rate curve that ends at rate 0 (stages or a ramp), whose arrivals the count spreads")}
	case !(m > 0):
		return []error{errors.New("arrival.count: the rate curve has no mass to spread the count over")}
	}
	return nil
}

// validateRate checks the base rate against stages and ramp.
func (c Config) validateRate() []error {
	stages, ramp := len(c.Curve.Stages) > 0, c.Curve.Ramp != nil
	var errs []error
	switch {
	case stages && ramp:
		errs = append(errs, errors.New("arrival.ramp: cannot be combined with arrival.stages (both set the absolute rate)"))
	case (stages || ramp) && c.Rate != 0:
		errs = append(errs, fmt.Errorf("arrival.rate: must be unset when arrival.%s gives the rate, got %g", pick(stages, "stages", "ramp"), c.Rate))
	case !stages && !ramp && !(c.Rate > 0 && !math.IsInf(c.Rate, 1)):
		errs = append(errs, fmt.Errorf("arrival.rate: must be positive and finite, got %g", c.Rate))
	}
	return errs
}

// validateStages checks offsets, order and rates of the stages.
func validateStages(st []Stage) []error {
	var errs []error
	positive := false
	for i, s := range st {
		if s.At < 0 {
			errs = append(errs, fmt.Errorf("arrival.stages[%d].at: must be >= 0, got %v", i, s.At))
		}
		if i > 0 && s.At < st[i-1].At {
			errs = append(errs, fmt.Errorf("arrival.stages[%d].at: %v is before arrival.stages[%d].at %v; stages must be sorted by at", i, s.At, i-1, st[i-1].At))
		}
		if !finiteNonNeg(s.Rate) {
			errs = append(errs, fmt.Errorf("arrival.stages[%d].rate: must be finite and >= 0, got %g", i, s.Rate))
		}
		positive = positive || s.Rate > 0
	}
	if len(st) > 0 && !positive {
		errs = append(errs, errors.New("arrival.stages: every rate is 0, so the stream has no arrivals"))
	}
	return errs
}

// validateRamp checks a ramp's rates and duration.
func validateRamp(rp *Ramp) []error {
	if rp == nil {
		return nil
	}
	var errs []error
	if !finiteNonNeg(rp.From) {
		errs = append(errs, fmt.Errorf("arrival.ramp.from: must be finite and >= 0, got %g", rp.From))
	}
	if !finiteNonNeg(rp.To) {
		errs = append(errs, fmt.Errorf("arrival.ramp.to: must be finite and >= 0, got %g", rp.To))
	}
	if rp.From == 0 && rp.To == 0 {
		errs = append(errs, errors.New("arrival.ramp: from and to are both 0, so the stream has no arrivals"))
	}
	if rp.Over <= 0 {
		errs = append(errs, fmt.Errorf("arrival.ramp.over: must be positive, got %v", rp.Over))
	}
	return errs
}

// validateDiurnal checks the period, peak-to-trough ratio and phase.
func validateDiurnal(d *Diurnal) []error {
	if d == nil {
		return nil
	}
	var errs []error
	if d.Period <= 0 {
		errs = append(errs, fmt.Errorf("arrival.diurnal.period: must be positive, got %v", d.Period))
	}
	if !(d.PeakToTrough >= 1 && !math.IsInf(d.PeakToTrough, 1)) {
		errs = append(errs, fmt.Errorf("arrival.diurnal.peak_to_trough: must be finite and >= 1, got %g", d.PeakToTrough))
	}
	if d.PeakAt < 0 {
		errs = append(errs, fmt.Errorf("arrival.diurnal.peak_at: must be >= 0, got %v", d.PeakAt))
	}
	return errs
}

// validateSpikes checks each spike's start, length and factor.
func validateSpikes(sp []Spike) []error {
	var errs []error
	for i, s := range sp {
		if s.At < 0 {
			errs = append(errs, fmt.Errorf("arrival.spikes[%d].at: must be >= 0, got %v", i, s.At))
		}
		if s.For <= 0 {
			errs = append(errs, fmt.Errorf("arrival.spikes[%d].for: must be positive, got %v", i, s.For))
		}
		if !(s.Factor > 0 && !math.IsInf(s.Factor, 1)) {
			errs = append(errs, fmt.Errorf("arrival.spikes[%d].factor: must be finite and > 0, got %g", i, s.Factor))
		}
	}
	return errs
}

// finiteNonNeg reports whether x is a finite number ≥ 0.
func finiteNonNeg(x float64) bool {
	return x >= 0 && !math.IsInf(x, 1)
}

// pick returns a if cond, else b.
func pick(cond bool, a, b string) string {
	if cond {
		return a
	}
	return b
}
