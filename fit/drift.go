package fit

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"surge/spec"
)

// DriftBounds are how far a log may be from a spec before Drift says the
// spec no longer describes it.
type DriftBounds struct {
	// KS is the largest two-sample Kolmogorov–Smirnov distance of a length
	// law (input, output, reasoning), or the two-sample critical value at
	// 1% for the samples' sizes when that is larger.
	KS float64 `json:"ks"`
	// Rate and CV are the largest relative changes of the mean rate and of
	// the gaps' coefficient of variation, |log − spec| / spec.
	Rate float64 `json:"rate"`
	CV   float64 `json:"cv"`
	// Shape is the largest total variation distance between the shares of
	// arrivals in each hour of the day.
	Shape float64 `json:"shape"`
}

// DefaultDriftBounds are the bounds surge fit --against holds a log to.
var DefaultDriftBounds = DriftBounds{KS: 0.1, Rate: 0.25, CV: 0.25, Shape: 0.1}

// orDefault returns b with each bound not above 0 taken from
// DefaultDriftBounds.
func (b DriftBounds) orDefault() DriftBounds {
	d := DefaultDriftBounds
	pick := func(v, def float64) float64 {
		if v > 0 {
			return v
		}
		return def
	}
	return DriftBounds{KS: pick(b.KS, d.KS), Rate: pick(b.Rate, d.Rate), CV: pick(b.CV, d.CV), Shape: pick(b.Shape, d.Shape)}
}

// The measures of a client Drift grades, by name.
const (
	DriftRate      = "rate/s"
	DriftCV        = "gap CV"
	DriftShape     = "hourly shape"
	DriftInput     = "input KS"
	DriftOutput    = "output KS"
	DriftReasoning = "reasoning KS"
	DriftSteps     = "steps KS"
	DriftGrowth    = "growth KS"
)

// DriftMeasure is one figure of a client in the log and in traffic
// generated from the spec, their distance and its bound.
type DriftMeasure struct {
	Name string `json:"name"`
	// Log and Spec are the figure in each: the rate, the gap CV, the CV of
	// the hourly counts, or a length law's median.
	Log  float64 `json:"log"`
	Spec float64 `json:"spec"`
	// Distance is what is held to Bound: a relative change, a total
	// variation distance or a KS distance.
	Distance float64 `json:"distance"`
	Bound    float64 `json:"bound"`
	Off      bool    `json:"off"`
}

// DriftClient is one client of the log graded against the spec's client
// of the same name.
type DriftClient struct {
	Client string `json:"client"`
	Spec   string `json:"spec_client"`
	// Sessions are the sessions of the log and of the generated traffic.
	Sessions [2]int         `json:"sessions"`
	Measures []DriftMeasure `json:"measures"`
}

// DriftReport is what Drift found: each client's grades, and one line for
// every measure past its bound and every client of one side missing from
// the other.
type DriftReport struct {
	Bounds  DriftBounds   `json:"bounds"`
	Clients []DriftClient `json:"clients"`
	Off     []string      `json:"off"`
}

// Err returns an error naming what drifted, or nil.
func (r DriftReport) Err() error {
	if len(r.Off) == 0 {
		return nil
	}
	return fmt.Errorf("the spec no longer describes the log: %s", strings.Join(r.Off, "; "))
}

// Drift grades how well a spec (YAML, a fitted one or any other)
// describes a log: it generates the spec's traffic (lengths only) and
// grades each client of the log against the spec's client of the same
// name (with the parts fit split from it, see pairClients; a spec of one client describes a
// log of one client whatever their names), measure by measure, against
// bounds (a bound not above 0 is DefaultDriftBounds').
func Drift(ctx context.Context, specYAML []byte, log *Traffic, bounds DriftBounds) (DriftReport, error) {
	bounds = bounds.orDefault()
	r := DriftReport{Bounds: bounds, Off: []string{}}
	s, err := spec.Parse("spec", specYAML)
	if err != nil {
		return r, fmt.Errorf("the spec does not parse: %w", err)
	}
	regen, err := regenerate(ctx, s)
	if err != nil {
		return r, err
	}
	pairs, parts, missing := pairClients(s, log.Order)
	r.Off = append(r.Off, missing...)
	for _, name := range log.Order {
		of, ok := pairs[name]
		if !ok {
			continue
		}
		got := &Sample{}
		for _, p := range parts[of] {
			if q := regen[p]; q != nil {
				got.merge(q)
			}
		}
		c := gradeClient(name, of, *log.Samples[name], *got, bounds)
		for _, m := range c.Measures {
			if m.Off {
				r.Off = append(r.Off, fmt.Sprintf("client %s: %s %.3g, bound %.3g", name, m.Name, m.Distance, m.Bound))
			}
		}
		r.Clients = append(r.Clients, c)
	}
	return r, nil
}

