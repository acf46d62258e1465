package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"surge/metrics"
	"surge/trace"
)

// cdfPoints is the most points a CDF line is drawn with; a longer sample
// is drawn through evenly spaced ranks.
const cdfPoints = 400

// latencies are the raw latencies of a run's measured successful
// requests (metrics.Succeeded), in milliseconds, each sorted: the
// populations of the summary's TTFT, TTFO, ITL (every gap, pooled; of
// streamed requests only) and E2E.
type latencies struct {
	TTFT, TTFO, ITL, E2E []float64
}

// maxChartGaps bounds the gaps the ITL charts are drawn from: past it
// every k-th gap is taken, so a run of servers streaming millions of tiny
// events charts in bounded memory. Normal runs have fewer gaps, all drawn.
const maxChartGaps = 1 << 20

// collectLatencies gathers the latencies of rs.
func collectLatencies(rs *trace.Records) latencies {
	var l latencies
	recs := metrics.Succeeded.Records(rs)
	var total int64
	for _, r := range recs {
		if metrics.Streamed(r) {
			total += r.Gaps()
		}
	}
	every := max(1, (total+maxChartGaps-1)/maxChartGaps)
	var pos int64 // gaps passed so far, for taking every k-th
	for _, r := range recs {
		l.E2E = append(l.E2E, float64(r.E2EUS)/1000)
		if !metrics.Streamed(r) {
			continue // no token times: its first token came with its last byte
		}
		if r.TTFTUS > 0 {
			l.TTFT = append(l.TTFT, float64(r.TTFTUS)/1000)
		}
		if r.TTFOUS > 0 {
			l.TTFO = append(l.TTFO, float64(r.TTFOUS)/1000)
		}
		for g, n := range r.GapCounts() {
			for range (pos+n)/every - pos/every {
				l.ITL = append(l.ITL, float64(g)/1000)
			}
			pos += n
		}
	}
	for _, v := range [][]float64{l.TTFT, l.TTFO, l.ITL, l.E2E} {
		slices.Sort(v)
	}
	return l
}

// positive returns the part of sorted v above 0, which a log axis can
// show, and how many values it left out.
func positive(v []float64) ([]float64, int) {
	i, _ := slices.BinarySearch(v, math.SmallestNonzeroFloat64)
	return v[i:], i
}

// cdf is the empirical distribution function of sorted v through at
// most cdfPoints ranks: (x_(i), i/n), always including i = 1 and n.
func cdf(v []float64) plotter.XYs {
	n := len(v)
	m := min(n, cdfPoints)
	xys := make(plotter.XYs, 0, m+1)
	prev := 0
	for k := 1; k <= m; k++ {
		i := (k*n + m - 1) / m // ⌈k·n/m⌉, so k = m gives n
		if k == 1 {
			i = 1
		}
		if i == prev {
			continue
		}
		prev = i
		xys = append(xys, plotter.XY{X: v[i-1], Y: float64(i) / float64(n)})
	}
	return xys
}

// latencyCDF charts the CDFs of TTFT, TTFO, ITL and E2E on a log axis.
func latencyCDF(l latencies) (*chart, error) {
	p := newPlot("latency (ms, log scale)", "fraction of requests ≤ x (ITL: of gaps)")
	logAxis(&p.X)
	p.Y.Min, p.Y.Max = 0, 1
	series := []struct {
		name string
		v    []float64
		c    color.Color
	}{
		{"TTFT", l.TTFT, blue}, {"TTFO", l.TTFO, skyBlue}, {"ITL", l.ITL, orange}, {"E2E", l.E2E, green},
	}
	drawn, left := 0, 0
	for _, s := range series {
		v, dropped := positive(s.v)
		left += dropped
		if len(v) == 0 || s.name == "TTFO" && slices.Equal(l.TTFO, l.TTFT) {
			continue // TTFO equal to TTFT (no reasoning) would hide it
		}
		if err := addLine(p, s.name, cdf(v), s.c, false); err != nil {
			return nil, err
		}
		drawn++
	}
	if drawn == 0 {
		return nil, nil
	}
	caption := "Cumulative distributions of the measured successful requests' latencies from the moment each was sent; ITL pools every gap of every request. TTFO is drawn only when it differs from TTFT."
	if left > 0 {
		caption += fmt.Sprintf(" %d values of 0 ms are left out of the log axis.", left)
	}
	return &chart{ID: "chart-latency-cdf", Title: "Latency distributions", Caption: caption, plot: p}, nil
}

