package report

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"surge/metrics"
	"surge/trace"
)

// ServerSample is the server's state at one instant of a run, as scraped
// from its metrics endpoint: KV-cache use and the requests it is running
// and holding waiting. A figure the server did not report at that instant
// (its metrics have no such series, as llama-server's have no KV-cache
// gauge, or the value was not a number) is flagged and left undrawn.
type ServerSample struct {
	AtUS         int64   `json:"at_us"`          // offset from the run's start, µs
	KVCacheUsage float64 `json:"kv_cache_usage"` // fraction of KV-cache blocks in use, 0..1
	Running      int     `json:"running"`        // requests being decoded
	Waiting      int     `json:"waiting"`        // requests queued at the server
	// NoKV, NoRunning and NoWaiting are set when the server did not
	// report the figure at this instant; its value is then 0.
	NoKV      bool `json:"no_kv,omitempty"`
	NoRunning bool `json:"no_running,omitempty"`
	NoWaiting bool `json:"no_waiting,omitempty"`
}

// timeLabel is the x axis label of every time series.
const timeLabel = "time since the run's start (s)"

// secsAt is an offset in µs as seconds.
func secsAt(us int64) float64 { return float64(us) / 1e6 }

// seriesXY maps the buckets to points at their midpoints, skipping those
// for which y says there is no value.
func seriesXY(bs []metrics.Bucket, y func(metrics.Bucket) (float64, bool)) plotter.XYs {
	xys := make(plotter.XYs, 0, len(bs))
	for _, b := range bs {
		if v, ok := y(b); ok {
			xys = append(xys, plotter.XY{X: secsAt(b.StartUS+b.EndUS) / 2, Y: v})
		}
	}
	return xys
}

// warmupRule marks the end of the warmup window, if the run had one.
func warmupRule(p *plot.Plot, h trace.RunHeader) {
	if h.WarmupUS <= 0 {
		return
	}
	r := rule{Vertical: true, X: secsAt(h.WarmupUS)}
	r.Style = draw.LineStyle{Color: grey, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}}
	addRule(p, "end of warmup", r)
}

// line is one named series of a time chart.
type line struct {
	name   string
	xys    plotter.XYs
	c      color.Color
	dashed bool
}

// timeChart plots lines against time, y from 0.
func timeChart(id, title, yLabel, caption string, h trace.RunHeader, lines ...line) (*chart, error) {
	p := newPlot(timeLabel, yLabel)
	p.Y.Min = 0
	for _, l := range lines {
		if err := addLine(p, l.name, l.xys, l.c, l.dashed); err != nil {
			return nil, err
		}
	}
	warmupRule(p, h)
	return &chart{ID: id, Title: title, Caption: caption, plot: p}, nil
}

