package report

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"surge/metrics"
)

// throughput writes the rates of sc.
func (p *printer) throughput(sc *metrics.Scope) {
	t := sc.Throughput
	out := outputRate(&t) + " out"
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
	rates := []string{num(t.RequestsPerS) + " req/s"}
	if t.Inputs > 0 {
		rates = append(rates, inputRate(&t))
	}
	if t.Documents > 0 {
		rates = append(rates, documentRate(&t))
	}
	rates = append(rates, num(t.InputTokensPerS)+" tok/s in", out,
		fmt.Sprintf("in flight %s mean, %s peak", num(t.MeanConcurrency), count(t.PeakConcurrency)), sentRate)
	p.field("throughput", rates...)
	if t.ImageRequests > 0 {
		p.field("images", imageParts(&t)...)
	}
}

// imageParts words a scope's images for every output: the requests that
// sent them, the images, and their tokens in all and per such request.
func imageParts(t *metrics.Throughput) []string {
	return []string{
		count(t.ImageRequests) + " requests with " + count(int(t.Images)) + " images",
		count(int(t.ImageTokens)) + " image tokens, " + num(t.ImageTokensPerRequest) + " per request with images",
	}
}

// outputRate is a scope's output tokens per second, or n/a when it has
// no output to count (only embeddings, rerank or score requests), as every report shows
// it.
func outputRate(t *metrics.Throughput) string {
	if t.OutputNotApplicable != "" {
		return "n/a tok/s"
	}
	return num(t.OutputTokensPerS) + " tok/s"
}

// inputRate is a scope's embeddings inputs per second.
func inputRate(t *metrics.Throughput) string {
	return num(t.InputsPerS) + " inputs/s"
}

// documentRate is a scope's rerank and score documents per second.
func documentRate(t *metrics.Throughput) string {
	return num(t.DocumentsPerS) + " documents/s"
}

// clientCPU writes how busy the surge process was over the run: with
// the schedule lag, the evidence that the client kept up. What the
// figure counts is a footnote when the client's check failed.
func (p *printer) clientCPU(s *metrics.Summary) {
	if s.End == nil || s.End.ClientCPUUS == 0 || s.DurationUS <= 0 {
		return
	}
	cores := float64(s.End.ClientCPUUS) / float64(s.DurationUS)
	var note string
	if failed(s, metrics.CheckClient) {
		note = p.notes.ref("the surge process's user and system CPU time, the built-in engine's included when surge runs it; a client near its cores' limit shows in the schedule lag too")
	}
	p.field("client", fmt.Sprintf("surge used %s s of CPU over the run, %s cores on average%s", num(float64(s.End.ClientCPUUS)/1e6), num(cores), note))
}

// failed reports whether the measurement check named name failed.
func failed(s *metrics.Summary, name string) bool {
	if s.Measurement == nil {
		return false
	}
	for _, c := range s.Measurement.Checks {
		if c.Name == name {
			return !c.OK
		}
	}
	return false
}

