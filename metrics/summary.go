package metrics

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"surge/trace"
)

// Options configures Summarize. The zero value summarises all clients
// together with 95% confidence intervals.
type Options struct {
	// PerClient also summarises each client on its own, in Summary.Clients.
	PerClient bool
	// PerStyle also summarises each prompt style on its own, in
	// Summary.Styles, when the records carry more than one style.
	PerStyle bool
	// Level is the confidence level of percentile intervals; 0 means 0.95.
	Level float64
	// SLOConfidence is the confidence level of SLO verdicts (early
	// stopping); 0 means DefaultSLOConfidence.
	SLOConfidence float64
	// LagWarnUS is the p99 schedule lag above which the summary warns that
	// surge sent behind schedule; 0 means 10 ms.
	LagWarnUS int64
	// ClosedLoop names the closed-loop clients (client name → true). For
	// them IntendedUS is when a worker took the session, not a schedule,
	// so their records are left out of the send and scheduled rates (but
	// not of throughput). Nil means the records header's closed_loop.
	ClosedLoop map[string]bool
}

// fromHeader fills the options the records header h says and o leaves
// unset: the closed-loop clients and the SLO confidence level.
func (o Options) fromHeader(h trace.RunHeader) Options {
	if o.ClosedLoop == nil {
		o.ClosedLoop = make(map[string]bool, len(h.ClosedLoop))
		for _, name := range h.ClosedLoop {
			o.ClosedLoop[name] = true
		}
	}
	if o.SLOConfidence == 0 {
		o.SLOConfidence = h.SLOConfidence
	}
	return o
}

// withDefaults fills the zero fields of o.
func (o Options) withDefaults() Options {
	if o.Level <= 0 || o.Level >= 1 {
		o.Level = 0.95
	}
	if o.LagWarnUS <= 0 {
		o.LagWarnUS = 10_000
	}
	if o.SLOConfidence <= 0 || o.SLOConfidence >= 1 {
		o.SLOConfidence = DefaultSLOConfidence
	}
	return o
}

// Summary is what a records file says about a run: the whole run's
// measurement window, and per scope (all clients, then each client)
// latency, throughput, goodput, errors, the token audit, the prefix
// cache hits the server reported and, for multi-request sessions, their
// durations and time split.
type Summary struct {
	Header trace.RunHeader `json:"header"`
	End    *trace.RunEnd   `json:"end,omitempty"` // nil: the run died before its end line
	// Interrupted is true when the run did not finish on its own: no end
	// line, or an end line that says so.
	Interrupted bool `json:"interrupted"`
	// DurationUS is the run's length: the end line's, or without one the
	// last completion offset seen.
	DurationUS int64   `json:"duration_us"`
	Level      float64 `json:"confidence_level"`
	// SLOConfidence is the confidence level of the SLO verdicts.
	SLOConfidence float64 `json:"slo_confidence"`
	Records       int     `json:"records"`         // lines in the file, warmup included
	Warmup        int     `json:"warmup_excluded"` // records excluded as warmup
	Window        Window  `json:"window"`
	All           Scope   `json:"all"`
	Clients       []Scope `json:"clients,omitempty"` // by name; only with Options.PerClient
	Styles        []Scope `json:"styles,omitempty"`  // by prompt style; only with Options.PerStyle
	// PrefixReuse is the prefix-cache reuse the workload implies, from the
	// header (nil when the header has none): the share of prompt tokens an
	// unbounded prefix cache would find cached, to set beside each scope's
	// Cache.HitRate. It covers every turn of the trace in the trace's own
	// token counts, warmup, failed and unsent requests included, while the
	// hit rate counts the server's prompt tokens of successful measured
	// requests only: warmup is left out of it because the cold cache the
	// warmup meets lowers the early hit rate.
	PrefixReuse *trace.Reuse `json:"implied_prefix_reuse,omitempty"`
	// Faults reports the faults the run injected on purpose; nil when it
	// injected none. Every other figure leaves the requests that carried
	// a fault out: it describes the healthy requests.
	Faults *Faults `json:"faults,omitempty"`
	// Warnings are caveats on the figures, footnotes for a reader.
	Warnings []Warning `json:"warnings,omitempty"`
	// ServerTimings sets the server's own per-request timings beside the
	// client's; nil when no request carried any.
	ServerTimings *ServerTimings `json:"server_timings,omitempty"`
	// Measurement is the verdict on the measurement itself: whether the
	// figures can be trusted (see Measurement).
	Measurement *Measurement `json:"measurement,omitempty"`
	// SpecDecode is the server's speculative decoding over the window,
	// from its metrics, when it reports any.
	SpecDecode *SpecDecode `json:"spec_decode,omitempty"`
}