// histBins is how many logarithmic bins a latency histogram has at most.
const histBins = 40

// logBins counts sorted positive v into at most histBins bins of equal
// width in log x between its least and greatest value: bin j spans
// [lo·(hi/lo)^(j/k), lo·(hi/lo)^((j+1)/k)).
func logBins(v []float64) []plotter.HistogramBin {
	lo, hi := v[0], v[len(v)-1]
	if hi <= lo { // one value: a bin ±10% around it
		return []plotter.HistogramBin{{Min: lo * 0.9, Max: lo * 1.1, Weight: float64(len(v))}}
	}
	k := min(histBins, max(5, int(math.Sqrt(float64(len(v))))))
	r := math.Log(hi / lo)
	bins := make([]plotter.HistogramBin, k)
	for j := range bins {
		bins[j].Min = lo * math.Exp(r*float64(j)/float64(k))
		bins[j].Max = lo * math.Exp(r*float64(j+1)/float64(k))
	}
	for _, x := range v {
		j := min(k-1, int(float64(k)*math.Log(x/lo)/r))
		bins[j].Weight++
	}
	return bins
}

// latencyBins bins sorted v for a log axis (see logBins), counting its
// zeros, which a log axis cannot place, in the lowest bin; zeros is how
// many there were. Bins is nil when no value is above 0.
func latencyBins(v []float64) (bins []plotter.HistogramBin, zeros int) {
	pos, zeros := positive(v)
	if len(pos) == 0 {
		return nil, zeros
	}
	bins = logBins(pos)
	bins[0].Weight += float64(zeros)
	return bins, zeros
}

// latencyHist charts the histogram of sorted v (ms) on a log axis, with
// the summary's p50 and p99 of m as rules; id names the chart. Values of
// 0 are counted in the lowest bin, so the bins count every value the
// summary does.
func latencyHist(id, name, unit string, v []float64, m *metrics.Metric) (*chart, error) {
	bins, left := latencyBins(v)
	if bins == nil {
		return nil, nil
	}
	p := newPlot(name+" (ms, log scale)", unit+" per bin")
	logAxis(&p.X)
	p.Y.Min = 0
	h := &plotter.Histogram{Bins: bins, FillColor: skyBlue}
	h.LineStyle.Color, h.LineStyle.Width = blue, vg.Points(0.5)
	p.Add(h)
	for _, q := range []struct {
		p float64
		c color.Color
	}{{50, black}, {99, vermilion}} {
		pc, ok := m.At(q.p)
		if !ok || pc.Value <= 0 {
			continue
		}
		r := rule{Vertical: true, X: pc.Value / 1000}
		r.Style.Color, r.Style.Width = q.c, vg.Points(1.2)
		r.Style.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		addRule(p, fmt.Sprintf("%s %s ms", metrics.PercentileName(q.p), ms(pc.Value)), r)
	}
	caption := fmt.Sprintf("%s of %d %s in %d bins of equal width on the log axis, with the summary's p50 and p99.", name, len(v), unit, len(h.Bins))
	if left > 0 {
		caption += fmt.Sprintf(" %d values of 0 ms, which a log axis cannot place, are counted in the lowest bin.", left)
	}
	return &chart{ID: id, Title: name + " histogram", Caption: caption, plot: p}, nil
}

// latencyCharts are the CDF and the TTFT, ITL and E2E histograms of rs's
// latencies, leaving out those with no value.
func latencyCharts(rs *trace.Records, s *metrics.Summary) ([]*chart, error) {
	l := collectLatencies(rs)
	var out []*chart
	c, err := latencyCDF(l)
	if err != nil {
		return nil, err
	}
	out = appendChart(out, c)
	lat := &s.All.Latency
	for _, h := range []struct {
		id, name, unit string
		v              []float64
		m              *metrics.Metric
	}{
		{"chart-ttft-hist", "TTFT", "requests", l.TTFT, &lat.TTFT},
		{"chart-itl-hist", "ITL", "gaps", l.ITL, &lat.ITL},
		{"chart-e2e-hist", "E2E", "requests", l.E2E, &lat.E2E},
	} {
		c, err := latencyHist(h.id, h.name, h.unit, h.v, h.m)
		if err != nil {
			return nil, err
		}
		out = appendChart(out, c)
	}
	return out, nil
}

// appendChart appends c to cs unless it is nil (nothing to draw).
func appendChart(cs []*chart, c *chart) []*chart {
	if c == nil {
		return cs
	}
	return append(cs, c)
}
