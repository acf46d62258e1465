package report

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"image/color"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Every chart is drawn at chartW × chartH CSS pixels. gonum/plot measures
// in points (1/72 in) and CSS pixels are 1/96 in, so a pixel is 0.75 pt.
const (
	chartW   = 640
	chartH   = 360
	pxPoints = 0.75
	// pngDPI draws PNG charts at twice the CSS resolution: 1280 × 720.
	pngDPI = 192
)

// Okabe–Ito colours, distinguishable with the common colour-vision
// deficiencies (Okabe & Ito, "Color Universal Design", 2008).
var (
	black     = color.RGBA{0x00, 0x00, 0x00, 0xff}
	orange    = color.RGBA{0xe6, 0x9f, 0x00, 0xff}
	skyBlue   = color.RGBA{0x56, 0xb4, 0xe9, 0xff}
	green     = color.RGBA{0x00, 0x9e, 0x73, 0xff}
	blue      = color.RGBA{0x00, 0x72, 0xb2, 0xff}
	vermilion = color.RGBA{0xd5, 0x5e, 0x00, 0xff}
	purple    = color.RGBA{0xcc, 0x79, 0xa7, 0xff}
	grey      = color.RGBA{0x99, 0x99, 0x99, 0xff}
)

// sans is the typeface of every chart text. The SVG names it "Liberation
// Sans"; the page's CSS falls back to the metrically equal Arimo and
// Arial, so text drawn by the browser takes the width plot measured.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// chart is one figure of the report: a plot with a stable id, drawn at a
// fixed size.
type chart struct {
	ID      string // DOM id of the <svg>, and PNG file name: "chart-ttft-cdf"
	Title   string
	Caption string // what the chart shows, in a sentence or two
	plot    *plot.Plot
	// Note, when set, stands in the chart's place: why there is nothing
	// to draw (the server exports no such series). It is not an error.
	Note string
	// err, when set, is why the chart could not be made; its note says
	// so in its place.
	err error
}

// brokenChart stands in for a chart, or a group of charts, that could
// not be made.
func brokenChart(id, title string, err error) *chart {
	return &chart{ID: id, Title: title, err: fmt.Errorf("chart %s: %w", id, err)}
}

// draw renders v's chart as SVG; when it cannot be drawn, it says why in
// v's Note, in the chart's place, and returns the error.
func (v *chartView) draw() error {
	if v.Note != "" && v.err == nil {
		return nil
	}
	err := v.err
	if err == nil {
		var svg string
		if svg, err = v.svg(); err == nil {
			// vgsvg escapes every text it draws, and the rest of its output is
			// numbers and fixed markup: safe to insert as is.
			v.SVG = template.HTML(svg)
			return nil
		}
	}
	v.Note = "This chart could not be drawn: " + err.Error() + "."
	return fmt.Errorf("html report: %w", err)
}

// drawn reports whether c can be drawn: it has a plot and neither a note
// nor an error in its place.
func (c *chart) drawn() bool { return c.plot != nil && c.Note == "" && c.err == nil }

// plotTo draws c's plot on cv, its legend to the right of the axes,
// outside the data, turning a panic of gonum/plot (which it raises on some
// degenerate data) into an error.
func (c *chart) plotTo(cv draw.Canvas) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("chart %s: %v", c.ID, r)
		}
	}()
	if c.plot == nil {
		return fmt.Errorf("chart %s: nothing to draw", c.ID)
	}
	legend := c.plot.Legend
	w := legend.Rectangle(cv).Size().X
	if w == 0 {
		c.plot.Draw(cv)
		return nil
	}
	// The plot draws itself without its legend in the canvas left of a
	// strip as wide as the legend, which draws in the strip, from the top.
	c.plot.Legend = plot.NewLegend()
	defer func() { c.plot.Legend = legend }()
	strip := w + legendGap
	c.plot.Draw(draw.Crop(cv, 0, -strip, 0, 0))
	legend.Top, legend.Left, legend.XOffs, legend.YOffs = true, true, 0, 0
	legend.Draw(draw.Crop(cv, cv.Size().X-w-legendMargin, -legendMargin, 0, -legendMargin))
	return nil
}

