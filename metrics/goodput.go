package metrics

import (
	"slices"

	"surge/trace"
)

// Goodput is the rate of successful requests that met every SLO of the
// header on their own. A request meets "metric pP ≤ bound" when its own
// value is within bound: its TTFT, TTFO or E2E counted from the intended
// send time (TTFT + lag and so on: queueing counts), its TPOT, or for ITL the
// nearest-rank pP of its own gaps (their mean when P is 0). A request
// without a first token (for ttft) or an answer token (for ttfo) fails
// that bound; one too short to have a TPOT or any ITL gap meets it, and
// so does one not streamed for a ttft, ttfo, itl or tpot bound, which it
// has no token times to judge. When no request of the scope was streamed,
// those SLOs are not judged at all (VerdictNotJudged) and goodput is over
// the other SLOs: NotJudged names the ones it leaves out.
type Goodput struct {
	Requests  int      `json:"requests"`
	PerS      float64  `json:"per_s"`    // Requests / window
	Fraction  float64  `json:"fraction"` // Requests / measured sent requests
	NotJudged []string `json:"not_judged,omitempty"`
}

// VerdictNotJudged is the verdict of an SLO the scope's requests cannot
// be judged on: one on ttft, ttfo, itl or tpot when none was streamed.
const VerdictNotJudged = "not judged"

// SLOCheck is the verdict on one SLO for a scope: Observed is the scope's
// nearest-rank percentile (its mean when Percentile is 0) of the
// distribution JudgedOn, and the SLO passes when Observed ≤ BoundUS.
// TTFT, TTFO and E2E SLOs are judged on ttft+lag, ttfo+lag and e2e+lag,
// latencies from the intended send time, so time queued behind the
// schedule counts against them; TPOT and ITL SLOs on tpot and itl. Conclusive is true when the
// percentile's confidence interval lies wholly on the verdict's side of
// the bound; it is false when there is no interval.
type SLOCheck struct {
	trace.SLO
	JudgedOn   string    `json:"judged_on"` // the distribution's name: "ttft+lag"
	N          int       `json:"n"`
	Observed   float64   `json:"observed"`
	CI         *Interval `json:"ci,omitempty"`
	Pass       bool      `json:"pass"`
	Conclusive bool      `json:"conclusive"`
	Met        int       `json:"met"` // successful requests within this bound on their own
	// Requests are the scope's measured requests (sent or dropped) and
	// Exceeded those of them that did not meet the bound on their own
	// (failed and dropped ones included). Verdict is the early-stopping
	// verdict at Summary.SLOConfidence (see earlyStop): VerdictPass,
	// VerdictFail or VerdictShort, or VerdictNotJudged; MinN the fewest
	// requests with Exceeded over the bound that pass, NeedMore how many
	// more a short verdict needs.
	Requests int    `json:"requests"`
	Exceeded int    `json:"exceeded"`
	Verdict  string `json:"verdict"`
	MinN     int    `json:"min_n,omitempty"`
	NeedMore int    `json:"need_more,omitempty"`
	// Note says why an SLO was not judged (VerdictNotJudged).
	Note string `json:"note,omitempty"`
}

// goodput judges every SLO on sc's distributions and counts the
// successful requests of recs that met all of them. It returns nil
// goodput when there is no SLO.
func (c *calc) goodput(sc *Scope, recs []*trace.Record) ([]SLOCheck, *Goodput) {
	if len(c.slos) == 0 {
		return nil, nil
	}
	var checks []SLOCheck
	var judged []int // indices in checks of the SLOs judged
	g := &Goodput{}
	for _, slo := range c.slos {
		m := sc.Latency.Named(slo.Metric)
		if m == nil {
			continue // warned about once, by newCalc
		}
		if m.NotApplicable != "" {
			checks = append(checks, SLOCheck{SLO: slo, JudgedOn: judgedOn(slo.Metric), Verdict: VerdictNotJudged, Note: m.NotApplicable})
			g.NotJudged = append(g.NotJudged, sloName(slo))
			continue
		}
		judged = append(judged, len(checks))
		checks = append(checks, c.check(sc.Client, slo, m))
	}
	var gaps []float64
	for _, r := range recs {
		if !succeeded(r) {
			continue
		}
		good := true
		for _, i := range judged {
			var ok bool
			ok, gaps = meets(r, checks[i].SLO, gaps)
			if ok {
				checks[i].Met++
			}
			good = good && ok
		}
		if good {
			g.Requests++
		}
	}
	if secs := c.window.Seconds(); secs > 0 {
		g.PerS = float64(g.Requests) / secs
	}
	for _, i := range judged {
		earlyStop(&checks[i], sc.Requests, c.opts.SLOConfidence)
	}
	if sc.Sent > 0 {
		g.Fraction = float64(g.Requests) / float64(sc.Sent)
	}
	return checks, g
}

