package report

import (
	"bytes"
	"strings"
	"testing"

	"surge/metrics"
	"surge/trace"
)

// TestTextStyles checks that the text report breaks a run of several
// prompt styles down by style (TTFT, TPOT, output length) and shows no
// such table for a run of one style.
func TestTextStyles(t *testing.T) {
	t.Parallel()
	rs := &trace.Records{Header: trace.RunHeader{Format: trace.RecordsFormat, Target: "http://t", WorkloadHash: "sha256:ab"}}
	for i := range 20 {
		r := trace.Record{Client: "a", Session: i, IntendedUS: int64(i) * 100_000, SentUS: int64(i) * 100_000,
			TTFTUS: 40_000, TTFOUS: 40_000, E2EUS: 130_000, ITLUS: []int64{10_000, 10_000},
			InputTokens: 100, ClientInputTokens: 100, OutputTokens: 10, ServerOutputTokens: 10, Chunks: 10,
			Status: 200, FinishReason: "length", Style: "code"}
		if i%2 == 1 {
			r.Style, r.TTFTUS, r.TTFOUS, r.ServerOutputTokens, r.OutputTokens = "creative", 90_000, 90_000, 30, 30
		}
		rs.Records = append(rs.Records, r)
	}
	rs.End = &trace.RunEnd{DurationUS: 2_100_000, Scheduled: 20, Sent: 20}
	var buf bytes.Buffer
	if err := Text(&buf, metrics.Summarize(rs, metrics.Options{PerClient: true, PerStyle: true})); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"style", "TPOT p50 ms", "output tok/req", "code ", "creative "} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	sum := metrics.Summarize(rs, metrics.Options{PerClient: true, PerStyle: true})
	var html, csv bytes.Buffer
	if err := HTML(&html, HTMLInput{Summary: sum, Records: rs}); err != nil {
		t.Fatal(err)
	}
	if err := CSV(&csv, sum); err != nil {
		t.Fatal(err)
	}
	for _, row := range styleRows(sum)[1:] {
		for _, cell := range row {
			if !strings.Contains(html.String(), ">"+cell+"<") {
				t.Errorf("the HTML report's style table lacks %q of row %v", cell, row)
			}
		}
		if !strings.Contains(csv.String(), StyleScope+row[0]+",") {
			t.Errorf("the CSV report has no scope %s%s", StyleScope, row[0])
		}
	}
	for i := range rs.Records {
		rs.Records[i].Style = "code"
	}
	buf.Reset()
	if err := Text(&buf, metrics.Summarize(rs, metrics.Options{PerClient: true, PerStyle: true})); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "output tok/req") {
		t.Errorf("a one-style run has a style table:\n%s", buf.String())
	}
}
