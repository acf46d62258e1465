package recompute

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"testing"
)

// checkDir recomputes every figure of dir/report.json from
// dir/records.jsonl, and checks report.txt and report.html against it.
func checkDir(t *testing.T, dir, what string) (*records, reportJSON) {
	t.Helper()
	rs := readRecords(t, dir)
	var rep reportJSON
	readJSON(t, dir, "report.json", &rep)
	checkRun(t, rs, rep, what)
	checkFormats(t, what, readText(t, dir, "report.txt"), readText(t, dir, "report.html"), rep)
	checkCSV(t, what, mustSurge(t, []int{0, 1, 130}, "report", dir, "--format", "csv"), rep)
	return rs, rep
}

// checkRun recomputes every figure of rep from rs and reports each that
// differs.
func checkRun(t *testing.T, rs *records, rep reportJSON, what string) {
	t.Helper()
	checkRecords(t, what, rs)
	rs = withoutTokenTimes(rs)
	c := checker{t: t, what: what}
	c.eqInt("records", int64(rep.Records), int64(len(rs.Recs)))
	warm := 0
	var ms []record
	for _, r := range rs.Recs {
		if r.Warmup {
			warm++
		}
		if measured(r) {
			ms = append(ms, r)
		}
	}
	c.eqInt("warmup_excluded", int64(rep.Warmup), int64(warm))
	interrupted := rs.End == nil || rs.End.Interrupted
	if rep.Interrupted != interrupted {
		c.t.Errorf("%s interrupted: reported %v, recomputed %v (end line %+v)", what, rep.Interrupted, interrupted, rs.End)
	}
	conf := rep.SLOConfidence
	if conf == 0 {
		t.Errorf("%s: no slo_confidence", what)
		conf = 0.99
	}
	ws, we := window(ms)
	c.eqInt("window start_us", rep.Window.StartUS, ws)
	c.eqInt("window end_us", rep.Window.EndUS, we)
	all := scope(ms, rs.Header, ws, we, conf)
	ca := checker{t: t, what: what + " all"}
	ca.checkScope(rep.All, all)
	ca.checkMeasurement(rep.Measurement, rs, all)
	ca.checkServerTimings(rep.ServerTimings, ms)
	peak, mean := concurrency(rs.Recs, ws, we)
	ca.eqInt("peak_concurrency", int64(rep.All.Throughput.PeakConcurrency), int64(peak))
	ca.eqFloat("mean_concurrency", rep.All.Throughput.MeanConcurrency, mean)
	ca.checkSessions(rep.All.Sessions, rs, "")

	byClient := map[string][]record{}
	for _, r := range ms {
		byClient[r.Client] = append(byClient[r.Client], r)
	}
	if len(rep.Clients) != len(byClient) {
		t.Errorf("%s: %d client scopes, recomputed %d", what, len(rep.Clients), len(byClient))
	}
	for _, sc := range rep.Clients {
		cms := byClient[sc.Client]
		cc := checker{t: t, what: what + " client " + sc.Client}
		cc.checkScope(sc, scope(cms, rs.Header, ws, we, conf))
		cc.checkSessions(sc.Sessions, rs, sc.Client)
	}
	c.checkFaults(rep.Faults, rs.Recs)
}

// withoutTokenTimes is rs with the token times of every record not
// streamed removed: its first token came with its last byte, so it has
// no TTFT, TTFO, ITL or TPOT.
func withoutTokenTimes(rs *records) *records {
	out := *rs
	out.Recs = make([]record, len(rs.Recs))
	for i, r := range rs.Recs {
		if r.NotStreamed {
			r.TTFTUS, r.TTFOUS, r.ITLUS = nil, nil, nil
		}
		out.Recs[i] = r
	}
	return &out
}

// concurrency is the peak and time-weighted mean of requests in flight
// over [ws, we]: every sent request that carries no fault, warmup
// included, in flight from its send to its completion.
func concurrency(recs []record, ws, we int64) (peak int, mean float64) {
	type edge struct {
		at int64
		d  int
	}
	var es []edge
	for _, r := range recs {
		c, ok := completion(r)
		if r.Fault != "" || isDropped(r) || !ok {
			continue
		}
		es = append(es, edge{r.SentUS, +1}, edge{c, -1})
	}
	sort.Slice(es, func(i, j int) bool {
		if es[i].at != es[j].at {
			return es[i].at < es[j].at
		}
		return es[i].d < es[j].d // an end at t before a start at t: [sent, completion)
	})
	inFlight, area, last := 0, 0.0, ws
	for _, e := range es {
		if e.at > ws && last < we {
			area += float64(inFlight) * float64(min(e.at, we)-max(last, ws))
		}
		if e.at >= last {
			last = e.at
		}
		inFlight += e.d
		if e.at >= ws && e.at < we {
			peak = max(peak, inFlight)
		}
	}
	if we > ws {
		mean = area / float64(we-ws)
	}
	return peak, mean
}

