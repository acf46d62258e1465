package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"surge/metrics"
)

// throughput writes the rates of sc on one line.
func (p *printer) throughput(sc *metrics.Scope) {
	t := sc.Throughput
	out := num(t.OutputTokensPerS) + " tok/s out"
	switch t.OutputSource {
	case "chunks":
		out += " (streamed chunks: no usage)"
	case "mixed":
		out += " (usage, else streamed chunks)"
	}
	sentRate := "sent " + num(t.SendRatePerS) + "/s of " + num(t.ScheduledRatePerS) + "/s scheduled"
	switch {
	case t.RateExcluded > 0 && t.RateExcluded == sc.Requests:
		sentRate = "closed loop: no schedule"
	case t.RateExcluded > 0:
		sentRate += " (open-loop clients)"
	}
	p.line("")
	p.line("throughput  %s req/s · %s tok/s in · %s · %s · in flight %s mean, %s peak",
		num(t.RequestsPerS), num(t.InputTokensPerS), out, sentRate,
		num(t.MeanConcurrency), count(t.PeakConcurrency))
}

// clientCPU writes how busy the surge process was over the run: with
// the schedule lag, the evidence that the client kept up.
func (p *printer) clientCPU(s *metrics.Summary) {
	if s.End == nil || s.End.ClientCPUUS == 0 || s.DurationUS <= 0 {
		return
	}
	cores := float64(s.End.ClientCPUUS) / float64(s.DurationUS)
	p.line("client      surge used %s s of CPU over the run, %s cores on average%s", num(float64(s.End.ClientCPUUS)/1e6), num(cores),
		p.notes.ref("the surge process's user and system CPU time, the built-in engine's included when surge runs it; a client near its cores' limit shows in the schedule lag too"))
}

// goodput writes the goodput of all clients and one line per SLO verdict.
func (p *printer) goodput(s *metrics.Summary) {
	sc := &s.All
	g := sc.Goodput
	if g == nil {
		p.line("goodput     no SLO in the records header")
		return
	}
	every := "every SLO"
	if len(g.NotJudged) > 0 {
		every = "every SLO judged (not " + strings.Join(g.NotJudged, ", ") + ")"
	}
	p.line("goodput     %s req/s: %s of sent requests met %s on their own%s", num(g.PerS), pct(g.Fraction), every, p.warned(s, metrics.WarnSLO, ""))
	t := &table{left: map[int]bool{1: true, 3: true, 4: true, 5: true}}
	for _, c := range sc.SLOs {
		name := c.Metric + " " + metrics.PercentileName(c.Percentile) + " ≤ " + ms(float64(c.BoundUS)) + " ms"
		if c.JudgedOn != c.Metric {
			name += p.notes.ref("ttft, ttfo and e2e SLOs are judged from the intended send time (the +lag rows), so time a request queued behind its schedule counts against them")
		}
		if c.Verdict == metrics.VerdictNotJudged {
			t.add(verdictMark(c), name, "not judged", "", "", c.Note)
			continue
		}
		observed, ci := "no values", ""
		if c.N > 0 {
			observed = ms(c.Observed) + " ms"
			ci = ciCell(c)
		}
		if c.Metric == "itl" {
			ci = "" // pooled gaps have no interval by design
		}
		if ci == "±∞" {
			ci += p.tooFew(s, c.Percentile, metrics.MinN(c.Percentile, s.Level))
		}
		t.add(verdictMark(c), name, observed, ci, fmt.Sprintf("met by %s of %s", count(c.Met), count(sc.OK)), p.stopping(s, c))
	}
	p.table(t, "  ")
}

// verdictMark is an SLO's early-stopping verdict in capitals.
func verdictMark(c metrics.SLOCheck) string {
	switch c.Verdict {
	case metrics.VerdictPass:
		return "PASS"
	case metrics.VerdictFail:
		return "FAIL"
	case metrics.VerdictNotJudged:
		return "N/A"
	}
	return "SHORT"
}

// stopping explains an SLO's early-stopping verdict: how many requests
// were over the bound, and the sample that pass needs.
func (p *printer) stopping(s *metrics.Summary, c metrics.SLOCheck) string {
	if c.Percentile == 0 {
		return "mean: no early stopping"
	}
	over := fmt.Sprintf("%s of %s over", count(c.Exceeded), count(c.Requests))
	level := pct(s.SLOConfidence)
	switch c.Verdict {
	case metrics.VerdictShort:
		return fmt.Sprintf("%s; need %s more within it (a pass at %s needs %s)", over, count(c.NeedMore), level, count(c.MinN)) +
			p.notes.ref("early stopping as MLPerf's: with k of n requests over the bound, pP passes when P(Binomial(n, 1−P/100) ≤ k) ≤ 1 − confidence")
	case metrics.VerdictPass:
		return fmt.Sprintf("%s; passes from %s at %s", over, count(c.MinN), level)
	}
	return over
}

// ciCell is the interval cell of an SLO verdict.
func ciCell(c metrics.SLOCheck) string {
	switch {
	case c.CI != nil:
		return spread(metrics.Percentile{Value: c.Observed, CI: c.CI})
	case c.Percentile == 0:
		return "(mean)"
	}
	return "±∞"
}

