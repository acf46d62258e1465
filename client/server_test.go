package client

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

func TestServerTimings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file             string
		cached           int
		queue, ttft, e2e time.Duration
		reason           string
	}{
		{"surge_stream.sse", 48, 500 * time.Microsecond, 12250 * time.Microsecond, 20125 * time.Microsecond,
			"surge engine stream: cached_tokens and surge_timings of the usage chunk"},
		{"surge_whole.json", 16, 1500 * time.Microsecond, 30 * time.Millisecond, 45500 * time.Microsecond,
			"surge engine non-streamed response"},
		{"llamacpp_stream.sse", 5, 0, 21300 * time.Microsecond, 51400 * time.Microsecond,
			"llama-server: TTFT is prompt_ms, E2E prompt_ms+predicted_ms, cache_n cached, no queue"},
		{"vllm_stream.sse", 0, 0, 0, 0, "no server timings: all zero"},
	}
	for _, tt := range tests {
		body, err := os.ReadFile("testdata/" + tt.file)
		if err != nil {
			t.Fatal(err)
		}
		streamed := strings.HasSuffix(tt.file, ".sse")
		c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
			if streamed {
				startSSE(w).raw(string(body))
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(body)
		})
		req := chatReq()
		req.Stream = streamed
		res := c.Do(context.Background(), req)
		checkOK(t, res)
		if res.CachedTokens != tt.cached || res.ServerQueue != tt.queue || res.ServerTTFT != tt.ttft || res.ServerE2E != tt.e2e {
			t.Errorf("%s: cached %d, server queue %v TTFT %v E2E %v; want %d, %v %v %v", tt.reason,
				res.CachedTokens, res.ServerQueue, res.ServerTTFT, res.ServerE2E, tt.cached, tt.queue, tt.ttft, tt.e2e)
		}
	}
}

func TestMillis(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ms     float64
		want   time.Duration
		reason string
	}{
		{12.345678, 12345678 * time.Nanosecond, "fraction kept to the nanosecond"},
		{0.0000004, 0, "below half a nanosecond rounds to 0"},
		{-1, 0, "negative is ignored"},
		{1e300, 0, "absurdly large is ignored"},
	}
	for _, tt := range tests {
		if got := ms(tt.ms); got != tt.want {
			t.Errorf("%s: ms(%v) = %v, want %v", tt.reason, tt.ms, got, tt.want)
		}
	}
}
