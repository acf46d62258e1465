package recompute

import (
	"math"
	"sort"
)

// This file is the independent implementation: every figure as
// docs/metrics.md and docs/sweep.md define it, computed the plainest way.

// percentiles are the ones every report lists.
var percentiles = []float64{50, 90, 95, 99, 99.9}

// measured says whether a record counts in the figures: not warmup and
// not carrying a fault of its own (docs/metrics.md, "Which requests
// count" and "Faults").
func measured(r record) bool { return !r.Warmup && r.Fault == "" }

// isDropped says whether the request was shed at a concurrency cap.
func isDropped(r record) bool { return r.ErrorClass == "dropped" }

// isOK says whether the request succeeded.
func isOK(r record) bool { return r.ErrorClass == "" }

// lag is the schedule lag, clamped at 0: latency from the intended send is
// never less than latency from the actual send.
func lag(r record) int64 { return max(0, r.SentUS-r.IntendedUS) }

// dist is a distribution summarised as the reports summarise it.
type dist struct {
	n        int
	sorted   []float64
	mean     float64
	min, max float64
}

// newDist sorts a copy of vs.
func newDist(vs []float64) dist {
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	d := dist{n: len(s), sorted: s}
	if d.n == 0 {
		return d
	}
	sum := 0.0
	for _, v := range s {
		sum += v
	}
	d.mean, d.min, d.max = sum/float64(d.n), s[0], s[d.n-1]
	return d
}

// rank is the nearest rank of the p-th percentile of n values,
// ⌈p·n/100⌉, between 1 and n. The tiny offset keeps a product that
// should be whole (99.9·1000) from rounding up past it.
func rank(p float64, n int) int {
	k := int(math.Ceil(p*float64(n)/100 - 1e-9))
	return min(max(k, 1), n)
}

// pct is the nearest-rank p-th percentile.
func (d dist) pct(p float64) float64 {
	if d.n == 0 {
		return math.NaN()
	}
	return d.sorted[rank(p, d.n)-1]
}

