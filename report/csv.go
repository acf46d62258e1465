package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	"surge/metrics"
	"surge/trace"
)

// AllScope names the scope of all clients together in CSV reports.
const AllScope = "(all)"

// StyleScope prefixes the scope of a prompt style's figures in CSV
// reports: "style:code".
const StyleScope = "style:"

// CSV writes s in long form, one figure a row, for spreadsheets and data
// frames to pivot: the columns are scope (a client, AllScope, or a
// prompt style after StyleScope), section
// (run, requests, connections, latency, throughput, goodput, slo
// (with its verdict word), measurement, spec_decode, errors,
// errors_by_class, errors_by_status, errors_top, tokens, choices (requests
// for several choices, with their tokens per choice), prefix_cache,
// sessions, warning), name (the metric, SLO, class or comparison; for
// prefix_cache, "server" for the hits the server reported, "implied" for
// the reuse the workload implies, a row of the whole run), stat, value
// and unit. Latency values are microseconds (unit us, or us/token for
// TPOT); a percentile pXX comes with pXX_lo, pXX_hi and pXX_coverage when
// it has an interval; a metric that does not apply (nothing was
// streamed) has a not_applicable row and no values. A scope has sessions rows only when the summary
// has them (metrics.Sessions): the counts under an empty name, then each
// distribution under its name like a latency (units us, requests or
// tokens).
func CSV(w io.Writer, s *metrics.Summary) error { return CSVEngine(w, s, nil) }

// CSVEngine writes s as CSV does, then the engine-against-client table es
// (see EngineLatency) in section engine, one row per figure of each
// metric (the name): family, n, from and to (us), the means (mean_engine,
// mean_client, mean_gap), and per percentile pXX its engine value, bucket
// bounds (pXX_bucket_lo, pXX_bucket_hi, +Inf for the overflow bucket),
// pXX_top_bucket, pXX_client, pXX_gap_measurable and, only when
// measurable, pXX_gap.
func CSVEngine(w io.Writer, s *metrics.Summary, es []EngineLatency) error {
	c := &csvRows{w: csv.NewWriter(w)}
	c.row("scope", "section", "name", "stat", "value", "unit")
	c.run(s)
	c.scope(AllScope, &s.All)
	c.implied(s.PrefixReuse)
	c.specDecode(s.SpecDecode)
	for i := range s.Clients {
		c.scope(s.Clients[i].Client, &s.Clients[i])
	}
	for i := range s.Styles {
		c.scope(StyleScope+s.Styles[i].Style, &s.Styles[i])
	}
	c.measurement(s.Measurement)
	for _, wn := range s.Warnings {
		scope := wn.Client
		if scope == "" {
			scope = AllScope
		}
		c.row(scope, "warning", wn.Kind, "text", wn.Text, "")
	}
	for i := range es {
		c.engine(&es[i])
	}
	c.w.Flush()
	if c.err == nil {
		c.err = c.w.Error()
	}
	if c.err != nil {
		return fmt.Errorf("writing CSV report: %w", c.err)
	}
	return nil
}

// csvRows writes rows, keeping the first error.
type csvRows struct {
	w   *csv.Writer
	err error
}

func (c *csvRows) row(cells ...string) {
	if c.err == nil {
		c.err = c.w.Write(cells)
	}
}

