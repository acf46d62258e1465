package report

import (
	"image"
	"math"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"surge/metrics"
	"surge/trace"
)

// varied reports whether img has more than one colour: a chart, not a
// blank canvas.
func varied(img image.Image) bool {
	b := img.Bounds()
	r0, g0, b0, _ := img.At(b.Min.X, b.Min.Y).RGBA()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			if r, g, bl, _ := img.At(x, y).RGBA(); r != r0 || g != g0 || bl != b0 {
				return true
			}
		}
	}
	return false
}

func TestLogTicks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		lo, hi float64
		want   []float64 // labelled ticks
	}{
		{"two decades get 1-2-5 marks", 3, 300, []float64{5, 10, 20, 50, 100, 200}},
		{"four decades get powers of ten only", 0.5, 8000, []float64{1, 10, 100, 1000}},
		{"bounds on a mark keep it", 10, 100, []float64{10, 20, 50, 100}},
		{"an empty or non-positive range has none", 0, 10, nil},
		{"less than a decade labels every integer multiple", 30, 90, []float64{30, 40, 50, 60, 70, 80, 90}},
		{"two 1-2-5 labels are too few", 7, 30, []float64{7, 8, 9, 10, 20, 30}},
		{"within one step it is marked as a linear axis", 31, 38, []float64{32, 34, 36, 38}},
	}
	for _, tt := range tests {
		var got []float64
		for _, tk := range (logTicks{}).Ticks(tt.lo, tt.hi) {
			if tk.Label != "" {
				got = append(got, tk.Value)
			}
		}
		if !near(got, tt.want) {
			t.Errorf("%s: ticks of [%v, %v] = %v, want %v", tt.reason, tt.lo, tt.hi, got, tt.want)
		}
	}
}

// near reports whether a and b are equal to a relative 1e-9.
func near(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-9*math.Abs(b[i]) {
			return false
		}
	}
	return true
}

func TestCDF(t *testing.T) {
	t.Parallel()
	got := cdf([]float64{1, 2, 3, 4})
	want := plotter.XYs{{X: 1, Y: 0.25}, {X: 2, Y: 0.5}, {X: 3, Y: 0.75}, {X: 4, Y: 1}}
	if len(got) != len(want) {
		t.Fatalf("cdf of 4 values: %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("point %d: %v, want %v (a step at every value)", i, got[i], want[i])
		}
	}
	// 10,000 values are drawn through cdfPoints ranks, from the first
	// value to the last at 1.
	big := make([]float64, 10_000)
	for i := range big {
		big[i] = float64(i + 1)
	}
	got = cdf(big)
	if len(got) != cdfPoints || got[0] != (plotter.XY{X: 1, Y: 1e-4}) || got[len(got)-1] != (plotter.XY{X: 10_000, Y: 1}) {
		t.Errorf("cdf of 10,000: %d points from %v to %v, want %d from {1 0.0001} to {10000 1}", len(got), got[0], got[len(got)-1], cdfPoints)
	}
}

func TestLogBins(t *testing.T) {
	t.Parallel()
	// 1, 10, 100 and 1000 with 5 bins over three decades: edges at
	// 10^(3j/5) = 1, 3.98, 15.8, 63.1, 251, 1000; 1000 goes into the last.
	bins := logBins([]float64{1, 10, 100, 1000})
	want := []float64{1, 1, 0, 1, 1}
	if len(bins) != len(want) {
		t.Fatalf("%d bins, want %d", len(bins), len(want))
	}
	for j, b := range bins {
		if b.Weight != want[j] {
			t.Errorf("bin %d [%.3g, %.3g): %v values, want %v", j, b.Min, b.Max, b.Weight, want[j])
		}
	}
	if math.Abs(bins[1].Min-math.Pow(10, 0.6)) > 1e-9 {
		t.Errorf("bin 1 starts at %v, want 10^0.6", bins[1].Min)
	}
	one := logBins([]float64{5, 5})
	if len(one) != 1 || one[0].Min != 4.5 || one[0].Max != 5.5 || one[0].Weight != 2 {
		t.Errorf("equal values: %+v, want one bin [4.5, 5.5) of 2", one)
	}
}