// legendGap is the space between the data and the legend, legendMargin
// that around the legend.
var (
	legendGap    = vg.Points(12)
	legendMargin = vg.Points(4)
)

// newPlot returns a plot with sans text, the given axis labels and a
// grid; its legend is drawn beside the data (see plotTo).
func newPlot(xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = font.From(sans, 11)
		ax.Tick.Label.Font = font.From(sans, 9)
		ax.Tick.Marker = linearTicks{}
	}
	p.Legend.TextStyle.Font = font.From(sans, 9)
	p.Legend.Padding = vg.Points(1.5)
	p.Legend.ThumbnailWidth = vg.Points(18)
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = color.Gray{0xe4}, color.Gray{0xe4}
	p.Add(g)
	return p
}

// addLine adds a polyline through xys in colour c, dashed when dashed,
// with a legend entry when name is not empty. Fewer than one point adds
// nothing.
func addLine(p *plot.Plot, name string, xys plotter.XYs, c color.Color, dashed bool) error {
	if len(xys) == 0 {
		return nil
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return fmt.Errorf("line %q: %w", name, err)
	}
	l.Color, l.Width = c, vg.Points(1.5)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	p.Add(l)
	if name != "" {
		p.Legend.Add(name, l)
	}
	return nil
}

// addPoints adds markers of shape g in colour c at xys, with a legend
// entry when name is not empty.
func addPoints(p *plot.Plot, name string, xys plotter.XYs, c color.Color, g draw.GlyphDrawer, r vg.Length) error {
	if len(xys) == 0 {
		return nil
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return fmt.Errorf("points %q: %w", name, err)
	}
	s.GlyphStyle = draw.GlyphStyle{Color: c, Radius: r, Shape: g}
	p.Add(s)
	if name != "" {
		p.Legend.Add(name, s)
	}
	return nil
}

// addLabels writes each text beside its point, offset by (dx, dy)
// points: positive is right and up. With a negative dx the text ends
// there, left of the point.
func addLabels(p *plot.Plot, xys plotter.XYs, texts []string, dx, dy float64) error {
	if len(xys) == 0 {
		return nil
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: texts})
	if err != nil {
		return fmt.Errorf("labels: %w", err)
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Font = font.From(sans, 9)
		if dx < 0 {
			l.TextStyle[i].XAlign = draw.XRight
		}
	}
	l.Offset = vg.Point{X: vg.Points(dx), Y: vg.Points(dy)}
	p.Add(l)
	return nil
}

// rule is a straight line across the whole data area: vertical at X when
// Vertical, else horizontal at Y. Y takes part in the plot's data range,
// so a horizontal bound is always in view; X does not.
type rule struct {
	Vertical bool
	X, Y     float64
	Style    draw.LineStyle
}

// Plot draws the rule.
func (r rule) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	if r.Vertical {
		x := trX(r.X)
		c.StrokeLines(r.Style, c.ClipLinesXY([]vg.Point{{X: x, Y: c.Min.Y}, {X: x, Y: c.Max.Y}})...)
		return
	}
	y := trY(r.Y)
	c.StrokeLines(r.Style, c.ClipLinesXY([]vg.Point{{X: c.Min.X, Y: y}, {X: c.Max.X, Y: y}})...)
}

// DataRange is the rule's bound on the data range: none along X, and Y
// for a horizontal rule. The infinities leave the other range as it is.
func (r rule) DataRange() (xmin, xmax, ymin, ymax float64) {
	if r.Vertical {
		return math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	}
	return math.Inf(1), math.Inf(-1), r.Y, r.Y
}

// Thumbnail draws the rule's legend icon.
func (r rule) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(r.Style, c.Min.X, y, c.Max.X, y)
}

// addRule adds a rule with a legend entry when name is not empty.
func addRule(p *plot.Plot, name string, r rule) {
	p.Add(r)
	if name != "" {
		p.Legend.Add(name, r)
	}
}

// linearTicks marks a linear axis every step of 1, 2 or 5 times a power
// of ten that makes about five marks, labelled without trailing zeros,
// with an unlabelled mark halfway between.
type linearTicks struct{}

