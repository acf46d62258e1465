package harness

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"surge/metrics"
	"surge/report"
)

// TestServerViewSpecDecode: a server's speculative-decoding counters in
// its scraped metrics reach the summary, and text, JSON, CSV and HTML
// say the same acceptance; a server without them says nothing of it.
func TestServerViewSpecDecode(t *testing.T) {
	t.Parallel()
	scrapes := `{"format":"surge-server-metrics","version":1,"url":"http://h/metrics","start":"2026-12-01T00:00:00Z","interval_us":1000000}
{"at_us":0,"took_us":1,"samples":[{"name":"vllm:spec_decode_num_drafts_total","type":"counter","labels":{},"value":0},{"name":"vllm:spec_decode_num_draft_tokens_total","type":"counter","labels":{},"value":0},{"name":"vllm:spec_decode_num_accepted_tokens_total","type":"counter","labels":{},"value":0}]}
{"at_us":2000000,"took_us":1,"samples":[{"name":"vllm:spec_decode_num_drafts_total","type":"counter","labels":{},"value":400},{"name":"vllm:spec_decode_num_draft_tokens_total","type":"counter","labels":{},"value":1200},{"name":"vllm:spec_decode_num_accepted_tokens_total","type":"counter","labels":{},"value":744}]}
`
	sum := &metrics.Summary{Window: metrics.Window{StartUS: 0, EndUS: 2_000_000}}
	if _, _, err := ServerView(strings.NewReader(scrapes), sum); err != nil {
		t.Fatal(err)
	}
	d := sum.SpecDecode
	if d == nil || d.AcceptanceRate != 0.62 || math.Abs(d.AcceptLength-2.86) > 1e-9 {
		t.Fatalf("spec decode %+v, want 62%% accepted and 2.86 tokens per step", d)
	}
	var text, js, csv, html bytes.Buffer
	for _, err := range []error{report.Text(&text, sum), report.JSON(&js, sum), report.CSV(&csv, sum), report.HTML(&html, report.HTMLInput{Summary: sum})} {
		if err != nil {
			t.Fatal(err)
		}
	}
	var got struct {
		SpecDecode *metrics.SpecDecode `json:"spec_decode"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil || got.SpecDecode == nil || got.SpecDecode.AcceptanceRate != 0.62 {
		t.Errorf("JSON spec_decode %+v (%v)", got.SpecDecode, err)
	}
	for name, out := range map[string]string{"text": text.String(), "HTML": html.String()} {
		if !strings.Contains(out, "62.0% of drafted tokens accepted") || !strings.Contains(out, "2.86 tokens per draft step") {
			t.Errorf("%s does not say 62.0%% accepted, 2.86 tokens per step", name)
		}
	}
	if !strings.Contains(csv.String(), "spec_decode,vLLM spec_decode counters,acceptance_rate,0.62,") {
		t.Errorf("CSV has no acceptance row:\n%s", csv.String())
	}

	plain := &metrics.Summary{Window: sum.Window}
	none := `{"at_us":0,"took_us":1,"samples":[{"name":"vllm:num_requests_running","type":"gauge","labels":{},"value":1}]}`
	if _, _, err := ServerView(strings.NewReader(none), plain); err != nil || plain.SpecDecode != nil {
		t.Errorf("no spec decode: %+v, %v", plain.SpecDecode, err)
	}
}
