package report

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"surge/metrics"
	"surge/sweep"
)

// Marker sizes of sweep charts.
var (
	pointR  = vg.Points(2.5)
	markerR = vg.Points(5.5)
)

// curveSpec names one throughput–latency chart of a sweep.
type curveSpec struct {
	id, name, metric string // metric as SLOs name it: "ttft"
	q                func(*sweep.Point) sweep.Quantiles
	knee             *sweep.Knee
	c                color.Color
	from             string // what the latency is timed from, for the caption
}

// fromIntended and fromSend say what a sweep's latencies are timed from.
const (
	fromIntended = "from the intended send time, so queueing counts,"
	fromSend     = "(per output token after the first, from the send)"
)

// sweepCharts are a sweep's p99 and p50 TTFT, TPOT and E2E against
// achieved throughput, and achieved throughput and output tokens per
// second against load.
func sweepCharts(r *sweep.Result) ([]*chart, error) {
	if len(r.Points) == 0 {
		return nil, nil
	}
	var out []*chart
	for _, s := range []curveSpec{
		{"chart-sweep-ttft", "TTFT", "ttft", func(p *sweep.Point) sweep.Quantiles { return p.TTFT }, r.KneeTTFT, blue, fromIntended},
		{"chart-sweep-tpot", "TPOT", "tpot", func(p *sweep.Point) sweep.Quantiles { return p.TPOT }, nil, orange, fromSend},
		{"chart-sweep-e2e", "E2E", "e2e", func(p *sweep.Point) sweep.Quantiles { return p.E2E }, r.KneeE2E, green, fromIntended},
	} {
		c, err := latencyCurve(r, s)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	for _, f := range []func(*sweep.Result) (*chart, error){throughputCurve, tokensCurve} {
		c, err := f(r)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// fitAxis fits ax to data in [lo, hi] with a margin of 5% of the span
// each side, from 0 when the data start within a third of hi of it: an
// axis from 0 would leave most of the chart empty when they sit far
// from it.
func fitAxis(ax *plot.Axis, lo, hi float64) {
	span := hi - lo
	switch {
	case !(hi > 0) || lo < 0:
		return // nothing to fit, or data on both sides of 0: gonum's range
	case lo <= hi/3:
		ax.Min = 0
		span = hi
	case span == 0:
		span = hi * 0.1
		fallthrough
	default:
		ax.Min = lo - 0.05*span
	}
	ax.Max = hi + 0.05*span
}

// xRange is the least and greatest X of xys.
func xRange(xys plotter.XYs) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, xy := range xys {
		lo, hi = min(lo, xy.X), max(hi, xy.X)
	}
	return lo, hi
}

// curvePoint is one point of a latency curve: achieved throughput (req/s)
// against p50 and p99 (ms), with the point's index and state.
type curvePoint struct {
	i          int
	x, p50, p9 float64
	saturated  bool
}

// curvePoints are the points of r with a latency, by throughput.
func curvePoints(r *sweep.Result, q func(*sweep.Point) sweep.Quantiles) []curvePoint {
	var cps []curvePoint
	for i := range r.Points {
		p := &r.Points[i]
		v := q(p)
		if v.P99 <= 0 || v.P50 <= 0 {
			continue // no successful request: nothing to place
		}
		cps = append(cps, curvePoint{i: i, x: p.Throughput, p50: v.P50 / 1000, p9: v.P99 / 1000, saturated: p.Saturated})
	}
	slices.SortStableFunc(cps, func(a, b curvePoint) int { return cmp.Compare(a.x, b.x) })
	return cps
}

// latencyCurve charts p99 (solid) and p50 (dashed) of one latency against
// achieved throughput, marking saturated points, the knee, the highest
// point passing every SLO, the operating point and the SLO bounds on the
// metric.
func latencyCurve(r *sweep.Result, s curveSpec) (*chart, error) {
	cps := curvePoints(r, s.q)
	p := newPlot("achieved throughput (req/s)", s.name+" (ms)")
	var p99, p50, sat plotter.XYs
	lo, hi := 0.0, 0.0
	for _, cp := range cps {
		p99 = append(p99, plotter.XY{X: cp.x, Y: cp.p9})
		p50 = append(p50, plotter.XY{X: cp.x, Y: cp.p50})
		if cp.saturated {
			sat = append(sat, plotter.XY{X: cp.x, Y: cp.p9}, plotter.XY{X: cp.x, Y: cp.p50})
		}
		if lo == 0 || cp.p50 < lo {
			lo = cp.p50
		}
		hi = max(hi, cp.p9)
	}
	if lo > 0 && hi/lo > 20 {
		logAxis(&p.Y)
	} else {
		p.Y.Min = 0
	}
	xlo, xhi := xRange(p99)
	if o := r.Operating; o != nil && len(p99) > 0 {
		xlo, xhi = min(xlo, o.Throughput), max(xhi, o.Throughput) // its rule in view
	}
	fitAxis(&p.X, xlo, xhi)
	steps := []func() error{
		func() error { return addLine(p, s.name+" p99", p99, s.c, false) },
		func() error { return addLine(p, s.name+" p50", p50, s.c, true) },
		func() error {
			return addPoints(p, "", append(slices.Clone(p99), p50...), s.c, draw.CircleGlyph{}, pointR)
		},
		func() error {
			return addPoints(p, "saturated", sat, vermilion, draw.CrossGlyph{}, markerR)
		},
		func() error { return markPassing(p, r, s.q) },
		func() error { return markKnee(p, r, s.knee) }, // over the passing mark when they coincide
		func() error { return markOperating(p, r, cps) },
	}
	for _, f := range steps {
		if err := f(); err != nil {
			return nil, fmt.Errorf("sweep chart %s: %w", s.id, err)
		}
	}
	sloRules(p, r, s.metric)
	caption := fmt.Sprintf("p99 (solid) and p50 (dashed) %s %s against the successful requests per second each point achieved.", s.name, s.from)
	return &chart{ID: s.id, Title: s.name + " against throughput", Caption: caption, plot: p}, nil
}

// markKnee marks and labels the knee k, if any.
func markKnee(p *plot.Plot, r *sweep.Result, k *sweep.Knee) error {
	if k == nil || k.LatencyUS <= 0 {
		return nil
	}
	xy := plotter.XYs{{X: k.Throughput, Y: k.LatencyUS / 1000}}
	if err := addPoints(p, "knee", xy, black, draw.PyramidGlyph{}, markerR); err != nil {
		return err
	}
	return addLabels(p, xy, []string{"knee: load " + loadNum(r.Points[k.Index].Load)}, 6, 4)
}

// markPassing marks and labels the highest load that passed every SLO.
func markPassing(p *plot.Plot, r *sweep.Result, q func(*sweep.Point) sweep.Quantiles) error {
	if r.MaxPassing < 0 || r.MaxPassing >= len(r.Points) {
		return nil
	}
	pt := &r.Points[r.MaxPassing]
	if q(pt).P99 <= 0 {
		return nil
	}
	xy := plotter.XYs{{X: pt.Throughput, Y: q(pt).P99 / 1000}}
	if err := addPoints(p, "max passing SLO", xy, green, draw.BoxGlyph{}, markerR); err != nil {
		return err
	}
	return addLabels(p, xy, []string{"max passing: load " + loadNum(pt.Load)}, 6, -12)
}

// markOperating draws the operating point's throughput as a vertical
// rule, labelled where it crosses the p99 curve.
func markOperating(p *plot.Plot, r *sweep.Result, cps []curvePoint) error {
	o := r.Operating
	if o == nil {
		return nil
	}
	ru := rule{Vertical: true, X: o.Throughput}
	ru.Style = draw.LineStyle{Color: purple, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(6), vg.Points(2), vg.Points(1), vg.Points(2)}}
	addRule(p, fmt.Sprintf("operating point %s req/s", num(o.Throughput)), ru)
	y, ok := interpolate(cps, o.Throughput)
	if !ok {
		return nil
	}
	return addLabels(p, plotter.XYs{{X: o.Throughput, Y: y}}, []string{"operating: load " + loadNum(o.Load)}, -6, 6)
}

// interpolate is the p99 of the curve at throughput x, linear between the
// nearest points around it; ok is false outside the curve.
func interpolate(cps []curvePoint, x float64) (float64, bool) {
	for i := 1; i < len(cps); i++ {
		a, b := cps[i-1], cps[i]
		if x >= a.x && x <= b.x {
			if b.x == a.x {
				return a.p9, true
			}
			return a.p9 + (b.p9-a.p9)*(x-a.x)/(b.x-a.x), true
		}
	}
	if len(cps) == 1 && cps[0].x == x {
		return cps[0].p9, true
	}
	return 0, false
}

// sloRules draws each SLO bound on metric as a horizontal rule.
func sloRules(p *plot.Plot, r *sweep.Result, metric string) {
	for _, slo := range r.SLO {
		if slo.Metric != metric {
			continue
		}
		ru := rule{Y: float64(slo.BoundUS) / 1000}
		ru.Style = draw.LineStyle{Color: vermilion, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(3), vg.Points(3)}}
		addRule(p, "SLO: "+sloName(slo.Metric, slo.Percentile, float64(slo.BoundUS)), ru)
	}
}

