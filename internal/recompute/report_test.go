package recompute

import (
	"fmt"
	"math"
	"sort"
	"testing"
)

// The parts of report.json this suite checks, decoded into types of its
// own.

type reportJSON struct {
	Interrupted   bool               `json:"interrupted"`
	Records       int                `json:"records"`
	Warmup        int                `json:"warmup_excluded"`
	SLOConfidence float64            `json:"slo_confidence"`
	Window        windowJSON         `json:"window"`
	All           scopeJSON          `json:"all"`
	Clients       []scopeJSON        `json:"clients"`
	Faults        *faultsJSON        `json:"faults"`
	Measurement   *measurementJSON   `json:"measurement"`
	ServerTimings *serverTimingsJSON `json:"server_timings"`
}

type windowJSON struct {
	StartUS int64 `json:"start_us"`
	EndUS   int64 `json:"end_us"`
}

type scopeJSON struct {
	Client     string                 `json:"client"`
	Requests   int                    `json:"requests"`
	Sent       int                    `json:"sent"`
	OK         int                    `json:"ok"`
	Latency    map[string]*metricJSON `json:"latency"`
	Throughput throughputJSON         `json:"throughput"`
	Goodput    *goodputJSON           `json:"goodput"`
	SLOs       []sloJSON              `json:"slos"`
	Errors     errorsJSON             `json:"errors"`
	Cache      cacheJSON              `json:"prefix_cache"`
	Sessions   *sessionsJSON          `json:"sessions"`
}

type metricJSON struct {
	N           int       `json:"n"`
	Mean        float64   `json:"mean"`
	Min         float64   `json:"min"`
	Max         float64   `json:"max"`
	Percentiles []pctJSON `json:"percentiles"`
}

type pctJSON struct {
	P     float64 `json:"p"`
	Rank  int     `json:"rank"`
	Value float64 `json:"value"`
	CI    *ciJSON `json:"ci"`
	MinN  int     `json:"min_n"`
}

type ciJSON struct {
	Lo       float64 `json:"lo"`
	Hi       float64 `json:"hi"`
	LoRank   int     `json:"lo_rank"`
	HiRank   int     `json:"hi_rank"`
	Coverage float64 `json:"coverage"`
}

type throughputJSON struct {
	Requests        int     `json:"requests"`
	RequestsPerS    float64 `json:"requests_per_s"`
	InputTokens     int64   `json:"input_tokens"`
	OutputTokens    int64   `json:"output_tokens"`
	InputPerS       float64 `json:"input_tokens_per_s"`
	OutputPerS      float64 `json:"output_tokens_per_s"`
	SendRate        float64 `json:"send_rate_per_s"`
	ScheduledRate   float64 `json:"scheduled_rate_per_s"`
	PeakConcurrency int     `json:"peak_concurrency"`
	MeanConcurrency float64 `json:"mean_concurrency"`
}

type goodputJSON struct {
	Requests int     `json:"requests"`
	PerS     float64 `json:"per_s"`
	Fraction float64 `json:"fraction"`
}

type sloJSON struct {
	Metric     string  `json:"metric"`
	Percentile float64 `json:"percentile"`
	BoundUS    float64 `json:"bound_us"`
	N          int     `json:"n"`
	Observed   float64 `json:"observed"`
	Met        int     `json:"met"`
	Requests   int     `json:"requests"`
	Exceeded   int     `json:"exceeded"`
	Verdict    string  `json:"verdict"`
	MinN       int     `json:"min_n"`
	NeedMore   int     `json:"need_more"`
}

type errorsJSON struct {
	Failed   int            `json:"failed"`
	Rate     float64        `json:"rate"`
	ByClass  map[string]int `json:"by_class"`
	ByStatus map[string]int `json:"by_status"`
	Dropped  int            `json:"dropped"`
	DropRate float64        `json:"drop_rate"`
}

type cacheJSON struct {
	Requests     int      `json:"requests"`
	PromptTokens int64    `json:"prompt_tokens"`
	CachedTokens int64    `json:"cached_tokens"`
	Reported     bool     `json:"reported"`
	HitRate      *float64 `json:"hit_rate"`
}

type faultsJSON struct {
	Classes []faultClassJSON `json:"classes"`
}

type faultClassJSON struct {
	Kind      string         `json:"kind"`
	Requests  int            `json:"requests"`
	OK        int            `json:"ok"`
	ByStatus  map[string]int `json:"by_status"`
	ByClass   map[string]int `json:"by_class"`
	AnswerP50 float64        `json:"answer_p50_us"`
	AnswerP99 float64        `json:"answer_p99_us"`
}

type sessionsJSON struct {
	Sessions   int                    `json:"sessions"`
	Complete   int                    `json:"complete"`
	Failed     int                    `json:"failed"`
	Incomplete int                    `json:"incomplete"`
	Warmup     int                    `json:"warmup_excluded"`
	Dists      map[string]*metricJSON `json:"-"`
}

