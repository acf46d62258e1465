package report

import (
	"io"
	"math"
	"slices"
	"strings"

	"surge/bundle/scrape"
	"surge/metrics"
)

// EngineLatency is one row of the engine-against-client table: a latency
// the server measured itself, from the histogram of its /metrics over the
// run's measurement window, beside the client's. Their gap is what the
// engine does not see (the network, the server's HTTP front end, the
// client's own overhead), when the histogram's buckets are fine enough to
// tell it. EngineTable computes the rows; every rendering (text, HTML,
// JSON, CSV) shows the same values. Times are in µs.
type EngineLatency struct {
	Metric string `json:"metric"` // "ttft", "itl" or "e2e"
	Family string `json:"family"` // the server's histogram, e.g. vllm:time_to_first_token_seconds
	Count  int    `json:"n"`      // observations in the window
	// FromUS and ToUS are the scrapes whose histograms were differenced:
	// the window the engine's figures cover.
	FromUS int64 `json:"from_us"`
	ToUS   int64 `json:"to_us"`
	// Mean is the engine's exact mean (the histogram's sum over its
	// count) beside the client's; nil when the server's sum is not a
	// number.
	Mean *EngineMean `json:"mean,omitempty"`
	// Quantiles are p50, p90 and p99, those the histogram can estimate.
	Quantiles []EngineQuantile `json:"quantiles"`
}

// EngineMean sets the engine's mean latency beside the client's.
type EngineMean struct {
	EngineUS float64  `json:"engine_us"`
	ClientUS *float64 `json:"client_us"` // nil when the client has no value
	GapUS    *float64 `json:"gap_us"`    // client − engine; nil without a client value
}

// EngineQuantile sets one percentile of the engine's histogram beside the
// client's.
type EngineQuantile struct {
	P float64 `json:"p"` // the percentile, e.g. 99
	// EngineUS is interpolated within the bucket (BucketLoUS, BucketHiUS]
	// holding the percentile's rank, as Prometheus' histogram_quantile
	// does: all the histogram knows is that the value lies in the bucket.
	EngineUS   float64  `json:"engine_us"`
	BucketLoUS float64  `json:"bucket_lo_us"`
	BucketHiUS *float64 `json:"bucket_hi_us"` // nil for the +Inf bucket
	// TopBucket is set when no higher bucket has observations: the
	// interpolation then runs toward a bound no observation need have
	// come near, and the value is shown as the bucket's range.
	TopBucket bool     `json:"top_bucket"`
	ClientUS  *float64 `json:"client_us"` // nil when the client has no value
	// GapUS is client − engine, set only when Measurable.
	GapUS *float64 `json:"gap_us,omitempty"`
	// Measurable is set when the bucket is finite and the gap is at least
	// its width; a smaller gap is within what interpolation can invent.
	Measurable bool `json:"gap_measurable"`
}

// enginePercentiles are the percentiles of the table.
var enginePercentiles = []float64{50, 90, 99}

// EngineTable compares each engine-side latency histogram (TTFT, ITL,
// E2E) the series holds with the client's distribution in s over s's
// measurement window; a histogram with no observations there has no row.
func EngineTable(series *scrape.Series, s *metrics.Summary) []EngineLatency {
	lat := &s.All.Latency
	var out []EngineLatency
	for _, m := range []struct {
		name   string
		metric scrape.Metric
		client *metrics.Metric
	}{{"ttft", scrape.TTFT, &lat.TTFT}, {"itl", scrape.ITL, &lat.ITL}, {"e2e", scrape.E2E, &lat.E2E}} {
		family := series.Family(m.metric)
		if family == "" {
			continue
		}
		qs := make([]float64, len(enginePercentiles))
		for i, p := range enginePercentiles {
			qs[i] = p / 100
		}
		q, err := series.HistogramQuantiles(family, s.Window.StartUS, s.Window.EndUS, qs...)
		if err != nil {
			continue
		}
		if row, ok := engineRow(m.name, q, m.client); ok {
			out = append(out, row)
		}
	}
	return out
}