// checkFaults checks the fault report: per kind, over the faulted records
// outside the warmup, the count, successes, statuses, error classes and
// the time to the server's answer (first byte, else the end).
func (c checker) checkFaults(got *faultsJSON, recs []record) {
	c.t.Helper()
	kinds := map[string][]record{}
	for _, r := range recs {
		if !r.Warmup && r.Fault != "" {
			kinds[r.Fault] = append(kinds[r.Fault], r)
		}
	}
	if got == nil {
		if len(kinds) > 0 {
			c.t.Errorf("%s: no fault report, recomputed %d kinds", c.what, len(kinds))
		}
		return
	}
	seen := map[string]bool{}
	for _, g := range got.Classes {
		seen[g.Kind] = true
		rs := kinds[g.Kind]
		fc := checker{t: c.t, what: c.what + " fault " + g.Kind}
		fc.eqInt("requests", int64(g.Requests), int64(len(rs)))
		ok, status, class := 0, map[string]int{}, map[string]int{}
		var answers []float64
		for _, r := range rs {
			if isOK(r) {
				ok++
			} else {
				class[r.ErrorClass]++
			}
			if r.Status != 0 {
				status[fmt.Sprint(r.Status)]++
			}
			switch {
			case r.FirstByteUS != nil:
				answers = append(answers, float64(*r.FirstByteUS))
			case r.E2EUS != nil:
				answers = append(answers, float64(*r.E2EUS))
			}
		}
		fc.eqInt("ok", int64(g.OK), int64(ok))
		fc.eqStr("by_status", fmt.Sprint(sortedCounts(g.ByStatus)), fmt.Sprint(sortedCounts(status)))
		fc.eqStr("by_class", fmt.Sprint(sortedCounts(g.ByClass)), fmt.Sprint(sortedCounts(class)))
		d := newDist(answers)
		if d.n > 0 {
			fc.eqFloat("answer_p50_us", g.AnswerP50, d.pct(50))
			fc.eqFloat("answer_p99_us", g.AnswerP99, d.pct(99))
		}
	}
	for k := range kinds {
		if !seen[k] {
			c.t.Errorf("%s: fault kind %s (%d requests) missing from the report", c.what, k, len(kinds[k]))
		}
	}
}

// UnmarshalJSON keeps the distributions of a sessions summary by name.
func (s *sessionsJSON) UnmarshalJSON(b []byte) error {
	type plain sessionsJSON
	if err := json.Unmarshal(b, (*plain)(s)); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	s.Dists = map[string]*metricJSON{}
	for k, v := range all {
		var m metricJSON
		if len(v) > 0 && v[0] == '{' && json.Unmarshal(v, &m) == nil {
			s.Dists[k] = &m
		}
	}
	return nil
}

// checkSessions checks a scope's sessions summary (docs/metrics.md,
// Sessions) against the run rs; client names the scope's client, "" for
// all. A session whose earliest intended request is warmup is left out
// whole, and counted as left out.
func (c checker) checkSessions(got *sessionsJSON, rs *records, client string) {
	c.t.Helper()
	type key struct {
		client  string
		session int
	}
	whole := map[key][]record{}
	for _, r := range rs.Recs {
		if r.Fault == "" && (client == "" || r.Client == client) {
			k := key{r.Client, r.Session}
			whole[k] = append(whole[k], r)
		}
	}
	var keys []key
	excluded, multi := 0, false
	for k, s := range whole {
		first := s[0]
		for _, r := range s {
			if r.IntendedUS < first.IntendedUS {
				first = r
			}
		}
		if first.Warmup {
			excluded++
			continue
		}
		keys = append(keys, k)
		multi = multi || len(s) > 1
	}
	if !multi {
		if got != nil {
			c.t.Errorf("%s: a sessions summary for single-request sessions", c.what)
		}
		return
	}
	if got == nil {
		c.t.Errorf("%s: no sessions summary for multi-request sessions", c.what)
		return
	}
	complete, failed, incomplete := 0, 0, 0
	vs := map[string][]float64{}
	for _, k := range keys {
		s := whole[k]
		switch sessionKind(s) {
		case "failed":
			failed++
		case "incomplete":
			incomplete++
		default:
			complete++
			for name, v := range sessionFigures(s) {
				vs[name] = append(vs[name], v)
			}
		}
		least := int64(math.MaxInt64)
		for _, r := range s {
			least = min(least, r.IntendedUS-r.WaitUS)
		}
		for _, r := range s {
			if !isOK(r) {
				continue
			}
			part := "later"
			if r.IntendedUS-r.WaitUS == least {
				part = "first"
			}
			if r.TTFTUS != nil {
				vs["ttft_"+part] = append(vs["ttft_"+part], float64(*r.TTFTUS))
			}
			if r.TTFOUS != nil {
				vs["ttfo_"+part] = append(vs["ttfo_"+part], float64(*r.TTFOUS))
			}
			for _, g := range r.ITLUS {
				vs["itl_"+part] = append(vs["itl_"+part], float64(g))
			}
		}
	}
	sc := checker{t: c.t, what: c.what + " sessions"}
	sc.eqInt("sessions", int64(got.Sessions), int64(len(keys)))
	sc.eqInt("complete", int64(got.Complete), int64(complete))
	sc.eqInt("failed", int64(got.Failed), int64(failed))
	sc.eqInt("incomplete", int64(got.Incomplete), int64(incomplete))
	sc.eqInt("warmup_excluded", int64(got.Warmup), int64(excluded))
	for _, name := range []string{"duration", "requests", "llm", "llm_busy", "tool", "think", "max_context",
		"ttft_first", "ttft_later", "ttfo_first", "ttfo_later", "itl_first", "itl_later"} {
		sc.checkDist(name, got.Dists[name], newDist(vs[name]), name[:3] != "itl")
	}
}

