package metrics

import (
	"encoding/json"

	"surge/trace"
)

// Units of Metric values.
const (
	UnitUS       = "us"       // microseconds
	UnitUSToken  = "us/token" // microseconds per output token
	UnitRequests = "requests" // requests per session
	UnitTokens   = "tokens"   // prompt tokens
)

// Latency holds every latency distribution of a scope. Latencies count
// from the moment the request was written (SentUS) unless named "+lag",
// which count from the intended send time. See the package documentation
// for each definition.
type Latency struct {
	TTFT Metric `json:"ttft"`
	TTFO Metric `json:"ttfo"`
	// TTFTC is the time to the first event carrying a tool call, over
	// the requests whose reply called a tool.
	TTFTC   Metric `json:"ttftc"`
	ITL     Metric `json:"itl"`
	TPOT    Metric `json:"tpot"`
	E2E     Metric `json:"e2e"`
	TTFTLag Metric `json:"ttft_lag"`
	TTFOLag Metric `json:"ttfo_lag"`
	E2ELag  Metric `json:"e2e_lag"`
	Lag     Metric `json:"lag"`
	Queue   Metric `json:"queue"`
}

// Metrics returns the distributions of l in report order.
func (l *Latency) Metrics() []*Metric {
	return []*Metric{&l.TTFT, &l.TTFO, &l.TTFTC, &l.ITL, &l.TPOT, &l.E2E, &l.TTFTLag, &l.TTFOLag, &l.E2ELag, &l.Lag, &l.Queue}
}

// Named returns the distribution an SLO on the metric name (ttft, ttfo,
// itl, tpot, e2e) is judged on, or nil. TTFT, TTFO and E2E SLOs are judged
// from the intended send time (ttft+lag, ttfo+lag, e2e+lag), so time a
// request spent queued behind its schedule counts against them (no
// coordinated omission); TPOT and ITL do not depend on when it was sent.
func (l *Latency) Named(name string) *Metric {
	switch name {
	case "ttft":
		return &l.TTFTLag
	case "ttfo":
		return &l.TTFOLag
	case "itl":
		return &l.ITL
	case "tpot":
		return &l.TPOT
	case "e2e":
		return &l.E2ELag
	}
	return nil
}

// judgedOn names the distribution an SLO on metric is judged on (see
// Latency.Named), or "" for an unknown metric.
func judgedOn(metric string) string {
	switch metric {
	case "ttft", "ttfo", "e2e":
		return metric + "+lag"
	case "itl", "tpot":
		return metric
	}
	return ""
}

// itlNote is the caveat on pooled inter-token latencies.
const itlNote = "all gaps of all successful requests pooled; no confidence intervals, since gaps within a request are not independent"

// latency computes the distributions of a scope's measured records.
func (c *calc) latency(recs []*trace.Record) Latency {
	var l Latency
	l.TTFT = c.metric("ttft", UnitUS, recs, succeeded, func(r *trace.Record) (float64, bool) {
		v, ok := TTFT(r)
		return float64(v), ok
	})
	l.TTFO = c.metric("ttfo", UnitUS, recs, succeeded, func(r *trace.Record) (float64, bool) {
		v, ok := TTFO(r)
		return float64(v), ok
	})
	l.TTFTC = c.metric("ttftc", UnitUS, recs, succeeded, func(r *trace.Record) (float64, bool) {
		v, ok := TTFTC(r)
		return float64(v), ok
	})
	if l.TTFTC.N == 0 {
		l.TTFTC = Metric{Name: "ttftc", Unit: UnitUS, NotApplicable: NoToolCallsReason}
	}
	l.ITL = c.itl(recs)
	l.TPOT = c.metric("tpot", UnitUSToken, recs, succeeded, TPOT)
	l.E2E = c.metric("e2e", UnitUS, recs, succeeded, func(r *trace.Record) (float64, bool) {
		return float64(r.E2EUS), true
	})
	l.TTFTLag = c.metric("ttft+lag", UnitUS, recs, succeeded, func(r *trace.Record) (float64, bool) {
		v, ok := TTFT(r)
		return float64(FromIntended(r, v)), ok
	})
	l.TTFOLag = c.metric("ttfo+lag", UnitUS, recs, succeeded, func(r *trace.Record) (float64, bool) {
		v, ok := TTFO(r)
		return float64(FromIntended(r, v)), ok
	})
	l.E2ELag = c.metric("e2e+lag", UnitUS, recs, succeeded, func(r *trace.Record) (float64, bool) {
		return float64(FromIntended(r, r.E2EUS)), true
	})
	l.Lag = c.metric("lag", UnitUS, recs, sent, func(r *trace.Record) (float64, bool) {
		return float64(Lag(r)), true
	})
	l.Queue = c.metric("queue", UnitUS, recs, sent, func(r *trace.Record) (float64, bool) {
		return float64(r.QueueUS), true
	})
	if why := noTokenTimes(recs); why != "" {
		for _, m := range []*Metric{&l.TTFT, &l.TTFO, &l.TTFTC, &l.ITL, &l.TPOT, &l.TTFTLag, &l.TTFOLag} {
			m.NotApplicable = why
		}
	}
	return l
}

