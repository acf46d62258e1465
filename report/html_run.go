package report

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"surge/metrics"
	"surge/trace"
)

// field is one labelled value of a definition list.
type field struct{ Name, Value string }

// cell is one table cell: text, an optional CSS class and an optional
// in-page link.
type cell struct {
	Text, Class, Href string
}

// numericCell matches the text of a cell that holds a figure: a number
// with an optional unit or sign, a range of them, "> x", or a dash or
// "n/a" standing for one. Such cells are right-aligned and never wrapped;
// the others are text, left-aligned, wrapped between words.
var numericCell = regexp.MustCompile(`^(?:> )?[-+]?[\d,]*\.?\d+(?:[–-][\d,]*\.?\d+)?(?: ?(?:%|pp|ms|s|µs|req/s|tok/s|×))?$|^[—–-]$|^n/a$`)

// numeric reports whether text is a figure (see numericCell).
func numeric(text string) bool { return numericCell.MatchString(strings.TrimSpace(text)) }

// Classes are the CSS classes of the cell: its own, and "num" for a
// figure.
func (c cell) Classes() string {
	if numeric(c.Text) {
		return strings.TrimSpace(c.Class + " num")
	}
	return c.Class
}

// grid is a table with a header row.
type grid struct {
	Head []string
	Rows [][]cell
}

// HeadCells are the header's cells, each of class "num" when its column
// holds figures (every non-empty cell of it does), to align it with them.
func (g grid) HeadCells() []cell {
	out := make([]cell, len(g.Head))
	for i, h := range g.Head {
		out[i] = cell{Text: h}
		figures := 0
		for _, r := range g.Rows {
			switch {
			case i >= len(r) || r[i].Text == "":
			case numeric(r[i].Text):
				figures++
			default:
				figures = -len(g.Rows) // a text cell: a text column
			}
		}
		if figures > 0 {
			out[i].Class = "num"
		}
	}
	return out
}

// add appends a row of plain cells.
func (g *grid) add(texts ...string) {
	row := make([]cell, len(texts))
	for i, t := range texts {
		row[i] = cell{Text: t}
	}
	g.Rows = append(g.Rows, row)
}

// chartGroup is a titled group of charts.
type chartGroup struct {
	ID, Title string
	Charts    []*chartView
}

// runView is the run part of the page.
type runView struct {
	Measurement string // the verdict on the measurement, one line
	Valid       bool
	Workload    []field
	Figures     []field
	Latency     grid
	SLOs        *grid
	ChartGroups []chartGroup
	Audit       grid
	Findings    []string
	Errors      errorsView
	Faults      *grid    // how the server answered each kind of injected fault
	Windows     []string // what each storm or burst did to the healthy requests
	Slowest     *grid    // the slowest measured requests, with their prompts
	Engine      *grid    // the server's own latencies beside the client's
	Clients     *grid
	Styles      *grid
	Warnings    []string
}

// errorsView is the errors section: counts by class and status, and the
// most common messages.
type errorsView struct {
	Line     string
	ByClass  *grid
	Messages *grid
}

// newRunView lays out the run of s; rs (optional) gives the charts of raw
// values, ss (optional) the server's state.
func newRunView(s *metrics.Summary, rs *trace.Records, ss []ServerSample) *runView {
	v := &runView{
		Measurement: s.Measurement.Line(),
		Valid:       s.Measurement.Valid(),
		Workload:    workloadFields(s, rs),
		Figures:     keyFigures(s),
		Latency:     latencyGrid(&s.All),
		SLOs:        sloGrid(&s.All),
		Audit:       auditGrid(&s.All.Tokens),
		Findings:    s.All.Tokens.Findings,
		Errors:      errorsSection(&s.All),
		Faults:      faultGrid(s.Faults),
		Windows:     windowLines(s.Faults),
		Clients:     clientGrid(s),
		Styles:      styleGrid(s),
	}
	for _, w := range s.Warnings {
		v.Warnings = append(v.Warnings, w.String())
	}
	v.ChartGroups = runCharts(s, rs, ss)
	return v
}

// runCharts are the chart groups of a run: latency distributions and
// time series from the records, and the server's state. A group that
// cannot be made is one chart saying so.
func runCharts(s *metrics.Summary, rs *trace.Records, ss []ServerSample) []chartGroup {
	var groups []chartGroup
	if rs != nil {
		lat, err := latencyCharts(rs, s)
		if err != nil {
			lat = []*chart{brokenChart("chart-latency", "Latency distributions", err)}
		}
		ser, err := seriesCharts(rs)
		if err != nil {
			ser = []*chart{brokenChart("chart-series", "Over time", err)}
		}
		groups = append(groups,
			chartGroup{ID: "latency-charts", Title: "Latency distributions", Charts: views(lat)},
			chartGroup{ID: "time-series", Title: "Over time", Charts: views(ser)})
	}
	if srv := serverCharts(ss, s.Header); len(srv) > 0 {
		groups = append(groups, chartGroup{ID: "server", Title: "Server", Charts: views(srv)})
	}
	return slices.DeleteFunc(groups, func(g chartGroup) bool { return len(g.Charts) == 0 })
}