// slos writes the SLO verdicts of all clients: the verdict of them all,
// then one row per SLO with what stands behind its verdict on the line
// under it; nothing without SLOs.
func (p *printer) slos(s *metrics.Summary) {
	sc := &s.All
	if len(sc.SLOs) == 0 {
		return
	}
	p.field("SLOs", sloVerdict(sc.SLOs))
	t := &table{left: map[int]bool{1: true, 3: true, 4: true}}
	for _, c := range sc.SLOs {
		name := c.Metric + " " + metrics.PercentileName(c.Percentile) + " ≤ " + ms(float64(c.BoundUS)) + " ms"
		if c.JudgedOn != c.Metric && lagCounts(sc, c) {
			name += p.notes.ref("ttft, ttfo and e2e SLOs are judged from the intended send time (the +lag rows), so time a request queued behind its schedule counts against them")
		}
		if c.Verdict == metrics.VerdictNotJudged {
			t.add(verdictMark(c), name, "not judged")
			t.add("", c.Note)
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
		t.add(verdictMark(c), name, observed, ci, fmt.Sprintf("met by %s of %s", count(c.Met), count(sc.OK)))
		t.add("", p.stopping(s, c))
	}
	p.noted(t, "  ")
}

// noted writes t, whose odd rows are each a note on the row above (its
// second cell; the others are empty): a note is written under the row
// from its second column, wrapped to the printer's width, and takes no
// part in the columns' widths. An empty note writes nothing.
func (p *printer) noted(t *table, indent string) {
	rows := &table{left: t.left}
	for i := 0; i < len(t.rows); i += 2 {
		rows.add(t.rows[i]...)
	}
	var b strings.Builder
	if err := rows.write(&b, indent); err != nil {
		p.err = cmp.Or(p.err, err)
		return
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	under := strings.Repeat(" ", width(indent)+rows.widths()[0]+2)
	for i, l := range lines {
		p.line("%s", l)
		if note := t.rows[2*i+1][1]; note != "" {
			for _, w := range wrapWords(note, p.cols()-width(under)) {
				p.line("%s%s", under, w)
			}
		}
	}
}

// sloVerdict is the verdict on all of cs: FAIL when one failed, else
// SHORT when one lacks samples, else PASS (N/A when none was judged),
// with how many got each verdict: "FAIL — 2 failed, 1 passed".
func sloVerdict(cs []metrics.SLOCheck) string {
	n := map[string]int{}
	for _, c := range cs {
		n[verdictMark(c)]++
	}
	overall := "N/A"
	for _, v := range []string{"PASS", "SHORT", "FAIL"} {
		if n[v] > 0 {
			overall = v
		}
	}
	var counts []string
	for _, v := range []struct{ mark, words string }{
		{"FAIL", "failed"}, {"SHORT", "short of samples"}, {"PASS", "passed"}, {"N/A", "not judged"},
	} {
		if n[v.mark] > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n[v.mark], v.words))
		}
	}
	return overall + " — " + strings.Join(counts, ", ")
}

// lagCounts reports whether judging c from the intended send time moves
// its figure: the judged value differs from the one timed from the
// actual send by 1% or more. Only then is the rule worth a footnote.
func lagCounts(sc *metrics.Scope, c metrics.SLOCheck) bool {
	plain := sc.Latency.Named(c.Metric)
	if plain == nil || c.N == 0 {
		return false
	}
	v := plain.Mean
	if c.Percentile > 0 {
		q, ok := plain.At(c.Percentile)
		if !ok {
			return false
		}
		v = q.Value
	}
	return math.Abs(c.Observed-v) >= 0.01*math.Abs(c.Observed)
}