// checker collects mismatches between a figure surge reported and the
// one recomputed here, all reported at once.
type checker struct {
	t    *testing.T
	what string // where the figures come from: "plain/report.json all"
}

// eqInt checks an exact count.
func (c checker) eqInt(name string, got, want int64) {
	c.t.Helper()
	if got != want {
		c.t.Errorf("%s %s: reported %d, recomputed %d", c.what, name, got, want)
	}
}

// eqFloat checks a rate or a mean within float rounding.
func (c checker) eqFloat(name string, got, want float64) {
	c.t.Helper()
	if !near(got, want) {
		c.t.Errorf("%s %s: reported %v, recomputed %v", c.what, name, got, want)
	}
}

// eqStr checks a word.
func (c checker) eqStr(name, got, want string) {
	c.t.Helper()
	if got != want {
		c.t.Errorf("%s %s: reported %q, recomputed %q", c.what, name, got, want)
	}
}

// near says whether a and b agree within float rounding.
func near(a, b float64) bool {
	if a == b || (math.IsNaN(a) && math.IsNaN(b)) {
		return true
	}
	return math.Abs(a-b) <= 1e-9*max(math.Abs(a), math.Abs(b), 1e-9)
}

// checkDist checks a reported distribution against the values recomputed:
// count, mean, extremes, every nearest-rank percentile, and the
// confidence interval's ranks, values and coverage.
func (c checker) checkDist(name string, got *metricJSON, want dist, withCI bool) {
	c.t.Helper()
	if got == nil {
		if want.n > 0 {
			c.t.Errorf("%s %s: absent, recomputed n=%d", c.what, name, want.n)
		}
		return
	}
	c.eqInt(name+" n", int64(got.N), int64(want.n))
	if want.n == 0 || got.N != want.n {
		return
	}
	c.eqFloat(name+" mean", got.Mean, want.mean)
	c.eqFloat(name+" min", got.Min, want.min)
	c.eqFloat(name+" max", got.Max, want.max)
	ps := map[float64]pctJSON{}
	for _, p := range got.Percentiles {
		ps[p.P] = p
	}
	for _, p := range percentiles {
		g, ok := ps[p]
		if !ok {
			c.t.Errorf("%s %s: no p%v", c.what, name, p)
			continue
		}
		pn := fmt.Sprintf("%s p%v", name, p)
		c.eqInt(pn+" rank", int64(g.Rank), int64(rank(p, want.n)))
		c.eqFloat(pn, g.Value, want.pct(p))
		if withCI {
			c.checkCI(pn, g, want, p)
		}
	}
}

// checkCI checks a percentile's confidence interval: none below the
// fewest values an equal-tailed 95% interval needs; otherwise values at
// its ranks, with the binomial coverage of those ranks, at least 95%.
func (c checker) checkCI(name string, g pctJSON, d dist, p float64) {
	c.t.Helper()
	need := ciMinN(p)
	if d.n < need {
		if g.CI != nil {
			c.t.Errorf("%s %s: an interval %+v from n=%d, fewer than the %d it needs", c.what, name, *g.CI, d.n, need)
		}
		c.eqInt(name+" min_n", int64(g.MinN), int64(need))
		return
	}
	if g.CI == nil {
		c.t.Errorf("%s %s: no interval at n=%d (needs %d)", c.what, name, d.n, need)
		return
	}
	ci := *g.CI
	if ci.LoRank < 1 || ci.HiRank > d.n || ci.LoRank > ci.HiRank {
		c.t.Errorf("%s %s: interval ranks [%d, %d] of n=%d", c.what, name, ci.LoRank, ci.HiRank, d.n)
		return
	}
	c.eqFloat(name+" ci lo", ci.Lo, d.sorted[ci.LoRank-1])
	c.eqFloat(name+" ci hi", ci.Hi, d.sorted[ci.HiRank-1])
	cov := coverage(ci.LoRank, ci.HiRank, d.n, p)
	if math.Abs(cov-ci.Coverage) > 1e-6 {
		c.t.Errorf("%s %s: coverage reported %v, recomputed %v for ranks [%d, %d]", c.what, name, ci.Coverage, cov, ci.LoRank, ci.HiRank)
	}
	if cov < 0.95-1e-9 {
		c.t.Errorf("%s %s: interval covers %.4f < 95%%", c.what, name, cov)
	}
}