// check judges slo against the scope's distribution m.
func (c *calc) check(client string, slo trace.SLO, m *Metric) SLOCheck {
	ch := SLOCheck{SLO: slo, JudgedOn: judgedOn(slo.Metric), N: m.N}
	if m.N == 0 {
		c.warn(WarnSLO, client, 0, "slo %s: no %s values to judge it", sloName(slo), ch.JudgedOn)
		return ch
	}
	bound := float64(slo.BoundUS)
	if slo.Percentile == 0 {
		ch.Observed = m.Mean
		ch.Pass = m.Mean <= bound
		return ch
	}
	q, _ := m.At(slo.Percentile)
	ch.Observed, ch.CI = q.Value, q.CI
	ch.Pass = q.Value <= bound
	if q.CI != nil {
		ch.Conclusive = q.CI.Hi <= bound || q.CI.Lo > bound
	}
	return ch
}

// sloName writes slo the way a spec does: "ttft p99 ≤ 2000000us".
func sloName(slo trace.SLO) string {
	return slo.Metric + " " + PercentileName(slo.Percentile)
}

// PercentileName names percentile p as reports do: "p99", "p99.9", or
// "mean" for 0.
func PercentileName(p float64) string {
	if p == 0 {
		return "mean"
	}
	return "p" + trimFloat(p)
}

// meets reports whether the successful request r met slo on its own,
// judging TTFT, TTFO and E2E from the intended send time;
// gaps is scratch space for its ITL gaps, returned for reuse.
func meets(r *trace.Record, slo trace.SLO, gaps []float64) (bool, []float64) {
	bound := float64(slo.BoundUS)
	if !Streamed(r) && slo.Metric != "e2e" {
		return true, gaps // no token times to judge it on
	}
	switch slo.Metric {
	case "ttft":
		v, ok := TTFT(r)
		return ok && float64(FromIntended(r, v)) <= bound, gaps
	case "ttfo":
		v, ok := TTFO(r)
		return ok && float64(FromIntended(r, v)) <= bound, gaps
	case "e2e":
		return float64(FromIntended(r, r.E2EUS)) <= bound, gaps
	case "tpot":
		v, ok := TPOT(r)
		return !ok || v <= bound, gaps
	case "itl":
		if r.Gaps() == 0 {
			return true, gaps
		}
		gaps = gaps[:0]
		for g := range r.GapValues() {
			gaps = append(gaps, float64(g))
		}
		return ownITL(r, gaps, slo.Percentile) <= bound, gaps
	}
	return true, gaps
}

// ownITL is the nearest-rank percentile p (mean for 0) of r's gaps:
// gaps, its ITLUS (GapValues) as floats, sorted here in place, and its ITLTail, whose
// values are within 0.1% of the gaps they count. The mean is exact.
func ownITL(r *trace.Record, gaps []float64, p float64) float64 {
	if p == 0 {
		return float64(r.GapSumUS()) / float64(r.Gaps())
	}
	slices.Sort(gaps)
	k := int64(Rank(p, int(r.Gaps())))
	var tail [][2]int64
	if r.ITLTail != nil {
		tail = r.ITLTail.Gaps
	}
	// Walk both in ascending order to the k-th smallest.
	i, j := 0, 0
	for {
		if j == len(tail) || i < len(gaps) && gaps[i] <= float64(tail[j][0]) {
			if k--; k == 0 {
				return gaps[i]
			}
			i++
			continue
		}
		if k <= tail[j][1] {
			return float64(tail[j][0])
		}
		k -= tail[j][1]
		j++
	}
}
