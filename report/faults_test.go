package report

import (
	"strings"
	"testing"

	"surge/metrics"
	"surge/trace"
)

func TestFaultsText(t *testing.T) {
	t.Parallel()
	burst := trace.FaultWindow{Kind: trace.FaultBurst, Client: "c", AtUS: 2_000_000, ForUS: 1_000_000, Factor: 3}
	rs := &trace.Records{Header: trace.RunHeader{FaultWindows: []trace.FaultWindow{burst}}, End: &trace.RunEnd{DurationUS: 6_000_000}}
	for i := range 60 {
		at := int64(i) * 100_000
		rs.Records = append(rs.Records, trace.Record{Client: "c", Session: i, IntendedUS: at, SentUS: at, FirstByteUS: 9000, TTFTUS: 10_000, E2EUS: 20_000, Status: 200})
	}
	rs.Records = append(rs.Records, trace.Record{Client: "c", Session: 99, Fault: trace.FaultEmptyPrompt, SentUS: 5000,
		FirstByteUS: 1500, E2EUS: 1500, Status: 400, ErrorClass: trace.ErrHTTP, Error: `HTTP 400: "<empty prompt>"`})
	var b strings.Builder
	if err := Text(&b, metrics.Summarize(rs, metrics.Options{})); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"faults      injected on purpose",
		"empty_prompt  1   0  400 ×1    http 1     1.50 ms",
		"burst ×3 at 2s for 1s (client c): healthy TTFT+lag p50 10.0 ms before, 10.0 ms during",
		"back within 10% of before 0s after it",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}
