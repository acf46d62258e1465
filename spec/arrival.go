package spec

import (
	"math"

	"github.com/goccy/go-yaml/ast"

	"surge/arrival"
	"surge/dist"
)

// arrivalKeys are the keys of a client's arrival block.
var arrivalKeys = []string{"process", "cv", "burstiness", "burst", "idle", "burst_cv", "idle_cv", "rate_cv", "burst_law", "idle_law", "rate_law", "stages", "ramp", "diurnal", "spikes", "grid", "count"}

// processes are the arrival process names.
var processes = []string{
	string(arrival.Constant), string(arrival.Poisson), string(arrival.Gamma), string(arrival.Weibull),
	string(arrival.LogNormal), string(arrival.OnOff),
}

// The CV bounds of gamma and weibull gaps, as package arrival checks them:
// checked here too so that the problem carries its position.
const (
	minCV = 0.001
	maxCV = 100.0
)

// arrival reads a client's arrival block. Rate is left 0: it belongs to the
// client and is set by the caller.
func (d *decoder) arrival(n ast.Node, path string) (arrival.Config, *object) {
	c := arrival.Config{Process: arrival.Poisson}
	o, ok := d.object(n, path)
	if !ok {
		return c, nil
	}
	d.known(o, arrivalKeys, "arrival")
	// A misspelt process is reported once; the checks that depend on the
	// process are skipped rather than judged against the default.
	if field(o, "process", d.process, &c.Process) || !o.has("process") {
		d.gaps(o, &c)
		d.onOff(o, &c)
	}
	if n, p, ok := o.get("stages"); ok {
		c.Curve.Stages = d.stages(n, p)
	}
	if n, p, ok := o.get("ramp"); ok {
		c.Curve.Ramp = d.ramp(n, p)
	}
	if o.has("stages") && o.has("ramp") {
		d.errorf(o.at("ramp"), join(path, "ramp"), "conflicts with stages: both set the rate; use one")
	}
	if n, p, ok := o.get("diurnal"); ok {
		c.Curve.Diurnal = d.diurnal(n, p)
	}
	if n, p, ok := o.get("spikes"); ok {
		c.Curve.Spikes = d.spikes(n, p)
	}
	if field(o, "grid", d.duration, &c.Grid) {
		d.check(o, "grid", c.Grid <= 0, "grid must be > 0")
	}
	if field(o, "count", d.count, &c.Count) {
		curve := o.has("stages") || o.has("ramp")
		switch {
		case c.Count < 1 || c.Count > arrival.MaxCount:
			d.check(o, "count", true, "count must be 1 to %d, got %d", arrival.MaxCount, c.Count)
		case !curve:
			d.check(o, "count", true, "count spreads its arrivals over a rate curve that ends at rate 0: add stages or a ramp")
		case math.IsInf(c.Mass(), 1):
			d.check(o, "count", true, "count needs the rate curve to end at rate 0 (a last stage, or a ramp to 0)")
		}
	}
	return c, o
}

// process reads an arrival process name.
func (d *decoder) process(n ast.Node, path string) (arrival.Process, bool) {
	s, ok := d.oneOf(n, path, "process", processes)
	return arrival.Process(s), ok
}

