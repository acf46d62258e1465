package metrics

import (
	"fmt"

	"surge/trace"
)

// Sessions summarises a scope's sessions: the requests that share a
// client and a session index (trace.Record.Session), one turn each. A
// scope has it only when one of its measured sessions holds more than one
// request, so the reports of single-request workloads do not change.
//
// A session is measured unless its earliest intended request is warmup;
// a warmup session is left out whole, its later measured turns included,
// so no session figure mixes warm and cold. Each measured session is
// exactly one of
//
//	failed      some request of it has an error class (dropped and
//	            cancelled included); the driver sends no turn that
//	            depends on a failed one
//	incomplete  every request ok, but its turn numbers are not 0…n−1
//	            for its n records: a record is missing from the file
//	complete    every request ok and turns 0…n−1 all recorded
//
// Records hold only requests that were sent or dropped, so a session the
// run stopped between two turns (interrupted, or past its duration) looks
// complete; Note says when the run's end line shows planned requests
// that were never sent.
//
// The distributions describe complete sessions, one value each (all
// times µs):
//
//	duration      last completion (SentUS + E2EUS) − first IntendedUS
//	requests      records of the session
//	llm           Σ E2EUS over its requests; parallel requests count
//	              each, so it can exceed the duration
//	llm_busy      length of the union of [SentUS, SentUS + E2EUS): time
//	              with at least one request in flight, ≤ duration
//	tool          Σ WaitUS of its later turns with ToolCalls > 0
//	think         Σ WaitUS of its later turns with ToolCalls = 0
//	max_context   max over its requests of InputTokens(r): the context
//	              the session grew to (a compacting agent's peak)
//
// A later turn is one sent after other turns of its session finished; an
// opening turn is released at the session's start plus its wait
// (a conversation's first turn, every request of a batch job). Records
// do not hold dependencies, but the driver makes them visible: an
// opening turn is intended at start + WaitUS, a later one at the end of
// its dependencies + WaitUS, after the start, so
//
//	opening ⇔ IntendedUS − WaitUS = min over the session of (IntendedUS − WaitUS).
//
// An opening turn's wait is a release offset (a batch job's spread), not
// think or tool time, and counts in neither. For a session of turns one
// after another, duration = Σ lag + llm + tool + think, lag = SentUS −
// IntendedUS.
//
// The per-step distributions split the successful requests of every
// measured session, complete or not, by opening and later turn: TTFT,
// TTFO and pooled ITL as in Latency. Later turns of a conversation
// re-send its history, so their TTFT shows the prefix cache; a
// sub-agent's first turn is a later turn too, though it opens a fresh
// context.
type Sessions struct {
	Sessions   int `json:"sessions"` // measured sessions
	Complete   int `json:"complete"`
	Failed     int `json:"failed"`
	Incomplete int `json:"incomplete"`
	// Warmup counts sessions excluded because their first request was
	// warmup.
	Warmup int `json:"warmup_excluded"`
	// Deadlines counts the complete sessions with a completion deadline
	// (batch jobs), and DeadlinesMet those whose last request ended within
	// it of the session's start.
	Deadlines    int `json:"deadlines,omitempty"`
	DeadlinesMet int `json:"deadlines_met,omitempty"`

	Duration   Metric `json:"duration"`
	Requests   Metric `json:"requests"`
	LLM        Metric `json:"llm"`
	LLMBusy    Metric `json:"llm_busy"`
	Tool       Metric `json:"tool"`
	Think      Metric `json:"think"`
	MaxContext Metric `json:"max_context"`

	TTFTFirst Metric `json:"ttft_first"`
	TTFTLater Metric `json:"ttft_later"`
	TTFOFirst Metric `json:"ttfo_first"`
	TTFOLater Metric `json:"ttfo_later"`
	ITLFirst  Metric `json:"itl_first"`
	ITLLater  Metric `json:"itl_later"`

	// Note states a caveat on the counts, when the run left planned
	// requests unsent.
	Note string `json:"note,omitempty"`
}

// Metrics returns the per-session distributions of s in report order.
func (s *Sessions) Metrics() []*Metric {
	return []*Metric{&s.Duration, &s.Requests, &s.LLM, &s.LLMBusy, &s.Tool, &s.Think, &s.MaxContext}
}

// Steps returns the per-request distributions of s, opening and later
// turns, in report order.
func (s *Sessions) Steps() []*Metric {
	return []*Metric{&s.TTFTFirst, &s.TTFTLater, &s.TTFOFirst, &s.TTFOLater, &s.ITLFirst, &s.ITLLater}
}

// session is what one session's records say about it.
type session struct {
	warmup, failed, complete bool
	requests                 int
	origin                   int64 // least IntendedUS − WaitUS
	startUS, endUS           int64
	llmUS, busyUS            int64
	toolUS, thinkUS          int64
	context                  int
	deadline                 int64 // completion deadline from origin; 0 for none
}