// seriesCharts are the time series of rs: request rates, output token
// rate, requests in flight and TTFT's p50, p90 and p99 per bucket.
func seriesCharts(rs *trace.Records) ([]*chart, error) {
	bs := metrics.Series(rs, 0)
	if len(bs) == 0 {
		return nil, nil
	}
	width := fmt.Sprintf("%s ms", num(float64(bs[0].EndUS-bs[0].StartUS)/1000))
	rate := func(n func(metrics.Bucket) int) plotter.XYs {
		return seriesXY(bs, func(b metrics.Bucket) (float64, bool) { return b.PerS(n(b)), true })
	}
	specs := []struct {
		id, title, y, caption string
		lines                 []line
	}{
		{"chart-rate", "Request rate", "requests/s",
			"Requests per second in buckets of " + width + ", warmup included: scheduled (intended send times, drops included), sent, completed successfully, and failed (at completion).",
			[]line{
				{"scheduled", rate(func(b metrics.Bucket) int { return b.Scheduled }), grey, true},
				{"sent", rate(func(b metrics.Bucket) int { return b.Sent }), blue, false},
				{"completed ok", rate(func(b metrics.Bucket) int { return b.OK }), green, false},
				{"failed", rate(func(b metrics.Bucket) int { return b.Errors }), vermilion, false},
			}},
		{"chart-output-tokens", "Output token rate", "output tokens/s",
			"Output tokens per second in buckets of " + width + ": each successful request's tokens spread evenly from its first token to its last.",
			[]line{{"achieved", seriesXY(bs, func(b metrics.Bucket) (float64, bool) { return b.OutputTokS, true }), orange, false}}},
		{"chart-in-flight", "Requests in flight", "requests",
			"Requests sent and not yet finished at the end of each bucket of " + width + ".",
			[]line{{"in flight", inFlightXY(bs), purple, false}}},
		{"chart-ttft-series", "TTFT over time", "TTFT (ms)",
			"p99, p90 (dashed) and p50 TTFT (nearest rank) of the successful requests sent in each bucket of " + width + "; buckets with none are skipped. A bucket of fewer than 10 requests has its maximum as p90, of fewer than 100 as p99.",
			[]line{ // p90 drawn over p99, which it equals in a small bucket
				{"p99", ttftXY(bs, func(b metrics.Bucket) int64 { return b.TTFTP99US }), vermilion, false},
				{"p90", ttftXY(bs, func(b metrics.Bucket) int64 { return b.TTFTP90US }), orange, true},
				{"p50", ttftXY(bs, func(b metrics.Bucket) int64 { return b.TTFTP50US }), blue, false},
			}},
	}
	var out []*chart
	for _, s := range specs {
		c, err := timeChart(s.id, s.title, s.y, s.caption, rs.Header, s.lines...)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// ttftXY is a TTFT percentile of each bucket with one, in ms.
func ttftXY(bs []metrics.Bucket, us func(metrics.Bucket) int64) plotter.XYs {
	return seriesXY(bs, func(b metrics.Bucket) (float64, bool) { return float64(us(b)) / 1000, b.TTFTN > 0 })
}

// inFlightXY is the in-flight count at each bucket's end, from 0 at the
// run's start.
func inFlightXY(bs []metrics.Bucket) plotter.XYs {
	xys := plotter.XYs{{X: 0, Y: 0}}
	for _, b := range bs {
		xys = append(xys, plotter.XY{X: secsAt(b.EndUS), Y: float64(b.InFlight)})
	}
	return xys
}

// serverCharts are the server's KV-cache use and its running and
// waiting requests over time, each drawn from the samples that report
// it; none without samples, and a note in the place of a chart the
// server reported nothing for.
func serverCharts(ss []ServerSample, h trace.RunHeader) []*chart {
	if len(ss) == 0 {
		return nil
	}
	var kv, running, waiting plotter.XYs
	for _, s := range ss {
		x := secsAt(s.AtUS)
		if !s.NoKV && finite(s.KVCacheUsage) {
			kv = append(kv, plotter.XY{X: x, Y: 100 * s.KVCacheUsage})
		}
		if !s.NoRunning {
			running = append(running, plotter.XY{X: x, Y: float64(s.Running)})
		}
		if !s.NoWaiting {
			waiting = append(waiting, plotter.XY{X: x, Y: float64(s.Waiting)})
		}
	}
	const kvID, kvTitle = "chart-server-kv", "Server KV-cache use"
	k := &chart{ID: kvID, Title: kvTitle,
		Note: fmt.Sprintf("The server's metrics report no KV-cache use: none of its %d samples has a KV-cache usage gauge with a value.", len(ss))}
	if len(kv) > 0 {
		var err error
		k, err = timeChart(kvID, kvTitle, "KV cache in use (%)",
			fmt.Sprintf("The share of the server's KV-cache blocks in use, from %d samples of its metrics.", len(kv)), h,
			line{"KV cache", kv, vermilion, false})
		if err != nil {
			k = brokenChart(kvID, kvTitle, err)
		} else {
			k.plot.Y.Max = 100
		}
	}
	const qID, qTitle = "chart-server-queue", "Server queue"
	q := &chart{ID: qID, Title: qTitle,
		Note: fmt.Sprintf("The server's metrics report neither running nor waiting requests: none of its %d samples has a value for them.", len(ss))}
	if len(running)+len(waiting) > 0 {
		var err error
		q, err = timeChart(qID, qTitle, "requests",
			"Requests the server reported running (being decoded) and waiting (queued), from its metrics.", h,
			line{"running", running, blue, false}, line{"waiting", waiting, orange, false})
		if err != nil {
			q = brokenChart(qID, qTitle, err)
		}
	}
	return []*chart{k, q}
}