// Scope summarises the measured records of one client, or of all clients
// (Client empty). Measured means neither warmup nor faulted (see
// Population).
type Scope struct {
	Client string `json:"client"`
	// Style is the prompt style of a style's scope (Summary.Styles); empty
	// in the others.
	Style    string `json:"style,omitempty"`
	Requests int    `json:"requests"` // measured records: sent or dropped
	Sent     int    `json:"sent"`
	OK       int    `json:"ok"` // sent without an error class
	// Resent counts measured requests the client re-sent on a fresh
	// connection after a reused one turned out dead before the request
	// reached the server (the server had closed it); Resends is their
	// total number of re-sends. They are not errors.
	Resent  int `json:"resent"`
	Resends int `json:"resends"`
	// Retried counts measured requests sent again under the retry policy
	// (--retries) after a failed attempt, a 429 or 503 answer or a
	// request that never left (no connection, or one that failed before
	// the request was wholly written); Retries is their total number of
	// retries.
	Retried    int        `json:"retried"`
	Retries    int        `json:"retries"`
	Latency    Latency    `json:"latency"`
	Throughput Throughput `json:"throughput"`
	// Goodput is nil when the header has no SLO.
	Goodput *Goodput   `json:"goodput,omitempty"`
	SLOs    []SLOCheck `json:"slos,omitempty"`
	Errors  Errors     `json:"errors"`
	Tokens  TokenAudit `json:"tokens"`
	// Cache is the share of prompt tokens the server reported as prefix
	// cache hits; compare it with Summary.PrefixReuse.
	Cache PrefixCache `json:"prefix_cache"`
	// Sessions is nil unless some measured session of the scope has more
	// than one request.
	Sessions *Sessions `json:"sessions,omitempty"`
}

// Summarize computes the summary of rs. It does no I/O and keeps no
// reference to rs.
func Summarize(rs *trace.Records, opts Options) *Summary {
	o := opts.fromHeader(rs.Header).withDefaults()
	s := &Summary{Header: rs.Header, Level: o.Level, SLOConfidence: o.SLOConfidence, Records: len(rs.Records)}
	s.Header.SLO = slices.Clone(rs.Header.SLO)
	if r := rs.Header.PrefixReuse; r != nil {
		h, sr := *r, *r
		s.Header.PrefixReuse, s.PrefixReuse = &h, &sr
	}
	if rs.End != nil {
		end := *rs.End
		s.End = &end
	}
	s.Interrupted = trace.EndingOf(rs.End) != trace.EndFinished
	every := make([]*trace.Record, len(rs.Records))
	for i := range rs.Records {
		every[i] = &rs.Records[i]
		if every[i].Warmup {
			s.Warmup++
		}
	}
	all, faulted := split(every)
	s.Faults = faults(all, faulted, rs.Header.FaultWindows)
	s.Window = ThroughputWindow(all)
	s.DurationUS = duration(rs.End, all)
	c := newCalc(o, rs.Header.SLO, s.Window)
	c.sessionNote = sessionNote(rs.End)
	groups := groupSessions(all)
	s.All = c.scope("", all)
	if groups != nil {
		s.All.Sessions = c.sessions(groups)
	}
	if o.PerStyle {
		s.Styles = c.styles(all)
	}
	if o.PerClient {
		for _, g := range groupBy(all, func(r *trace.Record) string { return r.Client }) {
			sc := c.scope(g[0].Client, g)
			if groups != nil {
				sc.Sessions = c.sessions(ofClient(groups, sc.Client))
			}
			s.Clients = append(s.Clients, sc)
		}
	}
	s.Warnings = append(runWarnings(s, every, o.LagWarnUS), c.warnings...)
	s.ServerTimings = serverTimings(all, rs.Header.Engine != "")
	s.Measurement = assess(s, o)
	return s
}

// duration is the end line's duration, or the last completion offset.
func duration(end *trace.RunEnd, recs []*trace.Record) int64 {
	if end != nil {
		return end.DurationUS
	}
	var last int64
	for _, r := range recs {
		last = max(last, completion(r))
	}
	return last
}