// pairClients maps each client of the log to the spec's client it is
// graded against (a trace client's name) and that client's parts in the
// spec: itself, and the clients fit split from it (NAME.shared and
// NAME.own, NAME.MODEL), each named by the longest prefix before a dot
// that is a client of the log. It lists the clients of either side the
// other lacks.
func pairClients(s *spec.Spec, logClients []string) (pairs map[string]string, parts map[string][]string, missing []string) {
	logNames := map[string]bool{}
	for _, l := range logClients {
		logNames[clientName(l)] = true
	}
	parts = map[string][]string{}
	var specClients []string
	for _, c := range s.Clients {
		n := baseClient(c.Name, logNames)
		if !slices.Contains(specClients, n) {
			specClients = append(specClients, n)
		}
		parts[n] = append(parts[n], c.Name)
	}
	pairs = map[string]string{}
	if len(specClients) == 1 && len(logClients) == 1 {
		pairs[logClients[0]] = specClients[0]
		return pairs, parts, nil
	}
	used := map[string]bool{}
	for _, l := range logClients {
		if n := clientName(l); slices.Contains(specClients, n) {
			pairs[l], used[n] = n, true
		} else {
			missing = append(missing, fmt.Sprintf("client %s of the log is not in the spec", l))
		}
	}
	for _, n := range specClients {
		if !used[n] {
			missing = append(missing, fmt.Sprintf("client %s of the spec has no sessions in the log", n))
		}
	}
	return pairs, parts, missing
}

// baseClient is the trace client a spec client stands for: its name, or
// the longest part of it before a dot that names a client of the log,
// else its name less a .shared or .own suffix.
func baseClient(name string, logNames map[string]bool) string {
	for n := name; ; {
		if logNames[n] {
			return n
		}
		i := strings.LastIndexByte(n, '.')
		if i < 0 {
			break
		}
		n = n[:i]
	}
	return strings.TrimSuffix(strings.TrimSuffix(name, ".shared"), ".own")
}

// gradeClient grades the log's sample of one client against the sample
// generated from the spec's client.
func gradeClient(name, of string, log, gen Sample, b DriftBounds) DriftClient {
	c := DriftClient{Client: name, Spec: of, Sessions: [2]int{len(log.Times), len(gen.Times)}}
	lt, gt := slices.Sorted(slices.Values(log.Times)), slices.Sorted(slices.Values(gen.Times))
	lr, lcv := rateCV(lt)
	gr, gcv := rateCV(gt)
	if lr > 0 && gr > 0 {
		c.Measures = append(c.Measures, relative(DriftRate, lr, gr, b.Rate), relative(DriftCV, lcv, gcv, b.CV))
	}
	if hours, ok := coveredHours(lt); ok && len(gt) > 0 {
		p, q := hourShares(lt, hours), hourShares(gt, hours)
		c.Measures = append(c.Measures, measure(DriftShape, sharesCV(p), sharesCV(q), totalVariation(p, q), b.Shape))
	}
	for _, l := range []struct {
		name      string
		log, spec []float64
	}{{DriftInput, log.In, gen.In}, {DriftOutput, log.Out, gen.Out}, {DriftReasoning, log.Reasoning, gen.Reasoning},
		{DriftSteps, multi(log.Episodes).Steps, multi(gen.Episodes).Steps}, {DriftGrowth, log.Episodes.Delta, gen.Episodes.Delta}} {
		if len(l.log) == 0 || len(l.spec) == 0 || (l.name == DriftReasoning && share(l.log, log.Out) == 0 && share(l.spec, gen.Out) == 0) {
			continue
		}
		c.Measures = append(c.Measures, measure(l.name, median(l.log), median(l.spec), KS2(l.log, l.spec), max(b.KS, ksCritical(len(l.log), len(l.spec)))))
	}
	return c
}

// multi returns e when it holds sessions of several turns, else none:
// steps are graded only between episodes.
func multi(e Episodes) Episodes {
	if e.Multi == 0 {
		return Episodes{}
	}
	return e
}

// measure builds a measure, off when its distance is past its bound.
func measure(name string, log, spec, distance, bound float64) DriftMeasure {
	return DriftMeasure{Name: name, Log: log, Spec: spec, Distance: distance, Bound: bound, Off: distance > bound}
}

// relative builds a measure of the relative change of log from spec.
func relative(name string, log, spec, bound float64) DriftMeasure {
	return measure(name, log, spec, math.Abs(log-spec)/spec, bound)
}

// ksCritical is the two-sample Kolmogorov–Smirnov critical value at 1%
// for samples of n and m.
func ksCritical(n, m int) float64 {
	return 1.628 * math.Sqrt(float64(n+m)/float64(n*m))
}

// median returns the median of xs.
func median(xs []float64) float64 {
	return Quantile(slices.Sorted(slices.Values(xs)), 0.5)
}

// coveredHours returns the hours of the day (from the clock's 0) that the
// span of sorted times covers, and whether they are at least two: a shape
// within one hour is not measured.
func coveredHours(ts []float64) ([]int, bool) {
	if len(ts) < 2 {
		return nil, false
	}
	first, last := int(ts[0]/3600), int(ts[len(ts)-1]/3600)
	var hours []int
	for h := first; h <= last && len(hours) < 24; h++ {
		hours = append(hours, h%24)
	}
	return hours, len(hours) >= 2
}

// hourShares returns the share of the times in each of hours (of the
// day), among the times in those hours.
func hourShares(ts []float64, hours []int) []float64 {
	shares := make([]float64, len(hours))
	var n float64
	for _, t := range ts {
		if i := slices.Index(hours, int(math.Mod(t, 86400)/3600)); i >= 0 {
			shares[i]++
			n++
		}
	}
	for i := range shares {
		if n > 0 {
			shares[i] /= n
		}
	}
	return shares
}

// totalVariation is half the L1 distance between two distributions.
func totalVariation(p, q []float64) float64 {
	var d float64
	for i := range p {
		d += math.Abs(p[i] - q[i])
	}
	return d / 2
}

// sharesCV is the coefficient of variation of shares.
func sharesCV(p []float64) float64 {
	m, d := meanVar(p)
	if m == 0 {
		return 0
	}
	return math.Sqrt(d / m)
}
