package recompute

import (
	"fmt"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// This file reads the figures back out of the text and HTML renderings,
// to check that they say what report.json and sweep.json say.

var (
	trRE   = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	cellRE = regexp.MustCompile(`(?s)<t[hd][^>]*>(.*?)</t[hd]>`)
	tagRE  = regexp.MustCompile(`(?s)<[^>]*>`)
	// footnote marks and interval columns of the text report
	supRE = regexp.MustCompile(`[¹²³⁴⁵⁶⁷⁸⁹⁰]+`)
)

// htmlRows are the rows of every table in page, each a list of cell
// texts, unescaped and without tags.
func htmlRows(page string) [][]string {
	var rows [][]string
	for _, m := range trRE.FindAllStringSubmatch(page, -1) {
		var row []string
		for _, c := range cellRE.FindAllStringSubmatch(m[1], -1) {
			row = append(row, strings.TrimSpace(html.UnescapeString(tagRE.ReplaceAllString(c[1], ""))))
		}
		rows = append(rows, row)
	}
	return rows
}

// htmlField is the text of the first <dd> after <dt>name</dt>.
func htmlField(page, name string) string {
	re := regexp.MustCompile(`(?s)<dt>` + regexp.QuoteMeta(name) + `</dt>\s*<dd>(.*?)</dd>`)
	m := re.FindStringSubmatch(page)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(html.UnescapeString(tagRE.ReplaceAllString(m[1], "")))
}

// table is a latency table: column names, and rows by their first cell.
type table struct {
	cols []string
	rows map[string][]string
}

// cell is the row's value in column col, "" when absent.
func (tb table) cell(row, col string) string {
	r, ok := tb.rows[row]
	if !ok {
		return ""
	}
	for i, c := range tb.cols {
		if c == col && i < len(r) {
			return r[i]
		}
	}
	return ""
}

// htmlLatency is the first latency table of an HTML report (the one of
// all requests): the table whose header starts with "ms".
func htmlLatency(page string) table {
	tb := table{rows: map[string][]string{}}
	rows := htmlRows(page)
	for i, r := range rows {
		if len(r) == 0 || r[0] != "ms" {
			continue
		}
		tb.cols = r
		for _, body := range rows[i+1:] {
			if len(body) < 2 || body[0] == "ms" {
				break
			}
			tb.rows[body[0]] = body
		}
		break
	}
	return tb
}

// textLatency is the first latency table of a text report.
func textLatency(txt string) table {
	tb := table{rows: map[string][]string{}}
	lines := strings.Split(txt, "\n")
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) < 3 || f[0] != "ms" || f[1] != "n" {
			continue
		}
		tb.cols = f
		for _, body := range lines[i+1:] {
			cells := textCells(body)
			if len(cells) < 2 {
				break
			}
			tb.rows[cells[0]] = cells
		}
		break
	}
	return tb
}

// textCells splits a text table row into values, dropping footnote marks
// and confidence intervals (±16%, [1.74, 25.8]).
func textCells(line string) []string {
	line = supRE.ReplaceAllString(line, "")
	line = regexp.MustCompile(`\[[^\]]*\]`).ReplaceAllString(line, "")
	var out []string
	for _, f := range strings.Fields(line) {
		if strings.HasPrefix(f, "±") {
			continue
		}
		out = append(out, f)
	}
	return out
}