// engineRow is the row of metric from the engine's window q (in seconds,
// its quantiles those of enginePercentiles) and the client's distribution
// c (in µs); false when the window has no observations.
func engineRow(metric string, q scrape.Quantiles, c *metrics.Metric) (EngineLatency, bool) {
	if !(q.Count > 0) || math.IsInf(q.Count, 1) {
		return EngineLatency{}, false
	}
	row := EngineLatency{Metric: metric, Family: q.Family, Count: int(q.Count), FromUS: q.FromUS, ToUS: q.ToUS,
		Quantiles: []EngineQuantile{}}
	// The mean is a difference of float sums over a difference of
	// counts: rounded to the nanosecond, an exact 20 ms stays 20,000 µs.
	if mean := math.Round(q.Mean()*1e9) / 1e3; finite(mean) {
		m := &EngineMean{EngineUS: mean}
		if c.N > 0 {
			m.ClientUS, m.GapUS = ptr(c.Mean), ptr(c.Mean-mean)
		}
		row.Mean = m
	}
	for i, p := range enginePercentiles {
		if i >= len(q.Values) || i >= len(q.Buckets) || !finite(q.Values[i]) {
			continue
		}
		b := q.Buckets[i]
		eq := EngineQuantile{P: p, EngineUS: q.Values[i] * 1e6, BucketLoUS: b.Lo * 1e6, TopBucket: b.Top}
		if !math.IsInf(b.Hi, 1) {
			eq.BucketHiUS = ptr(b.Hi * 1e6)
		}
		if v, ok := c.At(p); ok {
			eq.ClientUS = ptr(v.Value)
			gap := v.Value - eq.EngineUS
			if eq.BucketHiUS != nil && math.Abs(gap) >= *eq.BucketHiUS-eq.BucketLoUS {
				eq.GapUS, eq.Measurable = ptr(gap), true
			}
		}
		row.Quantiles = append(row.Quantiles, eq)
	}
	return row, true
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func ptr(v float64) *float64 { return &v }

// quantile returns the row's percentile p, if the histogram gave it.
func (e *EngineLatency) quantile(p float64) (EngineQuantile, bool) {
	for _, q := range e.Quantiles {
		if q.P == p {
			return q, true
		}
	}
	return EngineQuantile{}, false
}

// notMeasurable is the text of a gap the histogram cannot resolve.
const notMeasurable = "not measurable"

// engineCells are the text cells, in ms, of the row's mean (engine,
// client, gap) and of each percentile ps (engine, client, gap), as the
// text and HTML tables show them: a percentile in the highest bucket with
// observations as that bucket's range, a gap smaller than the bucket's
// width as notMeasurable.
func (e *EngineLatency) engineCells(ps ...float64) []string {
	cells := []string{"—", "—", "—"}
	if m := e.Mean; m != nil {
		cells = []string{ms(m.EngineUS), optMS(m.ClientUS), optMS(m.GapUS)}
	}
	for _, p := range ps {
		q, ok := e.quantile(p)
		if !ok {
			cells = append(cells, "—", "—", "—")
			continue
		}
		engine := ms(q.EngineUS)
		switch {
		case q.BucketHiUS == nil:
			engine = "> " + ms(q.BucketLoUS)
		case q.TopBucket:
			engine = ms(q.BucketLoUS) + "–" + ms(*q.BucketHiUS)
		}
		gap := notMeasurable
		switch {
		case q.ClientUS == nil:
			gap = "—"
		case q.Measurable:
			gap = ms(*q.GapUS)
		}
		cells = append(cells, engine, optMS(q.ClientUS), gap)
	}
	return cells
}

// optMS formats an optional time in µs as ms, "—" when absent.
func optMS(us *float64) string {
	if us == nil {
		return "—"
	}
	return ms(*us)
}

// EngineText writes the engine-against-client lines of a text report,
// within TextWidth: per metric one row for its mean and one per
// percentile, each the engine's value, the client's and their gap;
// nothing when es is empty.
func EngineText(w io.Writer, es []EngineLatency) error { return EngineTextAt(w, es, TextWidth) }

// EngineTextAt is EngineText within cols columns: its heading wrapped to
// them, and the histograms' names above the table rather than in it when
// it would be wider.
func EngineTextAt(w io.Writer, es []EngineLatency, cols int) error {
	if len(es) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("\n")
	for _, l := range fieldLines(cols, "engine", "latency the server measured (its /metrics histograms over the measurement window) "+
		"against the client's, ms; the mean is exact; quantiles are interpolated within buckets, so one in the highest "+
		"bucket with observations shows as that bucket's range and a gap smaller than its bucket's width is not measurable") {
		b.WriteString(l + "\n")
	}
	t := engineTable(es, true)
	if t.width("  ") > cols {
		var names []string
		for _, e := range es {
			names = append(names, e.Metric+": "+e.Family)
		}
		for _, l := range fieldLines(cols, "histograms", names...) {
			b.WriteString(l + "\n")
		}
		t = engineTable(es, false)
	}
	if err := t.write(&b, "  "); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// engineTable is the text table of es: per metric a row for its mean and
// one per percentile, with the histogram's name when named.
func engineTable(es []EngineLatency, named bool) *table {
	t := &table{left: map[int]bool{1: true, 3: true}}
	head := []string{"", "histogram", "n", "", "engine", "client", "gap"}
	if !named {
		head = slices.Delete(head, 1, 2)
		t.left = map[int]bool{2: true}
	}
	t.add(head...)
	stats := []string{"mean", "p50", "p99"}
	for i := range es {
		e := &es[i]
		cells := e.engineCells(50, 99)
		for j, stat := range stats {
			row := []string{"", "", "", stat}
			if j == 0 {
				row = []string{e.Metric, e.Family, count(e.Count), stat}
			}
			if !named {
				row = slices.Delete(row, 1, 2)
			}
			t.add(append(row, cells[3*j:3*j+3]...)...)
		}
	}
	return t
}

// engineGrid is the HTML table of es; nil when empty.
func engineGrid(es []EngineLatency) *grid {
	if len(es) == 0 {
		return nil
	}
	g := &grid{Head: []string{"metric", "server histogram", "n", "engine mean ms", "client mean ms", "gap mean ms"}}
	for _, p := range enginePercentiles {
		q := metrics.PercentileName(p)
		g.Head = append(g.Head, "engine "+q+" ms", "client "+q+" ms", "gap "+q+" ms")
	}
	for i := range es {
		e := &es[i]
		g.add(append([]string{e.Metric, e.Family, count(e.Count)}, e.engineCells(enginePercentiles...)...)...)
	}
	return g
}