// binomPMF is P(X = k) for X ~ Binomial(n, p).
func binomPMF(k, n int, p float64) float64 {
	if k < 0 || k > n {
		return 0
	}
	if p == 0 {
		if k == 0 {
			return 1
		}
		return 0
	}
	if p == 1 {
		if k == n {
			return 1
		}
		return 0
	}
	ln, _ := math.Lgamma(float64(n + 1))
	lk, _ := math.Lgamma(float64(k + 1))
	lnk, _ := math.Lgamma(float64(n - k + 1))
	return math.Exp(ln - lk - lnk + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
}

// binomCDF is P(X ≤ k) for X ~ Binomial(n, p).
func binomCDF(k, n int, p float64) float64 {
	s := 0.0
	for i := 0; i <= min(k, n); i++ {
		s += binomPMF(i, n, p)
	}
	return min(s, 1)
}

// coverage is P(x₍l₎ ≤ ξₚ ≤ x₍u₎) for n values: the number of values
// below the true percentile, Binomial(n, p/100), lies in [l, u−1].
func coverage(l, u, n int, p float64) float64 {
	s := 0.0
	for i := l; i <= u-1; i++ {
		s += binomPMF(i, n, p/100)
	}
	return s
}

// ciMinN is the fewest values for which an equal-tailed 95% interval of
// the p-th percentile exists: both (1−p)ⁿ and pⁿ at most 2.5%.
func ciMinN(p float64) int {
	q := p / 100
	for n := 1; ; n++ {
		if math.Pow(q, float64(n)) <= 0.025 && math.Pow(1-q, float64(n)) <= 0.025 {
			return n
		}
	}
}

// sloVerdict is the early-stopping verdict on "metric pP ≤ bound".
type sloVerdict struct {
	n        int     // successful requests with a value: the distribution judged
	requests int     // measured requests judged, failed and dropped included
	met      int     // requests within the bound on their own
	exceeded int     // requests − met
	observed float64 // the successful requests' nearest-rank pP (or mean)
	verdict  string  // "pass", "fail", "not enough samples" or "not judged"
	minN     int     // the fewest requests with exceeded over that pass
	needMore int
}

// judge computes an SLO verdict from per-request values, +Inf for a
// request that failed or was dropped, at the given confidence: it fails
// when the nearest-rank pP over all of them is over the bound, passes
// when P(X ≤ k) ≤ 1 − confidence for X ~ Binomial(n, 1 − P/100), and has
// not enough samples otherwise.
func judge(values []float64, s slo, confidence float64) sloVerdict {
	var finite []float64
	v := sloVerdict{requests: len(values)}
	for _, x := range values {
		if x <= s.BoundUS {
			v.met++
		}
		if !math.IsInf(x, 1) {
			finite = append(finite, x)
		}
	}
	v.exceeded = v.requests - v.met
	ok := newDist(finite)
	v.n = ok.n
	if s.Percentile == 0 {
		v.observed = ok.mean
		v.verdict = "pass"
		if ok.n == 0 || ok.mean > s.BoundUS {
			v.verdict = "fail"
		}
		return v
	}
	if ok.n > 0 {
		v.observed = ok.pct(s.Percentile) // no request, no percentile: 0
	}
	all := newDist(values)
	q := 1 - s.Percentile/100
	for m := v.exceeded + 1; m < 1_000_000; m++ {
		if binomCDF(v.exceeded, m, q) <= 1-confidence {
			v.minN = m
			break
		}
	}
	switch {
	case all.n > 0 && all.pct(s.Percentile) > s.BoundUS:
		v.verdict = "fail"
	case binomCDF(v.exceeded, v.requests, q) <= 1-confidence:
		v.verdict = "pass"
	default:
		v.verdict, v.needMore = "not enough samples", v.minN-v.requests
	}
	return v
}

// streamingMetric says whether a metric needs token times.
func streamingMetric(m string) bool { return m == "ttft" || m == "ttfo" || m == "itl" || m == "tpot" }

// latencies are a scope's distributions by report.json name.
type latencies map[string]dist

// scopeFigures are the figures of one scope of a report (all requests,
// or one client's).
type scopeFigures struct {
	requests, sent, ok int
	lat                latencies
	// window in µs from the run's start
	windowStart, windowEnd int64
	reqPerS                float64
	inputTokens            int64
	outputTokens           int64
	sendRate, schedRate    float64
	goodput                int
	slos                   []sloVerdict
	failed, dropped        int
	byClass                map[string]int
	byStatus               map[int]int
	promptTokens, cached   int64
	cacheRequests          int
}

// tpot is (E2E − TTFT) / (output tokens − 1), with output tokens from the
// server's usage when reported, else token-bearing events, per choice
// for a request of several; ok is false when undefined.
func tpot(r record) (float64, bool) {
	out := r.ServerOutput
	if out <= 0 {
		out = r.Chunks
	}
	perChoice := float64(out) / float64(max(r.Choices, 1))
	if perChoice < 2 || r.TTFTUS == nil || r.E2EUS == nil {
		return 0, false
	}
	return float64(*r.E2EUS-*r.TTFTUS) / (perChoice - 1), true
}

// latencyOf is a successful record's value of one latency metric as the
// SLO named metric judges it: TTFT, TTFO and E2E from the intended send.
func latencyOf(r record, metric string, p float64) (float64, bool) {
	switch metric {
	case "ttft":
		if r.TTFTUS == nil {
			return 0, false
		}
		return float64(*r.TTFTUS + lag(r)), true
	case "ttfo":
		if r.TTFOUS == nil {
			return 0, false
		}
		return float64(*r.TTFOUS + lag(r)), true
	case "e2e":
		if r.E2EUS == nil {
			return 0, false
		}
		return float64(*r.E2EUS + lag(r)), true
	case "tpot":
		return tpot(r)
	case "itl":
		if len(r.ITLUS) == 0 {
			return 0, false
		}
		vs := make([]float64, len(r.ITLUS))
		for i, g := range r.ITLUS {
			vs[i] = float64(g)
		}
		d := newDist(vs)
		if p == 0 {
			return d.mean, true
		}
		return d.pct(p), true
	}
	return 0, false
}

// add appends v to m[name] when ok.
func add(m map[string][]float64, name string, v float64, ok bool) {
	if ok {
		m[name] = append(m[name], v)
	}
}

// latencyDists are the latency distributions of the successful records,
// and the schedule lag and queue time of the sent ones.
func latencyDists(ok, sent []record) latencies {
	vs := map[string][]float64{}
	for _, r := range ok {
		l := float64(lag(r))
		if r.TTFTUS != nil {
			add(vs, "ttft", float64(*r.TTFTUS), true)
			add(vs, "ttft_lag", float64(*r.TTFTUS)+l, true)
		}
		if r.TTFOUS != nil {
			add(vs, "ttfo", float64(*r.TTFOUS), true)
			add(vs, "ttfo_lag", float64(*r.TTFOUS)+l, true)
		}
		if r.E2EUS != nil {
			add(vs, "e2e", float64(*r.E2EUS), true)
			add(vs, "e2e_lag", float64(*r.E2EUS)+l, true)
		}
		t, ok := tpot(r)
		add(vs, "tpot", t, ok)
		for _, g := range r.ITLUS {
			add(vs, "itl", float64(g), true)
		}
	}
	for _, r := range sent {
		add(vs, "lag", float64(lag(r)), true)
		add(vs, "queue", float64(r.QueueUS), true)
	}
	out := latencies{}
	for _, name := range []string{"ttft", "ttfo", "itl", "tpot", "e2e", "ttft_lag", "ttfo_lag", "e2e_lag", "lag", "queue"} {
		out[name] = newDist(vs[name])
	}
	return out
}

// completion is when a record's response ended, from the run's start.
func completion(r record) (int64, bool) {
	if r.E2EUS == nil {
		return 0, false
	}
	return r.SentUS + *r.E2EUS, true
}

// window is the measurement window of the measured records: from the
// earliest intended or sent time to the latest completion.
func window(ms []record) (start, end int64) {
	start, end = math.MaxInt64, math.MinInt64
	for _, r := range ms {
		if isDropped(r) {
			continue
		}
		start = min(start, r.IntendedUS, r.SentUS)
		if c, ok := completion(r); ok {
			end = max(end, c)
		}
	}
	if start > end {
		return 0, 0 // no measured request: an empty window
	}
	return start, end
}

// rate is (n−1)/span of times, per second.
func rate(times []int64) float64 {
	if len(times) < 2 {
		return 0
	}
	lo, hi := times[0], times[0]
	for _, t := range times {
		lo, hi = min(lo, t), max(hi, t)
	}
	if hi == lo {
		return 0
	}
	return float64(len(times)-1) / (float64(hi-lo) / 1e6)
}

// scope computes the figures of the measured records ms of a run whose
// header is h, over the window [ws, we].
func scope(ms []record, h header, ws, we int64, confidence float64) scopeFigures {
	f := scopeFigures{byClass: map[string]int{}, byStatus: map[int]int{}, windowStart: ws, windowEnd: we}
	closed := map[string]bool{}
	for _, c := range h.ClosedLoop {
		closed[c] = true
	}
	var ok, sentRecs []record
	var sends, intends []int64
	for _, r := range ms {
		f.requests++
		if isDropped(r) {
			f.dropped++
			continue
		}
		f.sent++
		sentRecs = append(sentRecs, r)
		if !closed[r.Client] {
			sends, intends = append(sends, r.SentUS), append(intends, r.IntendedUS)
		}
		if !isOK(r) {
			f.failed++
			f.byClass[r.ErrorClass]++
			if r.Status != 0 {
				f.byStatus[r.Status]++
			}
			continue
		}
		f.ok++
		ok = append(ok, r)
	}
	f.lat = latencyDists(ok, sentRecs)
	secs := float64(we-ws) / 1e6
	for _, r := range ok {
		in := r.ServerInput
		if in == 0 {
			in = r.ClientInput
		}
		out := r.ServerOutput
		if out == 0 {
			out = r.Chunks
		}
		f.inputTokens += in
		f.outputTokens += out
		if r.ServerInput > 0 {
			f.cacheRequests++
			f.promptTokens += r.ServerInput
			f.cached += r.CachedTokens
		}
	}
	if secs > 0 {
		f.reqPerS = float64(f.ok) / secs
	}
	f.sendRate, f.schedRate = rate(sends), rate(intends)
	streamed := len(ok) == 0 // with no answer, none was answered whole
	for _, r := range ok {
		streamed = streamed || !r.NotStreamed
	}
	judged := func(s slo) bool { return streamed || !streamingMetric(s.Metric) }
	f.goodput = len(ok)
	for _, r := range ok {
		for _, s := range h.SLO {
			if !judged(s) || (r.NotStreamed && streamingMetric(s.Metric)) {
				continue // judged on E2E only
			}
			if v, defined := latencyOf(r, s.Metric, s.Percentile); !defined || v > s.BoundUS {
				f.goodput--
				break
			}
		}
	}
	for _, s := range h.SLO {
		if !judged(s) {
			f.slos = append(f.slos, sloVerdict{verdict: "not judged"})
			continue
		}
		var vs []float64
		for _, r := range ms {
			v, defined := latencyOf(r, s.Metric, s.Percentile)
			if !isOK(r) || !defined {
				v = math.Inf(1) // failed, dropped, or no value: not within the bound
			}
			vs = append(vs, v)
		}
		f.slos = append(f.slos, judge(vs, s, confidence))
	}
	return f
}