// onOff reads onoff's burst and idle share, and the CVs of their lengths.
func (d *decoder) onOff(o *object, c *arrival.Config) {
	on := c.Process == arrival.OnOff
	for _, k := range []string{"burst", "idle", "burst_cv", "idle_cv", "rate_cv", "burst_law", "idle_law", "rate_law"} {
		if o.has(k) && !on {
			d.check(o, k, true, "%s applies to onoff only (add process: onoff)", k)
		}
	}
	if !on {
		return
	}
	if requireField(d, o, "burst", "the mean number of arrivals per burst, like burst: 40", d.number, &c.Burst) {
		d.check(o, "burst", !(c.Burst > 0 && c.Burst <= arrival.MaxBurst), "burst must be in (0, %g], got %g", float64(arrival.MaxBurst), c.Burst)
	}
	if requireField(d, o, "idle", "the share of time without arrivals, like idle: 30%", d.share, &c.Idle) {
		d.check(o, "idle", c.Idle < arrival.MinIdle || c.Idle > arrival.MaxIdle, "idle must be strictly between 0 and 100%%, got %g", c.Idle)
	}
	if field(o, "burst_cv", d.number, &c.BurstCV) {
		d.check(o, "burst_cv", !(c.BurstCV >= 0.001 && c.BurstCV <= 100), "burst_cv must be between 0.001 and 100 (1: exponential burst lengths), got %g", c.BurstCV)
	}
	if field(o, "idle_cv", d.number, &c.IdleCV) {
		d.check(o, "idle_cv", !(c.IdleCV >= 0.001 && c.IdleCV <= 100), "idle_cv must be between 0.001 and 100 (1: exponential idle lengths), got %g", c.IdleCV)
	}
	if field(o, "rate_cv", d.number, &c.RateCV) {
		d.check(o, "rate_cv", !(c.RateCV >= 0 && c.RateCV <= 100), "rate_cv must be between 0 (every burst at one rate) and 100, got %g", c.RateCV)
	}
	c.BurstLaw = d.shapeLaw(o, "burst")
	c.IdleLaw = d.shapeLaw(o, "idle")
	c.RateLaw = d.shapeLaw(o, "rate")
}

// shapeLaw reads onoff's NAME_law, the law of its bursts' lengths, idle
// lengths or rates scaled by its mean, which excludes NAME_cv.
func (d *decoder) shapeLaw(o *object, name string) dist.Dist {
	key := name + "_law"
	n, p, ok := o.get(key)
	if !ok {
		return nil
	}
	if o.has(name + "_cv") {
		d.errorf(o.at(key), p, "conflicts with %s_cv: a law states the whole shape; give one", name)
		return nil
	}
	law := d.dist(n, p, 0)
	if law == nil {
		return nil
	}
	if err := arrival.CheckShape(law); err != nil {
		d.errorf(o.at(key), p, "%v", err)
		return nil
	}
	return law
}

// gaps reads cv or burstiness and checks them against the process.
func (d *decoder) gaps(o *object, c *arrival.Config) {
	renewal := c.Process == arrival.Gamma || c.Process == arrival.Weibull || c.Process == arrival.LogNormal
	takesCV := renewal || c.Process == arrival.OnOff
	if o.has("cv") && o.has("burstiness") {
		d.errorf(o.at("burstiness"), join(o.path, "burstiness"), "conflicts with cv: burstiness b is 1/cv²; give one")
	}
	if field(o, "cv", d.number, &c.CV) {
		switch {
		case c.CV <= 0:
			d.check(o, "cv", true, "cv must be > 0, got %g", c.CV)
		case !takesCV && o.has("process"):
			d.check(o, "cv", true, "cv applies to gamma, weibull, lognormal and onoff only (%s gaps have a fixed cv)", c.Process)
		case !takesCV:
			d.check(o, "cv", true, "cv applies to gamma, weibull, lognormal and onoff only (add process: gamma)")
		default:
			d.check(o, "cv", c.CV < minCV || c.CV > maxCV, "cv must be between %g and %g, got %g", minCV, maxCV, c.CV)
		}
	}
	var b float64
	if field(o, "burstiness", d.number, &b) {
		switch {
		case b <= 0:
			d.check(o, "burstiness", true, "burstiness must be > 0, got %g", b)
		case c.Process != arrival.Gamma:
			d.check(o, "burstiness", true, "burstiness is the shape of gamma gaps (add process: gamma)")
		default:
			c.CV = arrival.CVFromBurstiness(b)
			d.check(o, "burstiness", c.CV < minCV || c.CV > maxCV,
				"burstiness must be between %g and %g (cv between %g and %g), got %g", 1/(maxCV*maxCV), 1/(minCV*minCV), minCV, maxCV, b)
		}
	}
	if renewal && !o.has("cv") && !o.has("burstiness") {
		d.errorf(o.at("process"), join(o.path, "process"), "%s gaps need cv (the coefficient of variation of the gaps, 1 for Poisson-like)", c.Process)
	}
}