// number parses a figure as the reports print it (1,117; 45.9; 0.754).
func number(s string) (float64, bool) {
	s = strings.ReplaceAll(s, ",", "")
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// rounded says whether printed is v rounded to the three significant
// digits (or whole number) the reports print.
func rounded(printed string, v float64) bool {
	p, ok := number(printed)
	if !ok {
		return false
	}
	return math.Abs(p-v) <= max(0.005*math.Abs(v), 0.0005)+1e-9
}

// latencyRows are the rows of the latency table and report.json's name
// of each.
var latencyRows = map[string]string{
	"TTFT": "ttft", "TTFO": "ttfo", "ITL": "itl", "TPOT/token": "tpot", "E2E": "e2e",
	"TTFT+lag": "ttft_lag", "TTFO+lag": "ttfo_lag", "E2E+lag": "e2e_lag",
}

// checkLatencyTables checks that the text and HTML latency tables print
// the same n, mean, percentiles and max as each other, and that each is
// report.json's figure, rounded.
func checkLatencyTables(t *testing.T, what, txt, page string, rep reportJSON) {
	t.Helper()
	tt, ht := textLatency(txt), htmlLatency(page)
	if rep.All.OK == 0 {
		return // nothing succeeded: no latency to show
	}
	if len(tt.rows) == 0 || len(ht.rows) == 0 {
		t.Errorf("%s: no latency table in text (%d rows) or HTML (%d rows)", what, len(tt.rows), len(ht.rows))
		return
	}
	for row, name := range latencyRows {
		m := rep.All.Latency[name]
		has := m != nil && m.N > 0
		for _, f := range []struct {
			format string
			tb     table
		}{{"text", tt}, {"HTML", ht}} {
			_, shown := f.tb.rows[row]
			_, numeric := number(f.tb.cell(row, "p50"))
			switch {
			case has && !shown && f.format == "text" && repeatsTTFT(rep, name):
				// The text report leaves out TTFO that repeats TTFT (no reasoning).
			case has && !shown:
				t.Errorf("%s: no %s row %s, report.json has n=%d", what, f.format, row, m.N)
			case !has && shown && numeric:
				t.Errorf("%s: %s row %s prints p50 %s, report.json has no values", what, f.format, row, f.tb.cell(row, "p50"))
			}
		}
		if !has {
			continue
		}
		want := map[string]float64{"n": float64(m.N), "mean": m.Mean / 1000, "max": m.Max / 1000}
		for _, p := range m.Percentiles {
			want[fmt.Sprintf("p%v", p.P)] = p.Value / 1000
		}
		for col, v := range want {
			ts, hs := tt.cell(row, col), ht.cell(row, col)
			if ts != "" && hs != "" && ts != hs {
				t.Errorf("%s %s %s: text %q, HTML %q", what, row, col, ts, hs)
			}
			for _, s := range []string{ts, hs} {
				if s != "" && !rounded(s, v) {
					t.Errorf("%s %s %s: printed %q, report.json %v", what, row, col, s, v)
				}
			}
		}
	}
}

// repeatsTTFT reports whether the distribution name of report.json is a
// TTFO one equal to its TTFT counterpart in count, mean and maximum, as
// it is when no reasoning came before an answer.
func repeatsTTFT(rep reportJSON, name string) bool {
	ttft := map[string]string{"ttfo": "ttft", "ttfo_lag": "ttft_lag"}[name]
	a, b := rep.All.Latency[name], rep.All.Latency[ttft]
	return ttft != "" && a != nil && b != nil && a.N == b.N && a.Mean == b.Mean && a.Max == b.Max
}

// countsRE reads "137 measured …: 137 ok, 0 failed…, 0 dropped".
var countsRE = regexp.MustCompile(`([\d,]+) measured[^:]*: ([\d,]+) ok, ([\d,]+) failed.*?([\d,]+) dropped`)

// textField is the rest of the first line of txt starting with name,
// joined with its continuation lines (those indented under it).
func textField(txt, name string) string {
	lines := strings.Split(txt, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, name+" ") {
			continue
		}
		field := strings.TrimSpace(strings.TrimPrefix(l, name))
		for _, c := range lines[i+1:] {
			if !strings.HasPrefix(c, "            ") {
				break
			}
			field += " · " + strings.TrimSpace(c)
		}
		return field
	}
	return ""
}

// checkHeadline checks the request counts, throughput, concurrency and
// goodput the text and HTML reports print against report.json.
func checkHeadline(t *testing.T, what, txt, page string, rep reportJSON) {
	t.Helper()
	a := rep.All
	want := []int{a.Requests, a.OK, a.Errors.Failed, a.Errors.Dropped}
	for _, f := range []struct{ format, s string }{{"text", textField(txt, "requests")}, {"HTML", htmlField(page, "requests")}} {
		m := countsRE.FindStringSubmatch(f.s)
		if m == nil {
			t.Errorf("%s %s: no request counts in %q", what, f.format, f.s)
			continue
		}
		for i, w := range want {
			if v, _ := number(m[i+1]); int(v) != w {
				t.Errorf("%s %s requests line %q: field %d is %s, report.json %d", what, f.format, f.s, i+1, m[i+1], w)
			}
		}
	}
	tp := textField(txt, "throughput")
	hp := htmlField(page, "throughput")
	if first(tp) != first(hp) || !rounded(first(tp), a.Throughput.RequestsPerS) {
		t.Errorf("%s throughput: text %q, HTML %q, report.json %v req/s", what, tp, hp, a.Throughput.RequestsPerS)
	}
	if a.Goodput != nil {
		tg, hg := textField(txt, "goodput"), htmlField(page, "goodput")
		if first(tg) != first(hg) || !rounded(first(tg), a.Goodput.PerS) {
			t.Errorf("%s goodput: text %q, HTML %q, report.json %v req/s", what, tg, hg, a.Goodput.PerS)
		}
	}
	flight := regexp.MustCompile(`([\d.,]+) mean, ([\d,]+) peak`)
	hf := flight.FindStringSubmatch(htmlField(page, "in flight"))
	tf := flight.FindStringSubmatch(tp)
	switch {
	case hf == nil || tf == nil:
		t.Errorf("%s: in flight not found: text %q, HTML %q", what, tp, htmlField(page, "in flight"))
	case hf[0] != tf[0] || !rounded(tf[1], a.Throughput.MeanConcurrency) || !rounded(tf[2], float64(a.Throughput.PeakConcurrency)):
		t.Errorf("%s in flight: text %q, HTML %q, report.json %v mean, %d peak", what, tf[0], hf[0], a.Throughput.MeanConcurrency, a.Throughput.PeakConcurrency)
	}
}