// workloadFields say what ran: target, hashes, seed, clients, models.
func workloadFields(s *metrics.Summary, rs *trace.Records) []field {
	h := s.Header
	fs := []field{{"target", h.Target}}
	add := func(name, value string) {
		if value != "" {
			fs = append(fs, field{name, value})
		}
	}
	add("api", h.API)
	add("workload hash", h.WorkloadHash)
	add("spec hash", h.SpecHash)
	fs = append(fs, field{"seed", fmt.Sprint(h.Seed)})
	add("tokenizer", h.Tokenizer)
	add("tool", h.Tool)
	if !h.Start.IsZero() {
		add("started", h.Start.UTC().Format(time.RFC3339))
	}
	run := num(float64(s.DurationUS)/1e6) + " s"
	if m := endMark(trace.EndingOf(s.End)); m != "" {
		run += " — " + strings.ToLower(m)
	}
	add("duration", run)
	if h.WarmupUS > 0 {
		add("warmup", fmt.Sprintf("first %s s; %s records excluded", num(float64(h.WarmupUS)/1e6), count(s.Warmup)))
	}
	add("clients", strings.Join(clientNames(s), ", "))
	add("closed loop", strings.Join(h.ClosedLoop, ", "))
	if rs != nil {
		add("models", strings.Join(models(rs), ", "))
	}
	var slos []string
	for _, slo := range h.SLO {
		slos = append(slos, sloName(slo.Metric, slo.Percentile, float64(slo.BoundUS)))
	}
	add("SLOs", strings.Join(slos, " · "))
	add("salt", h.Salt)
	return fs
}

// clientNames are the clients of s, when it was summarised per client.
func clientNames(s *metrics.Summary) []string {
	var names []string
	for _, c := range s.Clients {
		names = append(names, c.Client)
	}
	return names
}