// goodput writes the goodput of all clients.
func (p *printer) goodput(s *metrics.Summary) {
	g := s.All.Goodput
	if g == nil {
		p.field("goodput", "no SLO in the records header")
		return
	}
	every := "every SLO"
	if len(g.NotJudged) > 0 {
		every = "every SLO judged (not " + strings.Join(g.NotJudged, ", ") + ")"
	}
	p.field("goodput", fmt.Sprintf("%s req/s: %s of sent requests met %s on their own%s", num(g.PerS), pct(g.Fraction), every, p.warned(s, metrics.WarnSLO, "")))
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
// were over the bound, and the sample that pass needs; "" for a mean.
func (p *printer) stopping(s *metrics.Summary, c metrics.SLOCheck) string {
	if c.Percentile == 0 {
		return "" // a mean has no early stopping: the interval column says "(mean)"
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

// errors writes the failures of sc, then their most common messages.
func (p *printer) errors(sc *metrics.Scope) {
	e := sc.Errors
	if e.Failed == 0 && e.Dropped == 0 {
		p.field("errors", "none of "+count(sc.Sent)+" sent")
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
	parts := []string{fmt.Sprintf("%s of %s sent (%s)", count(e.Failed), count(sc.Sent), pct(e.Rate))}
	if e.Failed > 0 {
		parts[0] += ": " + strings.Join(classes, ", ")
		parts = append(parts, "status "+strings.Join(statuses, ", "))
	}
	if e.Dropped > 0 {
		parts = append(parts, fmt.Sprintf("%s dropped at the concurrency cap (%s)", count(e.Dropped), pct(e.DropRate)))
	}
	p.field("errors", parts...)
	var msgs []string
	for i, m := range e.Top[:min(len(e.Top), textMessages)] {
		msg := fmt.Sprintf("%q ×%s", clip(m.Text, messageWidth), count(m.Count))
		if i == 0 {
			msg = "most common: " + msg
		}
		msgs = append(msgs, msg)
	}
	if len(msgs) > 0 {
		p.field("", msgs...)
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
		p.field("connections", requests(sc.Resent)+" re-sent on a fresh connection after the server closed a reused one (not errors)")
	}
	if sc.Retried > 0 {
		p.field("retries", fmt.Sprintf("%s sent again after a failed attempt (--retries: a 429 or 503, or no connection), %s retries in all", requests(sc.Retried), count(sc.Retries)))
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
		p.field(label, f)
		label = ""
	}
}

// cache writes the share of prompt tokens the server reported as prefix
// cache hits, beside the share the workload implies when the header has
// it, with a footnote on why they may differ when they differ by more
// than metrics.CacheTolerance. A server that never reported a cached token gets no rate: records
// cannot tell "cached_tokens: 0" from no field at all.
func (p *printer) cache(s *metrics.Summary) {
	c := &s.All.Cache
	parts := []string{"no prefix-cache hits reported by the server (cached_tokens absent or 0)"}
	if c.Reported {
		parts[0] = fmt.Sprintf("prefix-cache hits %s of %s prompt tokens (server)", pct(c.HitRate), count(c.PromptTokens))
	}
	if r := s.PrefixReuse; r != nil {
		implied := "workload implies " + pct(r.Ratio())
		if r.BlockTokens > 0 {
			implied += fmt.Sprintf(" in %d-token blocks", r.BlockTokens)
		}
		if math.Abs(c.HitRate-r.Ratio()) > metrics.CacheTolerance {
			implied += p.notes.ref("workload implies: the share of prompt tokens an unbounded prefix cache would hold over every turn of the trace, warmup included; the server's share leaves out warmup (whose cold cache lowers early hits) and failed requests, and is lowered by eviction, raised by caching generated tokens")
		}
		parts = append(parts, implied)
	}
	p.field("cache", parts...)
}

// specDecode writes the server's speculative decoding, when it
// reported any.
func (p *printer) specDecode(s *metrics.Summary) {
	if s.SpecDecode != nil {
		p.field("spec decode", specDecodeParts(s.SpecDecode)...)
	}
}

// specDecodeParts words the server's speculative decoding for every
// output: the share of drafted tokens accepted, the tokens per draft
// step and by draft position when known, and where they were read.
func specDecodeParts(d *metrics.SpecDecode) []string {
	parts := []string{pct(d.AcceptanceRate) + " of drafted tokens accepted"}
	if d.AcceptLength > 0 {
		parts = append(parts, num(d.AcceptLength)+" tokens per draft step")
	}
	if len(d.PerPosition) > 0 {
		by := make([]string, len(d.PerPosition))
		for i, r := range d.PerPosition {
			by[i] = pct(r)
		}
		parts = append(parts, "by position "+strings.Join(by, ", "))
	}
	return append(parts, "server: "+d.Source)
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

// styles writes one row per prompt style when the run had several:
// latency and output length by the kind of prompt.
func (p *printer) styles(s *metrics.Summary) {
	if len(s.Styles) < 2 {
		return
	}
	p.line("")
	t := &table{}
	for _, row := range styleRows(s) {
		t.add(row...)
	}
	p.table(t, "")
}

// styleRows are the by-style table of every report that shows one: a
// header, then a row per prompt style.
func styleRows(s *metrics.Summary) [][]string {
	rows := [][]string{{"style", "ok", "TTFT p50 ms", "TTFT p99 ms", "TPOT p50 ms", "TPOT p99 ms", "output tok/req"}}
	for i := range s.Styles {
		c := &s.Styles[i]
		perReq := "–"
		if th := c.Throughput; th.Requests > 0 {
			perReq = num(float64(th.OutputTokens) / float64(th.Requests))
		}
		rows = append(rows, []string{c.Style, count(c.OK), at(&c.Latency.TTFT, 50), at(&c.Latency.TTFT, 99),
			at(&c.Latency.TPOT, 50), at(&c.Latency.TPOT, 99), perReq})
	}
	return rows
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