// againstLoad is a plot of value against each point's load, its x axis
// fitted to the loads, with the points and those of them saturated.
func againstLoad(r *sweep.Result, yLabel string, value func(sweep.Point) float64) (p *plot.Plot, xys, sat plotter.XYs) {
	xLabel := "offered load (req/s)"
	if r.Mode == sweep.Concurrency {
		xLabel = "concurrency (requests in flight)"
	}
	p = newPlot(xLabel, yLabel)
	for _, pt := range r.Points {
		xy := plotter.XY{X: pt.Load, Y: value(pt)}
		xys = append(xys, xy)
		if pt.Saturated {
			sat = append(sat, xy)
		}
	}
	lo, hi := xRange(xys)
	fitAxis(&p.X, lo, hi)
	return p, xys, sat
}

// throughputCurve charts achieved throughput against load, with the
// line of throughput equal to the offered rate in a rate sweep.
func throughputCurve(r *sweep.Result) (*chart, error) {
	p, xys, sat := againstLoad(r, "achieved throughput (req/s)", func(pt sweep.Point) float64 { return pt.Throughput })
	lo, hi := xRange(xys)
	if lo <= hi/3 {
		p.Y.Min = 0
	}
	if r.Mode == sweep.Rate {
		if err := addLine(p, "achieved = offered", plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}}, grey, true); err != nil {
			return nil, err
		}
	}
	if err := addLine(p, "achieved", xys, blue, false); err != nil {
		return nil, err
	}
	if err := addPoints(p, "", xys, blue, draw.CircleGlyph{}, pointR); err != nil {
		return nil, err
	}
	if err := addPoints(p, "saturated", sat, vermilion, draw.CrossGlyph{}, markerR); err != nil {
		return nil, err
	}
	if r.Saturation > 0 {
		ru := rule{Y: r.Saturation}
		ru.Style = draw.LineStyle{Color: orange, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(3), vg.Points(3)}}
		addRule(p, fmt.Sprintf("saturation %s req/s (closed loop)", num(r.Saturation)), ru)
	}
	return &chart{ID: "chart-sweep-throughput", Title: "Throughput against load",
		Caption: "Successful requests per second each point achieved against the load it was given.", plot: p}, nil
}

// tokensCurve charts the output tokens per second each point achieved
// against its load.
func tokensCurve(r *sweep.Result) (*chart, error) {
	p, xys, sat := againstLoad(r, "output tokens/s", func(pt sweep.Point) float64 { return pt.OutputTokS })
	p.Y.Min = 0
	if err := addLine(p, "output tokens/s", xys, orange, false); err != nil {
		return nil, err
	}
	if err := addPoints(p, "", xys, orange, draw.CircleGlyph{}, pointR); err != nil {
		return nil, err
	}
	if err := addPoints(p, "saturated", sat, vermilion, draw.CrossGlyph{}, markerR); err != nil {
		return nil, err
	}
	return &chart{ID: "chart-sweep-tokens", Title: "Output tokens per second against load",
		Caption: "Output tokens per second of the successful requests each point achieved against the load it was given.", plot: p}, nil
}

// sloName words an SLO: "ttft p99 ≤ 500 ms".
func sloName(metric string, percentile, boundUS float64) string {
	return metric + " " + metrics.PercentileName(percentile) + " ≤ " + ms(boundUS) + " ms"
}

// loadNum formats a load as num does, without trailing zeros: 8, 6.4,
// 12.5, 0.333.
func loadNum(v float64) string {
	s := num(v)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