// sessionKind is failed, incomplete or complete.
func sessionKind(s []record) string {
	turns := map[int]bool{}
	for _, r := range s {
		if !isOK(r) {
			return "failed"
		}
		turns[r.Turn] = true
	}
	for i := range s {
		if !turns[i] {
			return "incomplete"
		}
	}
	return "complete"
}

// sessionFigures are a complete session's figures by report.json name.
func sessionFigures(s []record) map[string]float64 {
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	least := int64(math.MaxInt64)
	llm, tool, think, maxCtx := 0.0, 0.0, 0.0, 0.0
	type span struct{ lo, hi int64 }
	var spans []span
	for _, r := range s {
		first = min(first, r.IntendedUS)
		least = min(least, r.IntendedUS-r.WaitUS)
		e := *r.E2EUS
		last = max(last, r.SentUS+e)
		llm += float64(e)
		spans = append(spans, span{r.SentUS, r.SentUS + e})
		ctx := r.ServerInput
		if ctx == 0 {
			ctx = r.ClientInput
		}
		if ctx == 0 {
			ctx = r.InputTokens
		}
		maxCtx = max(maxCtx, float64(ctx))
	}
	for _, r := range s {
		if r.IntendedUS-r.WaitUS == least {
			continue // an opening turn: its wait is a release offset
		}
		if r.ToolCalls > 0 {
			tool += float64(r.WaitUS)
		} else {
			think += float64(r.WaitUS)
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
	busy, end := int64(0), int64(math.MinInt64)
	for _, sp := range spans {
		lo := max(sp.lo, end)
		if sp.hi > lo {
			busy += sp.hi - lo
		}
		end = max(end, sp.hi)
	}
	return map[string]float64{
		"duration": float64(last - first), "requests": float64(len(s)), "llm": llm,
		"llm_busy": float64(busy), "tool": tool, "think": think, "max_context": maxCtx,
	}
}

// checkRecords checks what every record must satisfy whatever the load:
// latencies count from the send, so none is negative, and a response's
// events come in order (first token ≤ first answer token ≤ last byte).
// A first byte before the request was fully written means sent_us was
// stamped late; it depends on scheduling, so it fails the test only
// with SURGE_STRICT_TIMING and is logged otherwise.
func checkRecords(t *testing.T, what string, rs *records) {
	t.Helper()
	early := 0
	for _, r := range rs.Recs {
		if isDropped(r) {
			continue
		}
		at := fmt.Sprintf("%s record %s/%d/%d", what, r.Client, r.Session, r.Turn)
		val := func(p *int64) int64 {
			if p == nil {
				return -1
			}
			return *p
		}
		ttft, ttfo, e2e, fb := val(r.TTFTUS), val(r.TTFOUS), val(r.E2EUS), val(r.FirstByteUS)
		switch {
		case r.SentUS < 0 || r.IntendedUS < 0:
			t.Errorf("%s: intended %d, sent %d: an offset before the run's start", at, r.IntendedUS, r.SentUS)
		case r.TTFTUS != nil && (ttft < 0 || (r.E2EUS != nil && ttft > e2e)):
			t.Errorf("%s: ttft %d, e2e %d: out of order", at, ttft, e2e)
		case r.TTFOUS != nil && r.TTFTUS != nil && ttfo < ttft:
			t.Errorf("%s: ttfo %d before ttft %d", at, ttfo, ttft)
		case r.E2EUS != nil && r.FirstByteUS != nil && fb > e2e:
			t.Errorf("%s: first byte %d after the last %d", at, fb, e2e)
		case isOK(r) && r.E2EUS == nil:
			t.Errorf("%s: a success without e2e_us", at)
		}
		if r.FirstByteUS != nil && fb < 0 && r.Status == 200 {
			early++
			if os.Getenv("SURGE_STRICT_TIMING") != "" {
				t.Errorf("%s: first byte %d µs before the request was fully written", at, fb)
			}
		}
	}
	if early > 0 {
		t.Logf("%s: %d records of status 200 have their first byte before sent_us (a late send stamp)", what, early)
	}
}