// groupBy groups recs by key, in order of key: the one grouping of
// records by client or by style.
func groupBy(recs []*trace.Record, key func(*trace.Record) string) [][]*trace.Record {
	index := map[string]int{}
	var groups [][]*trace.Record
	for _, r := range recs {
		i, ok := index[key(r)]
		if !ok {
			i = len(groups)
			index[key(r)] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], r)
	}
	slices.SortFunc(groups, func(a, b []*trace.Record) int { return strings.Compare(key(a[0]), key(b[0])) })
	return groups
}

// styles summarises each prompt style of recs, or returns nil when they
// carry fewer than two. Style scopes add no warnings of their own: the
// run's and the clients' scopes carry them.
func (c *calc) styles(recs []*trace.Record) []Scope {
	groups := groupBy(recs, func(r *trace.Record) string { return r.Style })
	if len(groups) < 2 {
		return nil
	}
	var out []Scope
	for _, g := range groups {
		n := len(c.warnings)
		sc := c.scope("", g)
		c.warnings = c.warnings[:n]
		sc.Style = cmp.Or(g[0].Style, "(none)")
		out = append(out, sc)
	}
	return out
}

// calc holds what every scope's computation shares: options, SLOs, the
// window, a scratch buffer reused for every distribution, and the
// warnings found so far.
type calc struct {
	opts     Options
	slos     []trace.SLO
	window   Window
	ps       map[string][]float64 // metric name → percentiles to report
	buf      []float64            // scratch for one distribution at a time
	sorter   sorter
	counts   counts
	spans    []span // scratch for one session's in-flight intervals
	warnings []Warning
	// sessionNote is the caveat on every scope's session counts.
	sessionNote string
}

// newCalc prepares a calc; each distribution an SLO is judged on also
// reports the SLO's percentile when it is not a standard one. An SLO on an unknown
// metric is warned about here, once.
func newCalc(o Options, slos []trace.SLO, w Window) *calc {
	c := &calc{opts: o, slos: slos, window: w, ps: map[string][]float64{}}
	for _, slo := range slos {
		name := judgedOn(slo.Metric)
		if name == "" {
			c.warn(WarnSLO, "", 0, "slo %q: unknown metric, not judged; expected ttft, ttfo, itl, tpot or e2e", slo.Metric)
			continue
		}
		ps := c.percentiles(name)
		if slo.Percentile > 0 && !slices.Contains(ps, slo.Percentile) {
			c.ps[name] = append(slices.Clip(ps), slo.Percentile)
		}
	}
	return c
}

// countResends counts r's re-sends in sc, the client's on a dead
// connection and the retry policy's apart: the one place either is counted.
func (sc *Scope) countResends(r *trace.Record) {
	if r.Resends > 0 {
		sc.Resent++
		sc.Resends += r.Resends
	}
	if r.Retries > 0 {
		sc.Retried++
		sc.Retries += r.Retries
	}
}

// percentiles are the percentiles reported for the named metric.
func (c *calc) percentiles(name string) []float64 {
	if ps, ok := c.ps[name]; ok {
		return ps
	}
	return standardPercentiles[:]
}

// scope summarises recs, the records of one client or of all.
func (c *calc) scope(client string, recs []*trace.Record) Scope {
	sc := Scope{Client: client}
	for _, r := range recs {
		switch {
		case Dropped.Has(r):
			sc.Requests++
		case Sent.Has(r):
			sc.Requests++
			sc.Sent++
			if Succeeded.Has(r) {
				sc.OK++
			}
			sc.countResends(r)
		}
	}
	sc.Latency = c.latency(recs)
	sc.Throughput = c.throughput(recs)
	sc.Errors = errorCounts(recs)
	sc.Tokens = c.audit(recs)
	sc.Cache = prefixCache(recs)
	sc.SLOs, sc.Goodput = c.goodput(&sc, recs)
	c.sampleWarnings(client, &sc.Latency)
	return sc
}

// warn records a warning.
func (c *calc) warn(kind, client string, p float64, format string, args ...any) {
	c.warnings = append(c.warnings, Warning{Kind: kind, Client: client, P: p, Text: fmt.Sprintf(format, args...)})
}

// measured, succeeded and sent are shorthands for the populations
// Measured, Succeeded and Sent (see Population).
func measured(r *trace.Record) bool  { return Measured.Has(r) }
func succeeded(r *trace.Record) bool { return Succeeded.Has(r) }
func sent(r *trace.Record) bool      { return Sent.Has(r) }

// completion is the offset at which r finished: sent plus E2E.
func completion(r *trace.Record) int64 { return r.SentUS + r.E2EUS }
