// # HTML reports
//
// HTML writes one self-contained HTML file for a run, a sweep, or both: no
// script, no external stylesheet, font or image; only inline CSS and
// inline SVG charts. A Content-Security-Policy of default-src 'none' in
// the page makes a browser refuse any network load should one creep in.
// The page is made with html/template, so every string that comes from
// the records, the spec, the server or an error message is escaped; only
// the SVG drawn by gonum/plot (whose text vgsvg escapes) is inserted as
// is.
//
// A run report shows what ran (target, hashes, seed, tokenizer, clients,
// models, SLOs), the key figures and the latency table in ms, the SLO
// verdicts, latency CDFs and log-binned histograms, time series (request
// rates, output tokens/s, requests in flight, TTFT p50, p90 and p99: see
// metrics.Series), the server's KV-cache use and queue when samples are
// given, the token audit, the errors by class, status and message, the
// caveats, and one row per client. Charts that need raw latencies or
// times are left out when the input has no records.
//
// A sweep report shows the TTFT, TPOT and E2E curves (p99 solid, p50
// dashed, against achieved throughput) with saturated points crossed, the
// knee, the highest point passing every SLO and the operating point
// marked and labelled, and each SLO bound as a horizontal rule; achieved
// throughput and output tokens/s against load; a table of the points with
// their SLO verdicts, each linking its own report.html (in the point's
// directory, relative to the sweep's); and, for points that carry a
// summary, a section of their key figures, linked from the table. The
// x axes are fitted to the data, from 0 only when the data start near it.
//
// Legends are drawn beside the data, not over it; log axes carry at
// least two labels. Tables wrap only between words: figures are
// right-aligned and never wrapped, text is left-aligned, and a table
// wider than the page scrolls.
//
// Every chart is an <svg> of 640 × 360 CSS pixels with a stable id
// (chart-latency-cdf, chart-ttft-hist, chart-itl-hist, chart-e2e-hist,
// chart-rate, chart-output-tokens, chart-in-flight, chart-ttft-series,
// chart-server-kv, chart-server-queue, chart-sweep-ttft, chart-sweep-tpot,
// chart-sweep-e2e, chart-sweep-throughput, chart-sweep-tokens), in the Okabe–Ito colours, which readers with
// the common colour-vision deficiencies can tell apart. ChartsPNG writes
// the same charts as PNG files named after their ids.
package report

import (
	"errors"
	"fmt"
	"html/template"
	"io"

	"surge/metrics"
	"surge/sweep"
	"surge/trace"
)

// HTMLInput is what an HTML report shows. At least one of Summary,
// Records and Sweep must be set.
type HTMLInput struct {
	// Summary is the run's summary. When nil and Records is set, HTML
	// summarises Records with metrics.Summarize's defaults.
	Summary *metrics.Summary
	// Records are the run's records, for the charts drawn from raw
	// latencies and times; nil leaves those charts out.
	Records *trace.Records
	// Sweep is a sweep's result; nil for a report of one run.
	Sweep *sweep.Result
	// Server is the server's state over the run, by time; optional.
	Server []ServerSample
	// Engine sets the server's own latency histograms beside the
	// client's; optional.
	Engine []EngineLatency
	// Title heads the page; empty means one made from the target.
	Title string
	// Warn, when set, is called with the error of each chart that could
	// not be drawn; the page says so in the chart's place either way.
	Warn func(error)
	// Prompt, when set, returns the prompt text of a request (the new
	// user message of turn `turn` of the client's session), shown in the
	// table of the slowest requests; "" when unknown.
	Prompt func(client string, session, turn int) string
}

// errNothing is the error of an HTML input with nothing to report.
var errNothing = errors.New("html report: nothing to report (no summary, records or sweep)")

// HTML writes the report of in as one self-contained HTML page (see the
// package documentation).
func HTML(w io.Writer, in HTMLInput) error {
	pg, err := buildPage(in)
	if err != nil {
		return err
	}
	pg.render(in.Warn)
	if err := pageTemplate.Execute(w, pg); err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	return nil
}

// page is everything the template shows.
type page struct {
	Title string
	Sweep *sweepView
	Run   *runView
}

// chartView is one chart on the page: its SVG once rendered.
type chartView struct {
	*chart
	SVG template.HTML
}

// buildPage lays out the report of in, its charts not yet drawn.
func buildPage(in HTMLInput) (*page, error) {
	s := in.Summary
	if s == nil && in.Records != nil {
		s = metrics.Summarize(in.Records, metrics.Options{PerClient: true, PerStyle: true})
	}
	if s == nil && in.Sweep == nil {
		return nil, errNothing
	}
	pg := &page{Title: in.Title}
	if in.Sweep != nil {
		v, err := newSweepView(in.Sweep)
		if err != nil {
			return nil, err
		}
		pg.Sweep = v
		if pg.Title == "" {
			pg.Title = "surge sweep: " + in.Sweep.Target
		}
	}
	if s != nil {
		v := newRunView(s, in.Records, in.Server)
		if in.Records != nil {
			v.Slowest = slowestGrid(in.Records, in.Prompt)
		}
		v.Engine = engineGrid(in.Engine)
		pg.Run = v
		if pg.Title == "" {
			pg.Title = "surge run: " + s.Header.Target
		}
	}
	return pg, nil
}

// charts are every chart of the page, in page order.
func (pg *page) charts() []*chartView {
	var cs []*chartView
	if pg.Sweep != nil {
		cs = append(cs, pg.Sweep.Charts...)
	}
	if pg.Run != nil {
		for _, g := range pg.Run.ChartGroups {
			cs = append(cs, g.Charts...)
		}
	}
	return cs
}

// render draws every chart of the page as SVG, or a note in the place
// of one that cannot be drawn, of which warn (if set) is told.
func (pg *page) render(warn func(error)) {
	for _, c := range pg.charts() {
		if err := c.draw(); err != nil && warn != nil {
			warn(err)
		}
	}
}

// views wraps charts for the page.
func views(cs []*chart) []*chartView {
	out := make([]*chartView, len(cs))
	for i, c := range cs {
		out[i] = &chartView{chart: c}
	}
	return out
}
