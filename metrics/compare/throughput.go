package compare

import (
	"slices"

	"surge/metrics"
	"surge/trace"
)

// runRows compares the runs as wholes: request and output-token
// throughput over the measurement windows wb and wc, and the error rate.
func (c *comparer) runRows(base, cand *trace.Records, wb, wc metrics.Window) []Row {
	k := c.opts.Windows
	one := func(*trace.Record) float64 { return 1 }
	tokens := func(r *trace.Record) float64 { return float64(metrics.OutputTokens(r)) }
	var rows []Row
	for _, m := range []struct {
		name, unit string
		weight     func(*trace.Record) float64
	}{
		{"request_throughput", UnitRequestsPerS, one},
		{"output_throughput", UnitTokensPerS, tokens},
	} {
		rb, rc := windowRates(base, wb, k, m.weight), windowRates(cand, wc, k, m.weight)
		rows = append(rows, c.rows(m.name, m.unit, rb, rc, meanStat, relative, false)...)
	}
	rows = append(rows, c.rows("error_rate", UnitFraction, failures(base), failures(cand), meanStat, absolute, true)...)
	for i := range rows {
		rows[i].Stat = "" // whole-run rows are named by their metric alone
	}
	return rows
}

// windowRates cuts w into k equal windows of width Δ = (end − start)/k and
// returns, sorted, each window's rate: the weights of the measured
// successful requests of rs that completed (SentUS + E2EUS) within it,
// per second of Δ. Every such completion lies in w, so the mean of the k
// rates is Σ weight / (end − start), the run's own rate. nil when w is
// empty.
func windowRates(rs *trace.Records, w metrics.Window, k int, weight func(*trace.Record) float64) []float64 {
	if w.Seconds() == 0 {
		return nil
	}
	width := float64(w.EndUS-w.StartUS) / float64(k)
	rates := make([]float64, k)
	for i := range rs.Records {
		r := &rs.Records[i]
		if !succeeded(r) {
			continue
		}
		j := int(float64(r.SentUS+r.E2EUS-w.StartUS) / width)
		rates[min(max(j, 0), k-1)] += weight(r)
	}
	for j := range rates {
		rates[j] /= width / 1e6
	}
	slices.Sort(rates)
	return rates
}

// failures returns, sorted, 1 for each measured healthy sent request of
// rs that failed and 0 for each that succeeded (dropped requests were
// never sent; requests that carried an injected fault are reported apart):
// their mean is metrics.Errors.Rate.
func failures(rs *trace.Records) []float64 {
	var v []float64
	for i := range rs.Records {
		r := &rs.Records[i]
		switch {
		case metrics.Succeeded.Has(r):
			v = append(v, 0)
		case metrics.Failed.Has(r):
			v = append(v, 1)
		}
	}
	slices.Sort(v)
	return v
}