// stages reads the list of rate stages.
func (d *decoder) stages(n ast.Node, path string) []arrival.Stage {
	items, ok := d.list(n, path)
	if !ok {
		return nil
	}
	if len(items) == 0 {
		d.errorf(d.value(n, path), path, "needs at least one stage, like [{at: 0s, rate: 5/s}]")
	}
	out := make([]arrival.Stage, 0, len(items))
	positive := false
	for i, item := range items {
		ip := index(path, i)
		o, ok := d.object(item, ip)
		if !ok {
			continue
		}
		d.known(o, []string{"at", "rate"}, "stage")
		var st arrival.Stage
		okAt := requireField(d, o, "at", "when the stage starts, like at: 5m", d.duration, &st.At)
		okRate := requireField(d, o, "rate", "the rate from then on, like rate: 20/s", d.rate, &st.Rate)
		if okAt && len(out) > 0 && st.At < out[len(out)-1].At {
			d.check(o, "at", true, "stage at %s comes before the previous stage at %s; list stages in time order",
				FormatDuration(st.At), FormatDuration(out[len(out)-1].At))
		}
		positive = positive || st.Rate > 0 || !okRate
		out = append(out, st)
	}
	if len(out) > 0 && !positive {
		d.errorf(d.value(n, path), path, "every stage has rate 0, so there are no arrivals")
	}
	return out
}

// ramp reads a linear rate ramp.
func (d *decoder) ramp(n ast.Node, path string) *arrival.Ramp {
	o, ok := d.object(n, path)
	if !ok {
		return nil
	}
	d.known(o, []string{"from", "to", "over"}, "ramp")
	r := &arrival.Ramp{}
	okFrom := requireField(d, o, "from", "the starting rate, like from: 1/s", d.rate, &r.From)
	okTo := requireField(d, o, "to", "the final rate, like to: 20/s", d.rate, &r.To)
	if requireField(d, o, "over", "how long the ramp lasts, like over: 10m", d.duration, &r.Over) {
		d.check(o, "over", r.Over <= 0, "over must be > 0")
	}
	if okFrom && okTo && r.From == 0 && r.To == 0 {
		d.errorf(o.node, path, "from and to are both 0, so there are no arrivals")
	}
	return r
}

// diurnal reads a periodic modulation.
func (d *decoder) diurnal(n ast.Node, path string) *arrival.Diurnal {
	o, ok := d.object(n, path)
	if !ok {
		return nil
	}
	d.known(o, []string{"period", "peak_to_trough", "peak_at"}, "diurnal")
	w := &arrival.Diurnal{}
	if requireField(d, o, "period", "the cycle length, like period: 24h", d.duration, &w.Period) {
		d.check(o, "period", w.Period <= 0, "period must be > 0")
	}
	if requireField(d, o, "peak_to_trough", "the peak rate over the trough rate, like peak_to_trough: 4", d.number, &w.PeakToTrough) {
		d.check(o, "peak_to_trough", w.PeakToTrough < 1, "peak_to_trough must be ≥ 1, got %g", w.PeakToTrough)
	}
	field(o, "peak_at", d.duration, &w.PeakAt)
	return w
}

// spikes reads the list of rate spikes.
func (d *decoder) spikes(n ast.Node, path string) []arrival.Spike {
	items, ok := d.list(n, path)
	if !ok {
		return nil
	}
	out := make([]arrival.Spike, 0, len(items))
	for i, item := range items {
		o, ok := d.object(item, index(path, i))
		if !ok {
			continue
		}
		d.known(o, []string{"at", "factor", "for"}, "spike")
		var sp arrival.Spike
		requireField(d, o, "at", "when the spike starts, like at: 2m", d.duration, &sp.At)
		if requireField(d, o, "factor", "the rate multiplier, like factor: 5", d.number, &sp.Factor) {
			d.check(o, "factor", sp.Factor <= 0, "factor must be > 0, got %g", sp.Factor)
		}
		if requireField(d, o, "for", "how long the spike lasts, like for: 30s", d.duration, &sp.For) {
			d.check(o, "for", sp.For <= 0, "for must be > 0")
		}
		out = append(out, sp)
	}
	return out
}

// requireField is field for a key that must be present.
func requireField[T any](d *decoder, o *object, key, hint string, read func(ast.Node, string) (T, bool), dst *T) bool {
	if !o.has(key) {
		d.errorf(o.node, o.path, "missing key %s (%s)", key, hint)
		return false
	}
	return field(o, key, read, dst)
}
