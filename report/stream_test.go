package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"surge/metrics"
	"surge/trace"
)

// wholeRun is a run of requests sent without streaming, with a TTFT SLO.
func wholeRun() *trace.Records {
	rs := &trace.Records{
		Header: trace.RunHeader{Format: trace.RecordsFormat, Target: "http://t",
			SLO: []trace.SLO{{Metric: "ttft", Percentile: 99, BoundUS: 500_000}, {Metric: "e2e", Percentile: 50, BoundUS: 9e6}}},
		End: &trace.RunEnd{DurationUS: 5e6, Scheduled: 5, Sent: 5},
	}
	for i := range 5 {
		at := int64(i) * 100_000
		rs.Records = append(rs.Records, trace.Record{Client: "a", Session: i, IntendedUS: at, SentUS: at, TTFTUS: 800_000, TTFOUS: 800_000, E2EUS: 800_000,
			OutputTokens: 50, ServerOutputTokens: 50, Chunks: 1, NotStreamed: true, Status: 200, FinishReason: "length"})
	}
	return rs
}

// TestNotStreamedText checks that a run without streaming shows TTFT,
// ITL and TPOT as n/a rather than TTFT equal to E2E (and no TTFO, which
// would repeat TTFT), and does not judge its TTFT SLO.
func TestNotStreamedText(t *testing.T) {
	t.Parallel()
	s := metrics.Summarize(wholeRun(), metrics.Options{})
	var buf bytes.Buffer
	if err := Text(&buf, s); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, row := range []string{"TTFT", "ITL", "TPOT/token", "TTFT+lag"} {
		if !hasRow(out, row, "n/a") {
			t.Errorf("no %q row reading n/a in\n%s", row, out)
		}
	}
	if hasRow(out, "TTFO", "n/a") {
		t.Errorf("a TTFO row without reasoning in\n%s", out)
	}
	if hasRow(out, "TTFT", "5") || !hasRow(out, "E2E", "5") {
		t.Errorf("TTFT counted or E2E missing in\n%s", out)
	}
	for _, want := range []string{"N/A    ttft p99", "not judged", "(not ttft p99)"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// hasRow reports whether a line of out starts with the cell name and has
// second cell second.
func hasRow(out, name, second string) bool {
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && strings.TrimRight(f[0], "⁰¹²³⁴⁵⁶⁷⁸⁹") == name && f[1] == second {
			return true
		}
	}
	return false
}

// TestNotStreamedJSON checks the JSON report flags the token timings as
// not applicable, with no values.
func TestNotStreamedJSON(t *testing.T) {
	t.Parallel()
	s := metrics.Summarize(wholeRun(), metrics.Options{})
	var buf bytes.Buffer
	if err := JSON(&buf, s); err != nil {
		t.Fatal(err)
	}
	var v struct {
		All struct {
			Latency map[string]map[string]any `json:"latency"`
			SLOs    []metrics.SLOCheck        `json:"slos"`
		} `json:"all"`
	}
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ttft", "ttfo", "itl", "tpot", "ttft_lag", "ttfo_lag"} {
		m := v.All.Latency[k]
		if m["not_applicable"] == nil || m["percentiles"] != nil || m["mean"] != nil {
			t.Errorf("%s = %v, want not_applicable and no values", k, m)
		}
	}
	if v.All.Latency["e2e"]["not_applicable"] != nil {
		t.Errorf("e2e flagged not applicable")
	}
	if v.All.SLOs[0].Verdict != metrics.VerdictNotJudged {
		t.Errorf("ttft SLO verdict %q, want %q", v.All.SLOs[0].Verdict, metrics.VerdictNotJudged)
	}
}

// TestNotStreamedHTML checks the HTML latency table and slowest requests
// say n/a for TTFT, and the charts draw no TTFT.
func TestNotStreamedHTML(t *testing.T) {
	t.Parallel()
	rs := wholeRun()
	s := metrics.Summarize(rs, metrics.Options{})
	g := latencyGrid(&s.All)
	na := 0
	for _, row := range g.Rows {
		if len(row) > 1 && row[1].Text == "n/a" {
			na++
		}
	}
	if na != 7 {
		t.Errorf("%d latency rows n/a, want 7 (TTFT, TTFO, TTFTC, ITL, TPOT and the two +lag)", na)
	}
	if sg := slowestGrid(rs, nil); sg.Rows[0][4].Text != "n/a" {
		t.Errorf("slowest TTFT cell %q, want n/a", sg.Rows[0][4].Text)
	}
	if l := collectLatencies(rs); len(l.TTFT) != 0 || len(l.E2E) != 5 {
		t.Errorf("charts draw %d TTFTs and %d E2Es, want 0 and 5", len(l.TTFT), len(l.E2E))
	}
}

// TestNotStreamedCSV checks the CSV report flags the token timings as
// not applicable.
func TestNotStreamedCSV(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := CSV(&buf, metrics.Summarize(wholeRun(), metrics.Options{})); err != nil {
		t.Fatal(err)
	}
	if want := AllScope + ",latency,ttft,not_applicable,\"" + metrics.NotStreamedReason + "\""; !strings.Contains(buf.String(), want) {
		t.Errorf("no %q in\n%s", want, buf.String())
	}
}
