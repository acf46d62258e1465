package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"surge/metrics"
	"surge/trace"
)

// TestChoicesEverywhere checks that the per-choice tokens of requests
// for several choices show in the text, JSON, CSV and HTML reports alike.
func TestChoicesEverywhere(t *testing.T) {
	t.Parallel()
	rec := trace.Record{Client: "c", SentUS: 1000, TTFTUS: 100, TTFOUS: 100, E2EUS: 1000, ITLUS: []int64{100},
		InputTokens: 10, ClientInputTokens: 10, OutputTokens: 3, ServerOutputTokens: 6, Chunks: 6,
		Choices: 2, MaxTokens: 3, ChoiceTokens: []int{3, 3}, Status: 200, FinishReason: "length"}
	recs := &trace.Records{Header: trace.RunHeader{Format: trace.RecordsFormat, Target: "http://t"}, Records: []trace.Record{rec},
		End: &trace.RunEnd{DurationUS: 1e6, Scheduled: 1, Sent: 1}}
	s := metrics.Summarize(recs, metrics.Options{})
	want := "choices: 1 requests for several choices, 2 choices; tokens per streamed choice mean 3.0" // the text report wraps after
	var text, csv, js, html bytes.Buffer
	if err := Text(&text, s); err != nil {
		t.Fatal(err)
	}
	if err := CSV(&csv, s); err != nil {
		t.Fatal(err)
	}
	if err := JSON(&js, s); err != nil {
		t.Fatal(err)
	}
	if err := HTML(&html, HTMLInput{Summary: s}); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]string{"text": text.String(), "html": html.String()} {
		if !strings.Contains(got, want) {
			t.Errorf("%s report lacks %q:\n%s", name, want, got)
		}
	}
	if !strings.Contains(csv.String(), "(all),choices,,mean_tokens,3,tokens") {
		t.Errorf("CSV lacks the choices rows:\n%s", csv.String())
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, js.Bytes()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(compact.String(), `"choices":{"requests":1,"choices":2,"streamed":2,"mean_tokens":3`) {
		t.Errorf("JSON lacks the choices")
	}
}