// NoToolCallsReason is Metric.NotApplicable for TTFTC in a scope where no
// successful streamed reply called a tool.
const NoToolCallsReason = "no tool calls: no streamed reply called a tool"

// NotStreamedReason is Metric.NotApplicable for the token-timing metrics
// of a scope none of whose successful requests was streamed.
const NotStreamedReason = "not streamed: each answer came whole, so it has no token times"

// EmbeddingsReason is Metric.NotApplicable for the token-timing metrics,
// and Throughput.OutputNotApplicable, of a scope whose successful
// requests were all embeddings requests.
const EmbeddingsReason = "embeddings: each answer is one body of vectors, with no tokens to time or count"

// ScoresReason is EmbeddingsReason for a scope whose successful requests
// were all rerank or score requests.
const ScoresReason = "rerank and score: each answer is one body of scores, with no tokens to time or count"

// PooledReason is EmbeddingsReason for a scope whose successful requests
// were all embeddings, rerank or score requests, of more than one kind.
const PooledReason = "embeddings, rerank and score: each answer is one body of vectors or scores, with no tokens to time or count"

// noTokenTimes is why the token-timing metrics of recs do not apply
// (pooledReason's, NotStreamedReason), or "" when they do.
func noTokenTimes(recs []*trace.Record) string {
	if why := pooledReason(recs); why != "" {
		return why
	}
	if noneStreamed(recs) {
		return NotStreamedReason
	}
	return ""
}

// pooledReason is why recs have no tokens to time or count when they
// have successful requests and all of them were pooled (trace.Record's
// Pooled): EmbeddingsReason, ScoresReason or PooledReason by their kinds;
// "" otherwise.
func pooledReason(recs []*trace.Record) string {
	embeddings, scored := 0, 0
	for _, r := range recs {
		switch {
		case !succeeded(r):
		case r.Embeddings():
			embeddings++
		case r.Scored():
			scored++
		default:
			return ""
		}
	}
	switch {
	case scored == 0 && embeddings > 0:
		return EmbeddingsReason
	case embeddings == 0 && scored > 0:
		return ScoresReason
	case scored > 0:
		return PooledReason
	}
	return ""
}

// MarshalJSON writes m; a metric that does not apply (NotApplicable) is
// written as its name, unit, counts and reason only, so that no mean or
// percentile of 0 stands in for one that does not exist.
func (m Metric) MarshalJSON() ([]byte, error) {
	type plain Metric // without this method
	if m.NotApplicable == "" {
		return json.Marshal(plain(m))
	}
	return json.Marshal(struct {
		Name          string `json:"name"`
		Unit          string `json:"unit"`
		N             int    `json:"n"`
		Undefined     int    `json:"undefined,omitempty"`
		NotApplicable string `json:"not_applicable"`
	}{m.Name, m.Unit, m.N, m.Undefined, m.NotApplicable})
}

// TTFT is r's time to first token in µs, from its send; ok is false
// without a first token or for a response not streamed.
func TTFT(r *trace.Record) (us int64, ok bool) { return r.TTFTUS, r.TTFTUS > 0 && Streamed(r) }

// TTFO is r's time to first answer token in µs, from its send; ok is
// false without one or for a response not streamed.
func TTFO(r *trace.Record) (us int64, ok bool) { return r.TTFOUS, r.TTFOUS > 0 && Streamed(r) }

