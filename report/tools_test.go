package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"surge/metrics"
	"surge/trace"
)

// toolRun is five streamed requests, three of whose replies called a
// tool, their first tool-call event 300, 400 and 500 ms after the send.
func toolRun() *trace.Records {
	rs := &trace.Records{
		Header: trace.RunHeader{Format: trace.RecordsFormat, Target: "http://t"},
		End:    &trace.RunEnd{DurationUS: 5e6, Scheduled: 5, Sent: 5},
	}
	for i := range 5 {
		at := int64(i) * 100_000
		r := trace.Record{Client: "a", Session: i, IntendedUS: at, SentUS: at, TTFTUS: 200_000, TTFOUS: 200_000, E2EUS: 900_000,
			ITLUS: []int64{10_000}, OutputTokens: 2, ServerOutputTokens: 2, Chunks: 2, Status: 200, FinishReason: "stop", ToolSchemaTokens: 1200}
		if i < 3 {
			r.TTFTCUS, r.ServerToolCalls, r.ToolCallChunks, r.FinishReason = int64(300_000+100_000*i), 1, 1, "tool_calls"
		}
		rs.Records = append(rs.Records, r)
	}
	return rs
}

// TestToolCallReports checks that the text, JSON, CSV and HTML reports
// give the same TTFTC, and that without tool calls it is n/a (and the
// text leaves it out).
func TestToolCallReports(t *testing.T) {
	t.Parallel()
	s := metrics.Summarize(toolRun(), metrics.Options{})
	if m := s.All.Latency.TTFTC; m.N != 3 || m.Mean != 400_000 || m.NotApplicable != "" {
		t.Fatalf("TTFTC n %d mean %g (%s), want 3 and 400 ms", m.N, m.Mean, m.NotApplicable)
	}
	var txt, js, csv, html bytes.Buffer
	if err := Text(&txt, s); err != nil {
		t.Fatal(err)
	}
	if err := JSON(&js, s); err != nil {
		t.Fatal(err)
	}
	if err := CSV(&csv, s); err != nil {
		t.Fatal(err)
	}
	if err := HTML(&html, HTMLInput{Summary: s, Records: toolRun()}); err != nil {
		t.Fatal(err)
	}
	row := ""
	for _, l := range strings.Split(txt.String(), "\n") {
		if strings.HasPrefix(l, "TTFTC") {
			row = l
		}
	}
	if f := strings.Fields(row); len(f) < 3 || f[1] != "3" || f[2] != "400" {
		t.Errorf("text row %q, want TTFTC with n 3 and mean 400 ms", row)
	}
	var out struct {
		All struct {
			Latency struct {
				TTFTC struct {
					N    int     `json:"n"`
					Mean float64 `json:"mean"`
				} `json:"ttftc"`
			} `json:"latency"`
		} `json:"all"`
	}
	if err := json.Unmarshal(js.Bytes(), &out); err != nil || out.All.Latency.TTFTC.N != 3 || out.All.Latency.TTFTC.Mean != 400_000 {
		t.Errorf("JSON ttftc %+v (%v), want n 3, mean 400000", out.All.Latency.TTFTC, err)
	}
	if !strings.Contains(csv.String(), "ttftc") || !strings.Contains(html.String(), "TTFTC") {
		t.Errorf("CSV or HTML has no TTFTC")
	}

	s = metrics.Summarize(wholeRun(), metrics.Options{})
	if s.All.Latency.TTFTC.NotApplicable == "" {
		t.Errorf("TTFTC of a run without tools applies")
	}
}
