package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"surge/openai"
)

func TestPrefixCacheReportsCachedTokens(t *testing.T) {
	t.Parallel()
	cost := &prefillCost{step: time.Millisecond, perToken: 20 * time.Microsecond}
	_, ts := newTestServer(t, Config{Coster: cost})
	shared := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 100) // ~1000 tokens
	var got [2]streamResult
	var prefill [2]int64
	for i, q := range []string{"First question?", "A different second question?"} {
		before := cost.prefill.Load()
		code, body := post(t, ts, openai.ChatPath, chatBody(shared+q, 3, true))
		if code != 200 {
			t.Fatalf("status %d: %s", code, body)
		}
		got[i], prefill[i] = parseStream(t, body), cost.prefill.Load()-before
	}
	if got[0].cached != 0 || got[1].cached < 900 {
		t.Errorf("cached tokens %d then %d, want 0 then most of the shared ~1000", got[0].cached, got[1].cached)
	}
	// The second prefill computes only the uncached tail, so its simulated
	// TTFT (steps of 1 ms + 20 µs per prefill token) is lower.
	if prefill[1] >= prefill[0]/4 {
		t.Errorf("prefill tokens %d then %d, want the second far smaller", prefill[0], prefill[1])
	}
	t.Logf("ttft %.1f ms then %.1f ms", got[0].timings.TTFTMS, got[1].timings.TTFTMS)
}

func TestMetricsExposeVLLMNames(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Config{})
	if code, body := post(t, ts, openai.ChatPath, chatBody("hello", 4, true)); code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	names := []string{
		`vllm:num_requests_running{model_name="test-model"} 0`,
		`vllm:num_requests_waiting{model_name="test-model"} 0`,
		`vllm:kv_cache_usage_perc{model_name="test-model"}`,
		`vllm:prefix_cache_queries_total{model_name="test-model"}`,
		`vllm:prefix_cache_hits_total{model_name="test-model"}`,
		`vllm:num_preemptions_total{model_name="test-model"} 0`,
		`vllm:prompt_tokens_total{model_name="test-model"} 1`,
		`vllm:generation_tokens_total{model_name="test-model"} 4`,
		`vllm:time_to_first_token_seconds_count{model_name="test-model"} 1`,
		`vllm:inter_token_latency_seconds_count{model_name="test-model"} 3`,
		`vllm:e2e_request_latency_seconds_count{model_name="test-model"} 1`,
		`vllm:request_success_total{finished_reason="length",model_name="test-model"} 1`,
	}
	// The engine loop publishes its counters after the step that finished
	// the request, which may come just after the response's last byte:
	// poll briefly.
	var missing []string
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		text := scrape(t, ts)
		missing = missing[:0]
		for _, name := range names {
			if !strings.Contains(text, name) {
				missing = append(missing, name)
			}
		}
		if len(missing) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, name := range missing {
		t.Errorf("/metrics lacks %s", name)
	}
}

// scrape returns the text of ts's /metrics.
func scrape(t *testing.T, ts *httptest.Server) string {
	t.Helper()
	resp, err := ts.Client().Get(ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func TestConcurrentStreamsComplete(t *testing.T) {
	t.Parallel()
	s, ts := newTestServer(t, Config{})
	const n = 200
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			body := chatBody(fmt.Sprintf("request number %d", i), 20, true)
			body["ignore_eos"] = true
			code, out := post(t, ts, openai.ChatPath, body)
			res := parseStream(t, out)
			if code != 200 || !res.done || res.tokens != 20 || res.usage.Usage.CompletionTokens != 20 {
				errs <- fmt.Errorf("request %d: status %d, %d tokens, done %v", i, code, res.tokens, res.done)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if st := s.Stats(); st.Finished != n || st.GenerationTokens != 20*n {
		t.Errorf("engine finished %d requests, %d tokens; want %d, %d", st.Finished, st.GenerationTokens, n, 20*n)
	}
}

func TestDisconnectAbortsRequest(t *testing.T) {
	t.Parallel()
	s, ts := newTestServer(t, Config{})
	ctx, cancel := context.WithCancel(t.Context())
	body := `{"model":"test-model","prompt":"go on forever","max_tokens":100000,"ignore_eos":true,"stream":true}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+openai.CompletionsPath, strings.NewReader(body))
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	// Read until the first token arrives, then hang up.
	if _, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Running != 1 {
		t.Fatalf("%d running after the first token, want 1", st.Running)
	}
	cancel()
	resp.Body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for st := s.Stats(); st.Running+st.Waiting > 0 || st.KVUsage > 0; st = s.Stats() {
		if time.Now().After(deadline) {
			t.Fatalf("request still in the engine after the client left: %+v", st)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if st := s.Stats(); st.Finished != 0 {
		t.Errorf("%d finished, want the request aborted", st.Finished)
	}
}

func TestStartServesAndStops(t *testing.T) {
	t.Parallel()
	url, stop, err := Start(t.Context(), Config{Model: testModel, Coster: &prefillCost{step: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for _, path := range []string{"/health", "/v1/models"} {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || (path == "/v1/models" && !strings.Contains(string(b), `"id":"test-model"`)) {
			t.Errorf("GET %s: %d %s", path, resp.StatusCode, b)
		}
	}
	stop()
	if _, err := http.Get(url + "/health"); err == nil {
		t.Error("server still answering after stop")
	}
}
