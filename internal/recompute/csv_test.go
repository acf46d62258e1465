package recompute

import (
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// csvReport is a CSV report by "scope,section,name,stat".
type csvReport map[string]string

// parseCSV reads surge report --format csv.
func parseCSV(t *testing.T, text string) csvReport {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatalf("CSV report: %v", err)
	}
	out := csvReport{}
	for _, r := range rows[1:] {
		if len(r) >= 5 {
			out[strings.Join(r[:4], ",")] = r[4]
		}
	}
	return out
}

// checkCSV checks the CSV report's run-wide figures against report.json:
// counts, rates, every latency's n, mean and percentiles, and each SLO's
// verdict word.
func checkCSV(t *testing.T, what string, text string, rep reportJSON) {
	t.Helper()
	c := parseCSV(t, text)
	num := func(key string, want float64) {
		t.Helper()
		s, ok := c[key]
		if !ok {
			t.Errorf("%s CSV: no %s", what, key)
			return
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || !near(v, want) {
			t.Errorf("%s CSV %s: %q, report.json %v", what, key, s, want)
		}
	}
	a := rep.All
	num("(all),requests,,measured", float64(a.Requests))
	num("(all),requests,,sent", float64(a.Sent))
	num("(all),requests,,ok", float64(a.OK))
	num("(all),throughput,,request_rate", a.Throughput.RequestsPerS)
	num("(all),throughput,,send_rate", a.Throughput.SendRate)
	num("(all),throughput,,peak_concurrency", float64(a.Throughput.PeakConcurrency))
	num("(all),throughput,,mean_concurrency", a.Throughput.MeanConcurrency)
	num("(all),errors,,failed", float64(a.Errors.Failed))
	num("(all),errors,,dropped", float64(a.Errors.Dropped))
	if a.Goodput != nil {
		num("(all),goodput,,requests", float64(a.Goodput.Requests))
		num("(all),goodput,,rate", a.Goodput.PerS)
	}
	for _, name := range []string{"ttft", "ttfo", "itl", "tpot", "e2e"} {
		m := a.Latency[name]
		if m == nil || m.N == 0 {
			continue
		}
		num("(all),latency,"+name+",n", float64(m.N))
		num("(all),latency,"+name+",mean", m.Mean)
		for _, p := range m.Percentiles {
			num(fmt.Sprintf("(all),latency,%s,p%v", name, p.P), p.Value)
		}
	}
	for _, s := range a.SLOs {
		key := "(all),slo," + sloKey(s.Metric, s.Percentile) + ",verdict"
		if got, ok := c[key]; !ok || got != s.Verdict {
			t.Errorf("%s CSV %s: %q (present %v), report.json %q", what, key, got, ok, s.Verdict)
		}
	}
}