func TestPositive(t *testing.T) {
	t.Parallel()
	v, left := positive([]float64{0, 0, 0.5, 3})
	if left != 2 || len(v) != 2 || v[0] != 0.5 {
		t.Errorf("positive: %v and %d left, want [0.5 3] and 2", v, left)
	}
}

func TestInterpolate(t *testing.T) {
	t.Parallel()
	cps := []curvePoint{{x: 1, p9: 10}, {x: 3, p9: 30}, {x: 5, p9: 100}}
	tests := []struct {
		reason string
		x      float64
		want   float64
		ok     bool
	}{
		{"between the first two", 2, 20, true},
		{"on a point", 3, 30, true},
		{"between the last two", 4, 65, true},
		{"outside the curve", 6, 0, false},
	}
	for _, tt := range tests {
		got, ok := interpolate(cps, tt.x)
		if ok != tt.ok || got != tt.want {
			t.Errorf("%s: interpolate(%v) = %v, %v; want %v, %v", tt.reason, tt.x, got, ok, tt.want, tt.ok)
		}
	}
}

func TestChartSVG(t *testing.T) {
	t.Parallel()
	p := newPlot("x", "y")
	if err := addLine(p, evil, plotter.XYs{{X: 1, Y: 1}, {X: 2, Y: 3}}, blue, false); err != nil {
		t.Fatal(err)
	}
	c := &chart{ID: "chart-test", Title: `a "title" & <more>`, plot: p}
	svg, err := c.svg()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<svg id="chart-test" class="chart" width="640" height="360" role="img" aria-label="a &#34;title&#34; &amp; &lt;more&gt;" viewBox="0 0 480 270"`,
		"&lt;script&gt;alert(1)&lt;/script&gt;", // the legend entry, escaped by vgsvg
		"<path",
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("svg lacks %q:\n%.400s", want, svg)
		}
	}
	if strings.Contains(svg, "<?xml") || strings.Contains(svg, "<script") {
		t.Errorf("svg keeps its prologue or raw script: %.200s", svg)
	}
}

func TestLinearTicks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		lo, hi float64
		want   []string // labels of the labelled ticks
	}{
		{"0–14 s: (14/5 = 2.8) → steps of 5", 0, 14.5, []string{"0", "5", "10"}},
		{"0–100 %: steps of 20", 0, 100, []string{"0", "20", "40", "60", "80", "100"}},
		{"small values keep their decimals, without float noise", 0.1, 0.35, []string{"0.10", "0.15", "0.20", "0.25", "0.30", "0.35"}},
		{"an empty range has none", 3, 3, nil},
	}
	for _, tt := range tests {
		var got []string
		for _, tk := range (linearTicks{}).Ticks(tt.lo, tt.hi) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%s: ticks of [%v, %v] = %v, want %v", tt.reason, tt.lo, tt.hi, got, tt.want)
		}
	}
}

// TestCollectLatenciesPopulation checks that the charts draw the
// summary's population: warmup, failed and faulted requests left out.
func TestCollectLatenciesPopulation(t *testing.T) {
	t.Parallel()
	ok := trace.Record{SentUS: 10, TTFTUS: 1000, TTFOUS: 1000, E2EUS: 4000, ITLUS: []int64{1000}}
	warm, faulted, failed := ok, ok, ok
	warm.Warmup = true
	faulted.Fault = "empty"
	failed.ErrorClass = trace.ErrHTTP
	rs := &trace.Records{Records: []trace.Record{ok, warm, faulted, failed}}
	l := collectLatencies(rs)
	s := metrics.Summarize(rs, metrics.Options{})
	for _, c := range []struct {
		name string
		v    []float64
		m    *metrics.Metric
	}{
		{"TTFT", l.TTFT, &s.All.Latency.TTFT}, {"ITL", l.ITL, &s.All.Latency.ITL}, {"E2E", l.E2E, &s.All.Latency.E2E},
	} {
		if len(c.v) != c.m.N {
			t.Errorf("%s: chart draws %d values, the summary counts %d", c.name, len(c.v), c.m.N)
		}
	}
}

// TestSlowestPopulation checks that the slowest-requests table leaves
// out faulted requests, as the summary does.
func TestSlowestPopulation(t *testing.T) {
	t.Parallel()
	rs := &trace.Records{Records: []trace.Record{
		{Client: "healthy", SentUS: 10, TTFTUS: 1000, E2EUS: 4000},
		{Client: "faulted", Fault: "empty", SentUS: 10, E2EUS: 9000, ErrorClass: trace.ErrHTTP, Status: 400},
	}}
	g := slowestGrid(rs, nil)
	if g == nil || len(g.Rows) != 1 || g.Rows[0][0].Text != "healthy" {
		t.Errorf("slowest rows = %v, want only the healthy request", g)
	}
}

// TestHistogramCountsZeros: gaps of 0 ms (coalesced events read at once)
// cannot sit on a log axis, but the histogram still counts them, in its
// lowest bin, so its caption and bins count what the summary does.
func TestHistogramCountsZeros(t *testing.T) {
	v := []float64{0, 0, 0, 1, 2, 4, 8}
	c, err := latencyHist("chart-itl", "ITL", "gaps", v, &metrics.Metric{})
	if err != nil || c == nil {
		t.Fatalf("chart %v, %v", c, err)
	}
	if !strings.Contains(c.Caption, "ITL of 7 gaps") || !strings.Contains(c.Caption, "3 values of 0 ms") {
		t.Errorf("caption %q", c.Caption)
	}
	bins, _ := latencyBins(v)
	total := 0.0
	for _, b := range bins {
		total += b.Weight
	}
	if total != 7 {
		t.Errorf("the bins count %g values, want 7", total)
	}
}

func TestFitAxis(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason       string
		lo, hi       float64
		wantMin, max float64
	}{
		{"data near 0 keep 0 in view", 2, 10, 0, 10.5},
		{"data far from 0 fill the axis", 80, 100, 79, 101},
		{"one value far from 0 gets a margin", 50, 50, 49.75, 50.25},
	}
	for _, tt := range tests {
		p := newPlot("x", "y")
		fitAxis(&p.X, tt.lo, tt.hi)
		if math.Abs(p.X.Min-tt.wantMin) > 1e-9 || math.Abs(p.X.Max-tt.max) > 1e-9 {
			t.Errorf("%s: [%v, %v] fitted to [%v, %v], want [%v, %v]", tt.reason, tt.lo, tt.hi, p.X.Min, p.X.Max, tt.wantMin, tt.max)
		}
	}
}

// TestLegendOutside checks that a chart's legend is drawn right of its
// data area: every legend text starts right of the x axis's last tick
// label.
func TestLegendOutside(t *testing.T) {
	t.Parallel()
	cs, err := sweepCharts(syntheticSweep())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		rec := &recorder.Canvas{}
		if err := c.plotTo(draw.NewCanvas(rec, vg.Length(chartW*pxPoints), vg.Length(chartH*pxPoints))); err != nil {
			t.Fatal(err)
		}
		var tickX vg.Length
		texts := map[string]vg.Length{}
		for _, a := range rec.Actions {
			if s, ok := a.(*recorder.FillString); ok {
				texts[s.String] = s.Point.X
				if _, err := strconv.ParseFloat(s.String, 64); err == nil && s.Point.Y < vg.Points(40) {
					tickX = max(tickX, s.Point.X) // an x tick label, along the bottom
				}
			}
		}
		for _, name := range []string{"saturated", "achieved", "output tokens/s", "TTFT p99", "TPOT p99", "E2E p99"} {
			if x, ok := texts[name]; ok && x <= tickX {
				t.Errorf("%s: legend entry %q at x %v, within the data (last x tick label at %v)", c.ID, name, x, tickX)
			}
		}
	}
}
