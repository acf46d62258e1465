package compare

import (
	"slices"
	"sync"

	"surge/metrics"
	"surge/trace"
)

// latencyMetric is one per-request latency: value is undefined (ok
// false) for requests without it.
type latencyMetric struct {
	name  string
	unit  string
	value func(r *trace.Record) (v float64, ok bool)
}

// latencyMetrics are the compared latencies in report order (see the
// package documentation).
var latencyMetrics = []latencyMetric{
	{"ttft", metrics.UnitUS, func(r *trace.Record) (float64, bool) { v, ok := metrics.TTFT(r); return float64(v), ok }},
	{"ttfo", metrics.UnitUS, func(r *trace.Record) (float64, bool) { v, ok := metrics.TTFO(r); return float64(v), ok }},
	{"itl", metrics.UnitUS, meanITL},
	{"tpot", metrics.UnitUSToken, metrics.TPOT},
	{"e2e", metrics.UnitUS, func(r *trace.Record) (float64, bool) { return float64(r.E2EUS), true }},
	{"ttft+lag", metrics.UnitUS, func(r *trace.Record) (float64, bool) {
		v, ok := metrics.TTFT(r)
		return float64(metrics.FromIntended(r, v)), ok
	}},
	{"ttfo+lag", metrics.UnitUS, func(r *trace.Record) (float64, bool) {
		v, ok := metrics.TTFO(r)
		return float64(metrics.FromIntended(r, v)), ok
	}},
	{"e2e+lag", metrics.UnitUS, func(r *trace.Record) (float64, bool) { return float64(metrics.FromIntended(r, r.E2EUS)), true }},
}

// meanITL is r's mean gap between token-bearing events, the sum of its
// gaps over their count (ITLTail's included); undefined without gaps.
func meanITL(r *trace.Record) (float64, bool) {
	n := r.Gaps()
	if n == 0 {
		return 0, false
	}
	return float64(r.GapSumUS()) / float64(n), true
}

// latencyRows compares every latency metric; TTFO only when a request
// of either run had a TTFO apart from its TTFT (a reasoning model). The
// metrics are compared concurrently: each draws from its own generator
// and writes its own slot, so the result does not depend on scheduling.
func (c *comparer) latencyRows(base, cand *trace.Records) []Row {
	reasoning := hasReasoning(base) || hasReasoning(cand)
	per := make([][]Row, len(latencyMetrics))
	var wg sync.WaitGroup
	for i, m := range latencyMetrics {
		if !reasoning && (m.name == "ttfo" || m.name == "ttfo+lag") {
			continue
		}
		wg.Go(func() {
			xb, xc := values(base, m.value), values(cand, m.value)
			per[i] = c.rows(m.name, m.unit, xb, xc, latencyStats, relative, false)
		})
	}
	wg.Wait()
	return slices.Concat(per...)
}

// hasReasoning reports whether some measured successful request of rs
// had its first answer token after its first token.
func hasReasoning(rs *trace.Records) bool {
	for i := range rs.Records {
		r := &rs.Records[i]
		if succeeded(r) && r.TTFOUS > 0 && r.TTFOUS != r.TTFTUS {
			return true
		}
	}
	return false
}

// values returns f over the measured successful requests of rs where it
// is defined, sorted.
func values(rs *trace.Records, f func(*trace.Record) (float64, bool)) []float64 {
	var v []float64
	for i := range rs.Records {
		r := &rs.Records[i]
		if !succeeded(r) {
			continue
		}
		if x, ok := f(r); ok {
			v = append(v, x)
		}
	}
	slices.Sort(v)
	return v
}

// succeeded reports whether r is in the population every latency figure
// is computed over, metrics.Succeeded.
func succeeded(r *trace.Record) bool { return metrics.Succeeded.Has(r) }