// checkScope checks one scope of report.json against the figures
// recomputed for it.
func (c checker) checkScope(got scopeJSON, want scopeFigures) {
	c.t.Helper()
	c.eqInt("requests", int64(got.Requests), int64(want.requests))
	c.eqInt("sent", int64(got.Sent), int64(want.sent))
	c.eqInt("ok", int64(got.OK), int64(want.ok))
	for name, d := range want.lat {
		c.checkDist("latency "+name, got.Latency[name], d, name != "itl")
	}
	secs := float64(want.windowEnd-want.windowStart) / 1e6
	perS := func(n int64) float64 {
		if secs <= 0 {
			return 0 // an empty window: no rate
		}
		return float64(n) / secs
	}
	tp := got.Throughput
	c.eqInt("throughput requests", int64(tp.Requests), int64(want.ok))
	c.eqFloat("throughput requests_per_s", tp.RequestsPerS, want.reqPerS)
	c.eqInt("throughput input_tokens", tp.InputTokens, want.inputTokens)
	c.eqInt("throughput output_tokens", tp.OutputTokens, want.outputTokens)
	c.eqFloat("throughput input_tokens_per_s", tp.InputPerS, perS(want.inputTokens))
	c.eqFloat("throughput output_tokens_per_s", tp.OutputPerS, perS(want.outputTokens))
	c.eqFloat("throughput send_rate_per_s", tp.SendRate, want.sendRate)
	c.eqFloat("throughput scheduled_rate_per_s", tp.ScheduledRate, want.schedRate)
	c.checkErrors(got.Errors, want)
	c.checkCache(got.Cache, want)
	if len(got.SLOs) != len(want.slos) {
		c.t.Errorf("%s: %d SLO checks, recomputed %d", c.what, len(got.SLOs), len(want.slos))
		return
	}
	if len(want.slos) > 0 {
		if got.Goodput == nil {
			c.t.Errorf("%s: no goodput with SLOs", c.what)
		} else {
			c.eqInt("goodput requests", int64(got.Goodput.Requests), int64(want.goodput))
			c.eqFloat("goodput per_s", got.Goodput.PerS, perS(int64(want.goodput)))
			if want.sent > 0 {
				c.eqFloat("goodput fraction", got.Goodput.Fraction, float64(want.goodput)/float64(want.sent))
			}
		}
	}
	for i, w := range want.slos {
		g := got.SLOs[i]
		n := fmt.Sprintf("slo %s p%v", g.Metric, g.Percentile)
		c.eqStr(n+" verdict", g.Verdict, w.verdict)
		if w.verdict == "not judged" {
			continue
		}
		c.eqInt(n+" n", int64(g.N), int64(w.n))
		c.eqInt(n+" requests", int64(g.Requests), int64(w.requests))
		c.eqFloat(n+" observed", g.Observed, w.observed)
		c.eqInt(n+" met", int64(g.Met), int64(w.met))
		c.eqInt(n+" exceeded", int64(g.Exceeded), int64(w.exceeded))
		if g.Percentile > 0 {
			c.eqInt(n+" min_n", int64(g.MinN), int64(w.minN))
			c.eqInt(n+" need_more", int64(g.NeedMore), int64(w.needMore))
		}
	}
}

// checkErrors checks the error counts by class and status.
func (c checker) checkErrors(got errorsJSON, want scopeFigures) {
	c.t.Helper()
	c.eqInt("errors failed", int64(got.Failed), int64(want.failed))
	c.eqInt("errors dropped", int64(got.Dropped), int64(want.dropped))
	if want.sent > 0 {
		c.eqFloat("errors rate", got.Rate, float64(want.failed)/float64(want.sent))
	}
	if want.requests > 0 {
		c.eqFloat("errors drop_rate", got.DropRate, float64(want.dropped)/float64(want.requests))
	}
	c.eqStr("errors by_class", fmt.Sprint(sortedCounts(got.ByClass)), fmt.Sprint(sortedCounts(want.byClass)))
	ws := map[string]int{}
	for s, n := range want.byStatus {
		ws[fmt.Sprint(s)] = n
	}
	c.eqStr("errors by_status", fmt.Sprint(sortedCounts(got.ByStatus)), fmt.Sprint(sortedCounts(ws)))
}

// checkCache checks the server's prefix-cache hit rate.
func (c checker) checkCache(got cacheJSON, want scopeFigures) {
	c.t.Helper()
	c.eqInt("prefix_cache requests", int64(got.Requests), int64(want.cacheRequests))
	c.eqInt("prefix_cache prompt_tokens", got.PromptTokens, want.promptTokens)
	c.eqInt("prefix_cache cached_tokens", got.CachedTokens, want.cached)
	reported := want.cached > 0
	if got.Reported != reported {
		c.t.Errorf("%s prefix_cache reported: %v, recomputed %v", c.what, got.Reported, reported)
	}
	switch {
	case !reported && got.HitRate != nil:
		c.t.Errorf("%s prefix_cache hit_rate %v with no cached token reported", c.what, *got.HitRate)
	case reported && got.HitRate == nil:
		c.t.Errorf("%s prefix_cache: no hit_rate", c.what)
	case reported:
		c.eqFloat("prefix_cache hit_rate", *got.HitRate, float64(want.cached)/float64(want.promptTokens))
	}
}

// sortedCounts lists a map's entries in key order, leaving out zeros.
func sortedCounts(m map[string]int) []string {
	var out []string
	for k, v := range m {
		if v != 0 {
			out = append(out, fmt.Sprintf("%s=%d", k, v))
		}
	}
	sort.Strings(out)
	return out
}
