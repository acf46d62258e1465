package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"surge/metrics"
	"surge/trace"
)

// imageRun is four requests, three of which sent images: 1, 2 and 3
// images of 1196, 2392 and 3588 tokens.
func imageRun() *trace.Records {
	rs := &trace.Records{
		Header: trace.RunHeader{Format: trace.RecordsFormat, Target: "http://t"},
		End:    &trace.RunEnd{DurationUS: 5e6, Scheduled: 4, Sent: 4},
	}
	for i := range 4 {
		at := int64(i) * 100_000
		rs.Records = append(rs.Records, trace.Record{Client: "a", Session: i, IntendedUS: at, SentUS: at, TTFTUS: 200_000, TTFOUS: 200_000, E2EUS: 900_000,
			ITLUS: []int64{10_000}, InputTokens: 50, ClientInputTokens: 50, OutputTokens: 2, ServerOutputTokens: 2, Chunks: 2, Status: 200, FinishReason: "stop",
			Images: i, ImageTokens: 1196 * i})
	}
	return rs
}

// TestImageReports checks that the text, JSON, CSV and HTML reports give
// the same image figures, and that a run without images shows none.
func TestImageReports(t *testing.T) {
	t.Parallel()
	s := metrics.Summarize(imageRun(), metrics.Options{})
	if th := s.All.Throughput; th.ImageRequests != 3 || th.Images != 6 || th.ImageTokens != 7176 || th.ImageTokensPerRequest != 2392 {
		t.Fatalf("throughput %+v", th)
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
	if err := HTML(&html, HTMLInput{Summary: s, Records: imageRun()}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"3 requests with 6 images", "7,176 image tokens, 2,392 per request with images"} {
		if !strings.Contains(txt.String(), want) || !strings.Contains(html.String(), want) {
			t.Errorf("text or HTML report lacks %q:\n%s", want, txt.String())
		}
	}
	var out struct {
		All struct {
			Throughput struct {
				Images   int64   `json:"images"`
				Tokens   int64   `json:"image_tokens"`
				PerReq   float64 `json:"image_tokens_per_request"`
				Requests int     `json:"image_requests"`
			} `json:"throughput"`
		} `json:"all"`
	}
	if err := json.Unmarshal(js.Bytes(), &out); err != nil || out.All.Throughput.Tokens != 7176 || out.All.Throughput.PerReq != 2392 || out.All.Throughput.Requests != 3 {
		t.Errorf("JSON throughput %+v (%v)", out.All.Throughput, err)
	}
	for _, want := range []string{"throughput,,image_tokens,7176", "throughput,,image_tokens_per_request,2392", "throughput,,images,6"} {
		if !strings.Contains(csv.String(), want) {
			t.Errorf("CSV lacks %q", want)
		}
	}
	txt.Reset()
	if err := Text(&txt, metrics.Summarize(wholeRun(), metrics.Options{})); err != nil || strings.Contains(txt.String(), "image") {
		t.Errorf("a run without images mentions them (%v):\n%s", err, txt.String())
	}
}
