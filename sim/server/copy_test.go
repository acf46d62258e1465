package server

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"surge/openai"
	"surge/sim"
)

// TestSpecMetricsAndCopyHeader: with speculative decoding on, a request
// whose Surge-Copy header says 1 has every draft accepted, and /metrics
// says so under vLLM's spec_decode names, per position too; a header
// that is not a fraction is a 400; with it off, no spec_decode series.
func TestSpecMetricsAndCopyHeader(t *testing.T) {
	t.Parallel()
	m, _ := sim.LookupModel("Llama-3.1-8B")
	g, _ := sim.LookupGPU("H100")
	_, ts := newTestServer(t, Config{Hardware: sim.Hardware{Model: m, GPU: g, TP: 1},
		Engine: sim.EngineConfig{Speculative: sim.Speculative{Tokens: 2}}})
	body := `{"model":"` + testModel + `","messages":[{"role":"user","content":"hi"}],"max_tokens":31,"ignore_eos":true}`
	send := func(copy string) int {
		req, _ := http.NewRequest("POST", ts.URL+"/v1/chat/completions", strings.NewReader(body))
		req.Header.Set(openai.SurgeCopyHeader, copy)
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := send("1"); code != 200 {
		t.Fatalf("status %d", code)
	}
	if code := send("1.5"); code != 400 {
		t.Errorf("Surge-Copy 1.5: status %d, want 400", code)
	}
	// 30 tokens after the first, 3 a step: 10 drafts of 2, all accepted.
	got := scrapeText(t, ts.URL)
	for _, want := range []string{
		`vllm:spec_decode_num_drafts_total{model_name="test-model"} 10`,
		`vllm:spec_decode_num_draft_tokens_total{model_name="test-model"} 20`,
		`vllm:spec_decode_num_accepted_tokens_total{model_name="test-model"} 20`,
		`vllm:spec_decode_num_accepted_tokens_per_pos_total{model_name="test-model",position="1"} 10`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("/metrics has no %s:\n%s", want, got)
		}
	}
	_, off := newTestServer(t, Config{})
	if got := scrapeText(t, off.URL); strings.Contains(got, "spec_decode") {
		t.Errorf("without speculative decoding /metrics has spec_decode series")
	}
}

func scrapeText(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