// TTFTC is r's time to the first event carrying a tool call in µs, from
// its send; ok is false when its reply called no tool or was not
// streamed.
func TTFTC(r *trace.Record) (us int64, ok bool) { return r.TTFTCUS, r.TTFTCUS > 0 && Streamed(r) }

// Streamed reports whether r's response came as an event stream; TTFT,
// TTFO, ITL and TPOT exist only for such a request (a response that came
// whole has its first token at its last byte).
func Streamed(r *trace.Record) bool { return !r.NotStreamed }

// noneStreamed reports whether recs have successful requests and none of
// them was streamed.
func noneStreamed(recs []*trace.Record) bool {
	n := 0
	for _, r := range recs {
		if succeeded(r) {
			if Streamed(r) {
				return false
			}
			n++
		}
	}
	return n > 0
}

// Lag is r's schedule lag in µs, SentUS − IntendedUS: how late it was
// sent; it includes QueueUS.
func Lag(r *trace.Record) int64 { return r.SentUS - r.IntendedUS }

// OutputTokens is the number of tokens r generated: the server's
// usage.completion_tokens when it reported one, else the number of
// token-bearing stream events (which undercounts a server that puts
// several tokens in one event).
func OutputTokens(r *trace.Record) int {
	if r.ServerOutputTokens > 0 {
		return r.ServerOutputTokens
	}
	return r.Chunks
}

// InputTokens is the number of prompt tokens r carried: the server's
// usage.prompt_tokens when it reported one, else surge's own count of the
// text sent, else the trace's requested count.
func InputTokens(r *trace.Record) int {
	switch {
	case r.ServerInputTokens > 0:
		return r.ServerInputTokens
	case r.ClientInputTokens > 0:
		return r.ClientInputTokens
	}
	return r.InputTokens
}

// TPOT is r's time per output token after the first, in microseconds:
//
//	TPOT = (E2E − TTFT) / (OutputTokens / choices − 1)
//
// where choices is the n of a request for several, whose choices are
// generated side by side: the tokens per choice, on average, take the
// time. It is undefined (ok false) without a first token, with fewer
// than two output tokens per choice, or for a response that was not
// streamed.
func TPOT(r *trace.Record) (us float64, ok bool) {
	n := float64(OutputTokens(r)) / float64(choices(r))
	if r.TTFTUS <= 0 || n < 2 || !Streamed(r) {
		return 0, false
	}
	return float64(r.E2EUS-r.TTFTUS) / (n - 1), true
}

// metric describes f over the records of recs in population in; records
// where f is undefined are counted in Undefined.
func (c *calc) metric(name, unit string, recs []*trace.Record, in func(*trace.Record) bool, f func(*trace.Record) (float64, bool)) Metric {
	if cap(c.buf) < len(recs) {
		c.buf = make([]float64, 0, len(recs))
	}
	buf, pop := c.buf[:0], 0
	for _, r := range recs {
		if !in(r) {
			continue
		}
		pop++
		if v, ok := f(r); ok {
			buf = append(buf, v)
		}
	}
	c.buf = buf
	c.sorter.sort(buf)
	m := describe(name, unit, buf, c.percentiles(name), c.opts.Level, true)
	m.Undefined = pop - len(buf)
	return m
}

// roundedSum is the sum of t's gaps as it counts them, rounded.
func roundedSum(t *trace.GapTail) int64 {
	var sum int64
	for _, e := range t.Gaps {
		sum += e[0] * e[1]
	}
	return sum
}

// itl pools every gap of every successful measured request, counting
// them rather than listing them (see counts).
func (c *calc) itl(recs []*trace.Record) Metric { return c.pooled("itl", recs) }

// pooled is the distribution named name of every gap of every successful
// measured request of recs.
func (c *calc) pooled(name string, recs []*trace.Record) Metric {
	c.counts.reset()
	none := 0
	for _, r := range recs {
		if !succeeded(r) {
			continue
		}
		if r.Gaps() == 0 || !Streamed(r) {
			none++
			continue
		}
		for g, n := range r.GapCounts() {
			c.counts.addN(g, n)
		}
		if t := r.ITLTail; t != nil {
			c.counts.sum += float64(t.SumUS - roundedSum(t)) // the mean stays exact
		}
	}
	m := c.counts.describe(name, UnitUS, c.percentiles(name))
	m.Undefined, m.Note = none, itlNote
	return m
}