// models are the distinct models of rs, sorted.
func models(rs *trace.Records) []string {
	set := map[string]bool{}
	for i := range rs.Records {
		if m := rs.Records[i].Model; m != "" {
			set[m] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// keyFigures are the run's headline numbers.
func keyFigures(s *metrics.Summary) []field {
	a := &s.All
	t := &a.Throughput
	fs := []field{
		{"requests", fmt.Sprintf("%s measured: %s ok, %s failed (%s), %s dropped", count(a.Requests), count(a.OK), count(a.Errors.Failed), pct(a.Errors.Rate), count(a.Errors.Dropped))},
		{"window", fmt.Sprintf("%s – %s s", secs(s.Window.StartUS), secs(s.Window.EndUS))},
		{"throughput", num(t.RequestsPerS) + " req/s"},
		{"output tokens", outputRate(t) + " (" + sourceName(t.OutputSource) + ")"},
		{"input tokens", num(t.InputTokensPerS) + " tok/s"},
		{"send rate", fmt.Sprintf("%s req/s sent of %s req/s scheduled", num(t.SendRatePerS), num(t.ScheduledRatePerS))},
		{"in flight", fmt.Sprintf("%s mean, %s peak", num(t.MeanConcurrency), count(t.PeakConcurrency))},
	}
	if t.OutputNotApplicable != "" {
		fs[3].Value = "n/a (" + t.OutputNotApplicable + ")"
	}
	if t.Inputs > 0 {
		fs = append(fs, field{"inputs", inputRate(t) + " (embeddings)"})
	}
	if t.Documents > 0 {
		fs = append(fs, field{"documents", documentRate(t) + " (rerank, score)"})
	}
	if t.ImageRequests > 0 {
		fs = append(fs, field{"images", strings.Join(imageParts(t), "; ")})
	}
	if g := a.Goodput; g != nil {
		fs = append(fs, field{"goodput", fmt.Sprintf("%s req/s: %s of sent requests met every SLO", num(g.PerS), pct(g.Fraction))})
	}
	if a.Cache.Reported {
		fs = append(fs, field{"prefix-cache hits", fmt.Sprintf("%s of %s prompt tokens (server)", pct(a.Cache.HitRate), count(a.Cache.PromptTokens))})
	}
	if r := s.PrefixReuse; r != nil {
		fs = append(fs, field{"implied prefix reuse", pct(r.Ratio()) + " (workload)"})
	}
	if d := s.SpecDecode; d != nil {
		fs = append(fs, field{"speculative decoding", strings.Join(specDecodeParts(d), " · ")})
	}
	return fs
}

// sourceName says where output token counts came from.
func sourceName(src string) string {
	switch src {
	case "server":
		return "server usage"
	case "chunks":
		return "streamed chunks: no usage"
	case "mixed":
		return "usage, else streamed chunks"
	}
	return "no request"
}

// htmlPercentiles are the percentile columns of the HTML latency table.
var htmlPercentiles = []float64{50, 90, 95, 99, 99.9}

// latencyGrid is the latency table of sc in milliseconds.
func latencyGrid(sc *metrics.Scope) grid {
	g := grid{Head: []string{"ms", "n", "mean"}}
	for _, q := range htmlPercentiles {
		g.Head = append(g.Head, metrics.PercentileName(q))
	}
	g.Head = append(g.Head, "max")
	for _, m := range sc.Latency.Metrics() {
		if m.NotApplicable != "" {
			g.add(rowNames[m.Name], "n/a", m.NotApplicable)
			continue
		}
		if m.N == 0 {
			continue
		}
		row := []string{rowNames[m.Name], count(m.N), ms(m.Mean)}
		for _, q := range htmlPercentiles {
			row = append(row, at(m, q))
		}
		g.add(append(row, ms(m.Max))...)
	}
	return g
}

// sloGrid is the SLO verdict table of sc; nil without SLOs.
func sloGrid(sc *metrics.Scope) *grid {
	if len(sc.SLOs) == 0 {
		return nil
	}
	g := &grid{Head: []string{"SLO", "judged on", "observed", "verdict", "met by", "early stopping"}}
	for _, c := range sc.SLOs {
		class := map[string]string{metrics.VerdictPass: "pass", metrics.VerdictFail: "fail"}[c.Verdict]
		observed := "no values"
		if c.N > 0 {
			observed = ms(c.Observed) + " ms"
		}
		stop := "mean: no early stopping"
		switch {
		case c.Verdict == metrics.VerdictNotJudged:
			observed, stop = "not judged", c.Note
		case c.Percentile > 0:
			stop = fmt.Sprintf("%s of %s over the bound", count(c.Exceeded), count(c.Requests))
			switch c.Verdict {
			case metrics.VerdictShort:
				stop += fmt.Sprintf("; need %s more within it (a pass needs %s)", count(c.NeedMore), count(c.MinN))
			case metrics.VerdictPass:
				stop += fmt.Sprintf("; passes from %s", count(c.MinN))
			}
		}
		g.Rows = append(g.Rows, []cell{
			{Text: sloName(c.Metric, c.Percentile, float64(c.BoundUS))}, {Text: c.JudgedOn}, {Text: observed},
			{Text: c.Verdict, Class: class}, {Text: fmt.Sprintf("%s of %s", count(c.Met), count(sc.OK))}, {Text: stop},
		})
	}
	return g
}

// auditGrid is the token audit's table.
func auditGrid(a *metrics.TokenAudit) grid {
	g := grid{Head: []string{"comparison", "n", "disagree", "fewer", "of which stop", "more", "mean diff", "max |diff|", "rel p50", "rel p99"}}
	for _, c := range a.Comparisons {
		g.add(c.Name, count(c.N), count(c.Disagree), count(c.Fewer), count(c.Stopped), count(c.More),
			signed(c.MeanDiff), count(c.MaxAbsDiff), pct(c.RelP50), pct(c.RelP99))
	}
	return g
}

// signed formats v with one decimal and an explicit sign.
func signed(v float64) string { return fmt.Sprintf("%+.1f", v) }

// errorsSection lays out sc's failures.
func errorsSection(sc *metrics.Scope) errorsView {
	e := &sc.Errors
	v := errorsView{Line: fmt.Sprintf("%s of %s sent failed (%s); %s dropped at the concurrency cap (%s).",
		count(e.Failed), count(sc.Sent), pct(e.Rate), count(e.Dropped), pct(e.DropRate))}
	if len(e.ByClass) > 0 {
		g := &grid{Head: []string{"class", "requests"}}
		for _, k := range slices.Sorted(maps.Keys(e.ByClass)) {
			g.add(k, count(e.ByClass[k]))
		}
		for _, k := range slices.Sorted(maps.Keys(e.ByStatus)) {
			st := fmt.Sprintf("HTTP %d", k)
			if k == 0 {
				st = "no HTTP status"
			}
			g.add(st, count(e.ByStatus[k]))
		}
		v.ByClass = g
	}
	if len(e.Top) > 0 {
		g := &grid{Head: []string{"most common messages", "requests"}}
		for _, m := range e.Top {
			g.add(m.Text, count(m.Count))
		}
		v.Messages = g
	}
	return v
}

// styleGrid is one row per prompt style when there are several.
func styleGrid(s *metrics.Summary) *grid {
	if len(s.Styles) < 2 {
		return nil
	}
	rows := styleRows(s)
	g := &grid{Head: rows[0]}
	for _, r := range rows[1:] {
		g.add(r...)
	}
	return g
}

// clientGrid is one row per client when there are several.
func clientGrid(s *metrics.Summary) *grid {
	if len(s.Clients) < 2 {
		return nil
	}
	g := &grid{Head: []string{"client", "sent", "ok", "failed", "req/s", "TTFT p50 ms", "TTFT p99 ms", "E2E p50 ms", "E2E p99 ms"}}
	for i := range s.Clients {
		c := &s.Clients[i]
		g.add(c.Client, count(c.Sent), count(c.OK), count(c.Errors.Failed), num(c.Throughput.RequestsPerS),
			at(&c.Latency.TTFT, 50), at(&c.Latency.TTFT, 99), at(&c.Latency.E2E, 50), at(&c.Latency.E2E, 99))
	}
	return g
}