// Ticks returns the marks between lo and hi.
func (linearTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return nil
	}
	step := niceStep((hi - lo) / 5)
	var ts []plot.Tick
	for k := math.Ceil(lo / step * 2); k/2*step <= hi*(1+1e-12)+1e-300; k++ {
		v := k / 2 * step
		t := plot.Tick{Value: v}
		if math.Mod(k, 2) == 0 {
			// Rounding to the step's decimals drops float noise: 0.30000000000000004.
			t.Label = strconv.FormatFloat(v, 'f', max(0, -int(math.Floor(math.Log10(step)))), 64)
		}
		ts = append(ts, t)
	}
	return ts
}

// niceStep is the least of 1, 2 and 5 times a power of ten at or above x.
func niceStep(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// logTicks marks a log axis at 1, 2 and 5 times each power of ten when
// the axis spans at most three decades, and at powers of ten beyond. An
// axis too short for three of those labels (about a decade or less) has
// every integer multiple of a power of ten labelled, and one with fewer
// than two of those is marked as a linear axis would be: a log axis
// always has at least two labels to read a position by.
type logTicks struct{}

// Ticks returns the marks between lo and hi, both positive.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if lo <= 0 || hi <= lo {
		return nil
	}
	steps := []float64{1, 2, 5}
	if math.Log10(hi/lo) > 3 {
		steps = []float64{1}
	}
	if ts := decadeTicks(lo, hi, steps); labelled(ts) >= 3 {
		return ts
	}
	if ts := decadeTicks(lo, hi, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}); labelled(ts) >= 2 {
		return ts
	}
	return linearTicks{}.Ticks(lo, hi)
}

// decadeTicks marks steps times each power of ten between lo and hi,
// labelled, and the other integer multiples unlabelled.
func decadeTicks(lo, hi float64, steps []float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for m := 1.0; m < 10; m++ {
			v := m * math.Pow(10, e)
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if slices.Contains(steps, m) {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// labelled counts the labelled marks of ts.
func labelled(ts []plot.Tick) int {
	n := 0
	for _, t := range ts {
		if t.Label != "" {
			n++
		}
	}
	return n
}

// logAxis makes ax logarithmic.
func logAxis(ax *plot.Axis) {
	ax.Scale = plot.LogScale{}
	ax.Tick.Marker = logTicks{}
}

// svgOpen matches the opening of the <svg> element vgsvg writes, up to
// its size attributes.
var svgOpen = regexp.MustCompile(`(?s)^.*?<svg width="[^"]*" height="[^"]*"`)

// svg draws c as an <svg> element to inline in HTML: vgsvg's output
// without the XML prologue, sized chartW × chartH CSS pixels (its
// viewBox stays in points) and carrying c's id and title. Text in it is
// escaped by vgsvg.
func (c *chart) svg() (string, error) {
	cv := vgsvg.New(vg.Length(chartW*pxPoints), vg.Length(chartH*pxPoints))
	if err := c.plotTo(draw.New(cv)); err != nil {
		return "", err
	}
	var b bytes.Buffer
	if _, err := cv.WriteTo(&b); err != nil {
		return "", fmt.Errorf("chart %s: writing svg: %w", c.ID, err)
	}
	loc := svgOpen.FindIndex(b.Bytes())
	if loc == nil {
		return "", fmt.Errorf("chart %s: no <svg> element in vgsvg's output", c.ID)
	}
	open := fmt.Sprintf(`<svg id="%s" class="chart" width="%d" height="%d" role="img" aria-label="%s"`,
		html.EscapeString(c.ID), chartW, chartH, html.EscapeString(c.Title))
	return open + b.String()[loc[1]:], nil
}

// png writes c as a PNG image of chartW × chartH CSS pixels at pngDPI.
func (c *chart) png(w io.Writer) error {
	cv := vgimg.NewWith(vgimg.UseWH(vg.Length(chartW*pxPoints), vg.Length(chartH*pxPoints)), vgimg.UseDPI(pngDPI))
	if err := c.plotTo(draw.New(cv)); err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: cv}).WriteTo(w); err != nil {
		return fmt.Errorf("chart %s: writing png: %w", c.ID, err)
	}
	return nil
}