// first is the first field of s.
func first(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// textVerdict maps the text report's SLO labels to report.json's words,
// as docs/metrics.md names them: SHORT is "not enough samples".
var textVerdict = map[string]string{"PASS": "pass", "FAIL": "fail", "SHORT": "not enough samples", "N/A": "not judged"}

// sloLineRE reads an SLO line of the text report.
var sloLineRE = regexp.MustCompile(`(?m)^\s+([A-Z/]+)\s+(ttft|ttfo|itl|tpot|e2e) (p[\d.]+|mean) ≤`)

// checkVerdicts checks that the text and HTML reports give every SLO of
// the run the verdict report.json gives it.
func checkVerdicts(t *testing.T, what, txt, page string, rep reportJSON) {
	t.Helper()
	want := map[string]string{}
	var order []string
	for _, s := range rep.All.SLOs {
		k := sloKey(s.Metric, s.Percentile)
		want[k] = s.Verdict
		order = append(order, k)
	}
	got := map[string]string{}
	for _, m := range sloLineRE.FindAllStringSubmatch(txt, -1) {
		k := m[2] + " " + m[3]
		if _, seen := got[k]; seen {
			continue // a client's section repeats the run's SLOs
		}
		w, ok := textVerdict[m[1]]
		if !ok {
			w = "unknown label " + m[1]
		}
		got[k] = w
	}
	hgot := map[string]string{}
	rows := htmlRows(page)
	for i, r := range rows {
		if len(r) < 2 || r[0] != "SLO" {
			continue
		}
		col := -1
		for j, c := range r {
			if c == "verdict" {
				col = j
			}
		}
		for _, body := range rows[i+1:] {
			if len(body) != len(r) || col < 0 {
				break
			}
			f := strings.Fields(body[0])
			if len(f) >= 2 {
				if _, seen := hgot[f[0]+" "+f[1]]; !seen {
					hgot[f[0]+" "+f[1]] = body[col]
				}
			}
		}
		break
	}
	for _, k := range order {
		if got[k] != want[k] {
			t.Errorf("%s SLO %s: text says %q, report.json %q", what, k, got[k], want[k])
		}
		if hgot[k] != want[k] {
			t.Errorf("%s SLO %s: HTML says %q, report.json %q", what, k, hgot[k], want[k])
		}
	}
}

// sloKey names an SLO as the reports do: "ttft p99", "e2e mean".
func sloKey(metric string, p float64) string {
	if p == 0 {
		return metric + " mean"
	}
	return fmt.Sprintf("%s p%v", metric, p)
}

// captionRE reads the count a histogram's caption says it draws.
var captionRE = regexp.MustCompile(`(TTFT|ITL|E2E) of ([\d,]+) (?:requests|gaps) in`)

// checkCharts checks that the HTML report's latency histograms draw the
// population the summary counts: as many values as report.json's n.
func checkCharts(t *testing.T, what, page string, rep reportJSON) {
	t.Helper()
	want := map[string]*metricJSON{"TTFT": rep.All.Latency["ttft"], "ITL": rep.All.Latency["itl"], "E2E": rep.All.Latency["e2e"]}
	seen := map[string]bool{}
	for _, m := range captionRE.FindAllStringSubmatch(page, -1) {
		if seen[m[1]] {
			continue // the run's charts come first
		}
		seen[m[1]] = true
		n, _ := number(m[2])
		w := want[m[1]]
		switch {
		case w == nil:
			t.Errorf("%s: the HTML draws a %s histogram of %s values, report.json has none", what, m[1], m[2])
		case int(n) != w.N:
			t.Errorf("%s: the HTML %s histogram draws %s values, report.json counts %d (min %v µs: a log axis has no place for 0)", what, m[1], m[2], w.N, w.Min)
		}
	}
	if rep.All.OK > 0 && rep.All.Latency["e2e"] != nil && !seen["E2E"] {
		t.Errorf("%s: no E2E histogram in the HTML report", what)
	}
}

// checkFormats checks that report.txt and report.html of dir agree with
// its report.json.
func checkFormats(t *testing.T, what, txt, page string, rep reportJSON) {
	t.Helper()
	checkHeadline(t, what, txt, page, rep)
	checkLatencyTables(t, what, txt, page, rep)
	checkVerdicts(t, what, txt, page, rep)
	checkCharts(t, what, page, rep)
}