// f formats a number exactly, with the fewest digits that read back.
func f(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// i formats an integer.
func i[T int | int64](v T) string { return strconv.FormatInt(int64(v), 10) }

// run writes the run's own figures.
func (c *csvRows) run(s *metrics.Summary) {
	r := func(stat, value, unit string) { c.row(AllScope, "run", "", stat, value, unit) }
	r("target", s.Header.Target, "")
	r("workload_hash", s.Header.WorkloadHash, "")
	r("seed", strconv.FormatUint(s.Header.Seed, 10), "")
	r("interrupted", strconv.FormatBool(s.Interrupted), "")
	r("duration", i(s.DurationUS), "us")
	r("records", i(s.Records), "")
	r("warmup_excluded", i(s.Warmup), "")
	r("window_start", i(s.Window.StartUS), "us")
	r("window_end", i(s.Window.EndUS), "us")
	r("confidence_level", f(s.Level), "")
}

// scope writes every figure of one scope.
func (c *csvRows) scope(name string, sc *metrics.Scope) {
	c.row(name, "requests", "", "measured", i(sc.Requests), "")
	c.row(name, "requests", "", "sent", i(sc.Sent), "")
	c.row(name, "requests", "", "ok", i(sc.OK), "")
	c.row(name, "connections", "", "resent_requests", i(sc.Resent), "")
	c.row(name, "connections", "", "resends", i(sc.Resends), "")
	c.row(name, "retries", "", "retried_requests", i(sc.Retried), "")
	c.row(name, "retries", "", "retries", i(sc.Retries), "")
	for _, m := range sc.Latency.Metrics() {
		c.metric(name, "latency", m)
	}
	c.throughput(name, &sc.Throughput)
	if g := sc.Goodput; g != nil {
		c.row(name, "goodput", "", "requests", i(g.Requests), "")
		c.row(name, "goodput", "", "rate", f(g.PerS), "1/s")
		c.row(name, "goodput", "", "fraction", f(g.Fraction), "")
	}
	for _, ch := range sc.SLOs {
		c.slo(name, ch)
	}
	c.errors(name, &sc.Errors)
	for _, cmp := range sc.Tokens.Comparisons {
		c.comparison(name, cmp)
	}
	if ch := sc.Tokens.Choices; ch != nil {
		c.choices(name, ch)
	}
	c.cache(name, &sc.Cache)
	c.sessions(name, sc.Sessions)
}

// choices writes the requests for several choices and their tokens per
// choice (see metrics.ChoiceTokens).
func (c *csvRows) choices(scope string, ch *metrics.ChoiceTokens) {
	r := func(stat, value, unit string) { c.row(scope, "choices", "", stat, value, unit) }
	r("requests", i(ch.Requests), "")
	r("choices", i(ch.Choices), "")
	r("streamed", i(ch.Streamed), "")
	r("mean_tokens", f(ch.Mean), "tokens")
	r("min_tokens", i(ch.Min), "tokens")
	r("max_tokens", i(ch.Max), "tokens")
	r("over_max_tokens", i(ch.OverMax), "")
}

// cache writes the prefix-cache hits the server reported for a scope; the
// hit rate only when it reported any (see metrics.PrefixCache).
func (c *csvRows) cache(scope string, pc *metrics.PrefixCache) {
	r := func(stat, value string) { c.row(scope, "prefix_cache", "server", stat, value, "") }
	r("requests", i(pc.Requests))
	r("prompt_tokens", i(pc.PromptTokens))
	r("cached_tokens", i(pc.CachedTokens))
	r("reported", strconv.FormatBool(pc.Reported))
	if pc.Reported {
		r("hit_rate", f(pc.HitRate))
	}
}

// implied writes the prefix-cache reuse the workload implies, if known.
func (c *csvRows) implied(ru *trace.Reuse) {
	if ru == nil {
		return
	}
	r := func(stat, value string) { c.row(AllScope, "prefix_cache", "implied", stat, value, "") }
	r("block_tokens", i(ru.BlockTokens))
	r("prompt_tokens", i(ru.Prompt))
	r("cached_tokens", i(ru.Cached))
	r("hit_rate", f(ru.Ratio()))
}

// specDecode writes the server's speculative decoding, when it reported
// any, in section spec_decode under the source's name.
func (c *csvRows) specDecode(d *metrics.SpecDecode) {
	if d == nil {
		return
	}
	r := func(stat, value, unit string) { c.row(AllScope, "spec_decode", d.Source, stat, value, unit) }
	r("acceptance_rate", f(d.AcceptanceRate), "")
	if d.AcceptLength > 0 {
		r("accept_length", f(d.AcceptLength), "tokens")
	}
	if d.DraftTokens > 0 {
		r("drafts", f(d.Drafts), "")
		r("draft_tokens", f(d.DraftTokens), "tokens")
		r("accepted_tokens", f(d.Accepted), "tokens")
	}
	for k, v := range d.PerPosition {
		r("position_"+strconv.Itoa(k), f(v), "")
	}
}

// metric writes one distribution of section (latency, sessions).
func (c *csvRows) metric(scope, section string, m *metrics.Metric) {
	r := func(stat, value, unit string) { c.row(scope, section, m.Name, stat, value, unit) }
	r("n", i(m.N), "")
	r("undefined", i(m.Undefined), "")
	if m.NotApplicable != "" {
		r("not_applicable", m.NotApplicable, "")
	}
	if m.N == 0 {
		return
	}
	r("mean", f(m.Mean), m.Unit)
	r("min", f(m.Min), m.Unit)
	r("max", f(m.Max), m.Unit)
	for _, q := range m.Percentiles {
		p := metrics.PercentileName(q.P)
		r(p, f(q.Value), m.Unit)
		if q.CI != nil {
			r(p+"_lo", f(q.CI.Lo), m.Unit)
			r(p+"_hi", f(q.CI.Hi), m.Unit)
			r(p+"_coverage", f(q.CI.Coverage), "")
		}
	}
}

// throughput writes the rates of a scope.
func (c *csvRows) throughput(scope string, t *metrics.Throughput) {
	r := func(stat, value, unit string) { c.row(scope, "throughput", "", stat, value, unit) }
	r("requests", i(t.Requests), "")
	r("request_rate", f(t.RequestsPerS), "1/s")
	r("input_tokens", i(t.InputTokens), "")
	na := t.OutputNotApplicable != ""
	if !na {
		r("output_tokens", i(t.OutputTokens), "")
	}
	if t.Inputs > 0 {
		r("inputs", i(t.Inputs), "")
		r("input_rate", f(t.InputsPerS), "1/s")
	}
	if t.Documents > 0 {
		r("documents", i(t.Documents), "")
		r("document_rate", f(t.DocumentsPerS), "1/s")
	}
	r("input_token_rate", f(t.InputTokensPerS), "1/s")
	if t.ImageRequests > 0 {
		r("image_requests", i(t.ImageRequests), "")
		r("images", i(t.Images), "")
		r("image_tokens", i(t.ImageTokens), "")
		r("image_tokens_per_request", f(t.ImageTokensPerRequest), "")
	}
	if na {
		r("output_not_applicable", t.OutputNotApplicable, "")
	} else {
		r("output_token_rate", f(t.OutputTokensPerS), "1/s")
		r("output_source", t.OutputSource, "")
	}
	r("send_rate", f(t.SendRatePerS), "1/s")
	r("scheduled_rate", f(t.ScheduledRatePerS), "1/s")
	r("rate_excluded", i(t.RateExcluded), "")
	r("peak_concurrency", i(t.PeakConcurrency), "")
	r("mean_concurrency", f(t.MeanConcurrency), "")
}

// slo writes one SLO verdict.
func (c *csvRows) slo(scope string, ch metrics.SLOCheck) {
	r := func(stat, value, unit string) {
		c.row(scope, "slo", ch.Metric+" "+metrics.PercentileName(ch.Percentile), stat, value, unit)
	}
	r("judged_on", ch.JudgedOn, "")
	r("bound", i(ch.BoundUS), "us")
	r("n", i(ch.N), "")
	r("observed", f(ch.Observed), "us")
	if ch.CI != nil {
		r("observed_lo", f(ch.CI.Lo), "us")
		r("observed_hi", f(ch.CI.Hi), "us")
	}
	r("verdict", ch.Verdict, "")
	r("pass", strconv.FormatBool(ch.Pass), "")
	r("conclusive", strconv.FormatBool(ch.Conclusive), "")
	r("met", i(ch.Met), "")
	r("requests", i(ch.Requests), "")
	r("exceeded", i(ch.Exceeded), "")
}

// measurement writes the verdict on the measurement and each check's
// outcome (ok, fail or n/a) with its detail.
func (c *csvRows) measurement(m *metrics.Measurement) {
	if m == nil {
		return
	}
	c.row(AllScope, "measurement", "", "verdict", m.Verdict, "")
	for _, ch := range m.Checks {
		outcome := "ok"
		switch {
		case !ch.Applies:
			outcome = "n/a"
		case !ch.OK:
			outcome = "fail"
		}
		c.row(AllScope, "measurement", ch.Name, "outcome", outcome, "")
		c.row(AllScope, "measurement", ch.Name, "detail", ch.Detail, "")
	}
}

// errors writes the failure counts of a scope.
func (c *csvRows) errors(scope string, e *metrics.Errors) {
	c.row(scope, "errors", "", "failed", i(e.Failed), "")
	c.row(scope, "errors", "", "rate", f(e.Rate), "")
	c.row(scope, "errors", "", "dropped", i(e.Dropped), "")
	c.row(scope, "errors", "", "drop_rate", f(e.DropRate), "")
	for _, k := range slices.Sorted(maps.Keys(e.ByClass)) {
		c.row(scope, "errors_by_class", k, "count", i(e.ByClass[k]), "")
	}
	for _, k := range slices.Sorted(maps.Keys(e.ByStatus)) {
		c.row(scope, "errors_by_status", i(k), "count", i(e.ByStatus[k]), "")
	}
	for _, m := range e.Top {
		c.row(scope, "errors_top", m.Text, "count", i(m.Count), "")
	}
}

// comparison writes one token-count comparison.
func (c *csvRows) comparison(scope string, cmp metrics.Comparison) {
	r := func(stat, value string) { c.row(scope, "tokens", cmp.Name, stat, value, "") }
	r("n", i(cmp.N))
	r("disagree", i(cmp.Disagree))
	r("fewer", i(cmp.Fewer))
	r("more", i(cmp.More))
	r("stopped", i(cmp.Stopped))
	r("mean_diff", f(cmp.MeanDiff))
	r("max_abs_diff", i(cmp.MaxAbsDiff))
	r("rel_p50", f(cmp.RelP50))
	r("rel_p90", f(cmp.RelP90))
	r("rel_p99", f(cmp.RelP99))
}

// engine writes one row of the engine-against-client table.
func (c *csvRows) engine(e *EngineLatency) {
	r := func(stat, value, unit string) { c.row(AllScope, "engine", e.Metric, stat, value, unit) }
	opt := func(stat string, v *float64) {
		if v != nil {
			r(stat, f(*v), "us")
		}
	}
	r("family", e.Family, "")
	r("n", i(e.Count), "")
	r("from", i(e.FromUS), "us")
	r("to", i(e.ToUS), "us")
	if m := e.Mean; m != nil {
		r("mean_engine", f(m.EngineUS), "us")
		opt("mean_client", m.ClientUS)
		opt("mean_gap", m.GapUS)
	}
	for _, q := range e.Quantiles {
		p := metrics.PercentileName(q.P)
		r(p+"_engine", f(q.EngineUS), "us")
		r(p+"_bucket_lo", f(q.BucketLoUS), "us")
		hi := "+Inf"
		if q.BucketHiUS != nil {
			hi = f(*q.BucketHiUS)
		}
		r(p+"_bucket_hi", hi, "us")
		r(p+"_top_bucket", strconv.FormatBool(q.TopBucket), "")
		opt(p+"_client", q.ClientUS)
		r(p+"_gap_measurable", strconv.FormatBool(q.Measurable), "")
		opt(p+"_gap", q.GapUS)
	}
}