// errors writes the failures of sc on one line.
func (p *printer) errors(sc *metrics.Scope) {
	e := sc.Errors
	if e.Failed == 0 && e.Dropped == 0 {
		p.line("errors      none of %s sent", count(sc.Sent))
		return
	}
	var classes, statuses []string
	for _, k := range slices.Sorted(maps.Keys(e.ByClass)) {
		classes = append(classes, fmt.Sprintf("%s %s", k, count(e.ByClass[k])))
	}
	for _, k := range slices.Sorted(maps.Keys(e.ByStatus)) {
		st := fmt.Sprint(k)
		if k == 0 {
			st = "none"
		}
		statuses = append(statuses, fmt.Sprintf("%s ×%s", st, count(e.ByStatus[k])))
	}
	s := fmt.Sprintf("%s of %s sent (%s)", count(e.Failed), count(sc.Sent), pct(e.Rate))
	if e.Failed > 0 {
		s += ": " + strings.Join(classes, ", ") + " · status " + strings.Join(statuses, ", ")
	}
	if e.Dropped > 0 {
		s += fmt.Sprintf(" · %s dropped at the concurrency cap (%s)", count(e.Dropped), pct(e.DropRate))
	}
	p.line("errors      %s", s)
	var msgs []string
	for _, m := range e.Top[:min(len(e.Top), textMessages)] {
		msgs = append(msgs, fmt.Sprintf("%q ×%s", clip(m.Text, messageWidth), count(m.Count)))
	}
	if len(msgs) > 0 {
		p.line("            most common: %s", strings.Join(msgs, ", "))
	}
}

// textMessages is how many of the most common error messages the text
// report shows, each clipped to messageWidth runes; JSON and CSV have all
// of metrics.Errors.Top, unclipped.
const (
	textMessages = 2
	messageWidth = 60
)

// clip shortens s to at most n runes, marking a cut with "…".
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// connections writes, when any request was re-sent, how many were, and
// why, on two lines: on a fresh connection, a server closing idle
// keep-alive connections, not a failure; under the retry policy, after a
// failed attempt.
func (p *printer) connections(sc *metrics.Scope) {
	if sc.Resent > 0 {
		p.line("connections %s re-sent on a fresh connection after the server closed a reused one (not errors)", requests(sc.Resent))
	}
	if sc.Retried > 0 {
		p.line("retries     %s sent again after a failed attempt (--retries: a 429 or 503, or no connection), %s retries in all", requests(sc.Retried), count(sc.Retries))
	}
}

// requests is n requests, in words: "1 request", "1,204 requests".
func requests(n int) string {
	if n == 1 {
		return "1 request"
	}
	return count(n) + " requests"
}

// tokens writes the token audit's findings, if any.
func (p *printer) tokens(sc *metrics.Scope) {
	label := "tokens"
	for _, f := range sc.Tokens.Findings {
		p.line("%-10s  %s", label, f)
		label = ""
	}
}

// cache writes the share of prompt tokens the server reported as prefix
// cache hits, beside the share the workload implies when the header has
// it. A server that never reported a cached token gets no rate: records
// cannot tell "cached_tokens: 0" from no field at all.
func (p *printer) cache(s *metrics.Summary) {
	c := &s.All.Cache
	line := "no prefix-cache hits reported by the server (cached_tokens absent or 0)"
	if c.Reported {
		line = fmt.Sprintf("prefix-cache hits %s of %s prompt tokens (server)", pct(c.HitRate), count(c.PromptTokens))
	}
	if r := s.PrefixReuse; r != nil {
		line += " · workload implies " + pct(r.Ratio())
		if r.BlockTokens > 0 {
			line += fmt.Sprintf(" in %d-token blocks", r.BlockTokens)
		}
		line += p.notes.ref("workload implies: the share of prompt tokens an unbounded prefix cache would hold over every turn of the trace, warmup included; the server's share leaves out warmup (whose cold cache lowers early hits) and failed requests, and is lowered by eviction, raised by caching generated tokens")
	}
	p.line("cache       %s", line)
}

// clients writes one row per client when there are several.
func (p *printer) clients(s *metrics.Summary) {
	if len(s.Clients) < 2 {
		return
	}
	p.line("")
	t := &table{}
	head := []string{"client", "sent", "ok", "failed", "req/s", "TTFT p50 ms", "p99", "E2E p50 ms", "p99"}
	if s.All.Goodput != nil {
		head = append(head, "goodput/s")
	}
	t.add(head...)
	for i := range s.Clients {
		c := &s.Clients[i]
		name := c.Client
		for _, w := range s.Warnings {
			if w.Client == c.Client && w.Kind != metrics.WarnSample {
				name += p.notes.ref(w.String())
			}
		}
		row := []string{name, count(c.Sent), count(c.OK), count(c.Errors.Failed), num(c.Throughput.RequestsPerS),
			at(&c.Latency.TTFT, 50), at(&c.Latency.TTFT, 99), at(&c.Latency.E2E, 50), at(&c.Latency.E2E, 99)}
		if c.Goodput != nil {
			row = append(row, num(c.Goodput.PerS))
		}
		t.add(row...)
	}
	p.table(t, "")
}

// at is percentile q of m in milliseconds, "n/a" when m does not apply,
// or "–" without values.
func at(m *metrics.Metric, q float64) string {
	if m.NotApplicable != "" {
		return "n/a"
	}
	v, ok := m.At(q)
	if !ok || m.N == 0 {
		return "–"
	}
	return ms(v.Value)
}