// sessionFigures are the per-session distributions, in the order of
// Sessions.Metrics.
var sessionFigures = []struct {
	name, unit string
	value      func(*session) float64
}{
	{"duration", UnitUS, func(s *session) float64 { return float64(s.endUS - s.startUS) }},
	{"requests", UnitRequests, func(s *session) float64 { return float64(s.requests) }},
	{"llm", UnitUS, func(s *session) float64 { return float64(s.llmUS) }},
	{"llm_busy", UnitUS, func(s *session) float64 { return float64(s.busyUS) }},
	{"tool", UnitUS, func(s *session) float64 { return float64(s.toolUS) }},
	{"think", UnitUS, func(s *session) float64 { return float64(s.thinkUS) }},
	{"max_context", UnitTokens, func(s *session) float64 { return float64(s.context) }},
}

// sessions summarises the sessions of one scope, each group the records
// of one session, or returns nil when no measured session has more than
// one request.
func (c *calc) sessions(groups [][]*trace.Record) *Sessions {
	ss := &Sessions{Note: c.sessionNote}
	var done []session
	var first, later []*trace.Record
	multi := false
	for _, g := range groups {
		s := c.session(g)
		if s.warmup {
			ss.Warmup++
			continue
		}
		multi = multi || len(g) > 1
		ss.Sessions++
		switch {
		case s.failed:
			ss.Failed++
		case s.complete:
			ss.Complete++
			done = append(done, s)
			if s.deadline > 0 {
				ss.Deadlines++
				if s.endUS-s.origin <= s.deadline {
					ss.DeadlinesMet++
				}
			}
		default:
			ss.Incomplete++
		}
		first, later = splitTurns(g, s.origin, first, later)
	}
	if !multi {
		return nil
	}
	for i, m := range ss.Metrics() {
		f := sessionFigures[i]
		buf := c.buf[:0]
		for j := range done {
			buf = append(buf, f.value(&done[j]))
		}
		c.buf = buf
		c.sorter.sort(buf)
		*m = describe(f.name, f.unit, buf, standardPercentiles[:], c.opts.Level, true)
	}
	c.steps(ss, first, later)
	return ss
}

// steps fills the per-request distributions of ss from the opening and
// later turns of the measured sessions.
func (c *calc) steps(ss *Sessions, first, later []*trace.Record) {
	ttft := func(r *trace.Record) (float64, bool) { v, ok := TTFT(r); return float64(v), ok }
	ttfo := func(r *trace.Record) (float64, bool) { v, ok := TTFO(r); return float64(v), ok }
	ss.TTFTFirst = c.metric("ttft_first", UnitUS, first, succeeded, ttft)
	ss.TTFTLater = c.metric("ttft_later", UnitUS, later, succeeded, ttft)
	ss.TTFOFirst = c.metric("ttfo_first", UnitUS, first, succeeded, ttfo)
	ss.TTFOLater = c.metric("ttfo_later", UnitUS, later, succeeded, ttfo)
	ss.ITLFirst = c.pooled("itl_first", first)
	ss.ITLLater = c.pooled("itl_later", later)
}

// splitTurns appends the opening turns of session g, whose origin is
// origin, to first and its later turns to later (see Sessions).
func splitTurns(g []*trace.Record, origin int64, first, later []*trace.Record) ([]*trace.Record, []*trace.Record) {
	for _, r := range g {
		if r.IntendedUS-r.WaitUS == origin {
			first = append(first, r)
		} else {
			later = append(later, r)
		}
	}
	return first, later
}

// sessionOrigin is the start of session g as its records show it: the
// least IntendedUS − WaitUS, which its opening turns share.
func sessionOrigin(g []*trace.Record) int64 {
	origin := g[0].IntendedUS - g[0].WaitUS
	for _, r := range g[1:] {
		origin = min(origin, r.IntendedUS-r.WaitUS)
	}
	return origin
}

// sessionNote is the caveat on session counts of a run whose end line
// shows planned requests that were never sent, or that has none.
func sessionNote(end *trace.RunEnd) string {
	const cut = "a session stopped between two turns looks complete, since records hold only the requests sent or dropped"
	switch {
	case end == nil:
		return "the run has no end line: " + cut
	case end.Interrupted:
		return "the run was interrupted: " + cut
	case end.Scheduled > end.Sent+end.Dropped:
		n, were := end.Scheduled-end.Sent-end.Dropped, "requests were"
		if n == 1 {
			were = "request was"
		}
		return fmt.Sprintf("%d planned %s never sent (turns after a failed one, or due after the run stopped scheduling): %s", n, were, cut)
	}
	return ""
}
