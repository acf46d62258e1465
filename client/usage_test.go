package client

import (
	"context"
	"net/http"
	"testing"
)

// TestUsageDropped sends impossible usage, streamed and whole: the counts
// are dropped (0, as if absent) with the reason in UsageDropped, and the
// request still succeeds; possible ones are kept.
func TestUsageDropped(t *testing.T) {
	t.Parallel()
	tests := []struct {
		usage                      string
		prompt, completion, cached int
		dropped                    string
		reason                     string
	}{
		{`{"prompt_tokens":12,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":8}}`, 12, 2, 8, "", "possible counts kept"},
		{`{"prompt_tokens":-5,"completion_tokens":2}`, 0, 2, 0, "prompt_tokens -5 is negative", "negative prompt"},
		{`{"prompt_tokens":12,"completion_tokens":-2}`, 12, 0, 0, "completion_tokens -2 is negative", "negative completion"},
		{`{"prompt_tokens":12,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":-1}}`, 12, 2, 0, "cached_tokens -1 is negative", "negative cached"},
		{`{"prompt_tokens":12,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":50}}`, 12, 2, 0, "cached_tokens 50 is more than prompt_tokens 12", "more cached than prompt tokens"},
		{`{"prompt_tokens":12,"completion_tokens":1000000}`, 12, 0, 0, "completion_tokens 1000000 is more than the", "more completion tokens than bytes"},
		{`{"prompt_tokens":12,"completion_tokens":5000,"completion_tokens_details":{"reasoning_tokens":4998}}`, 12, 5000, 0, "", "hidden reasoning tokens need no bytes"},
	}
	for _, tt := range tests {
		for _, stream := range []bool{true, false} {
			c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
				if !stream {
					w.Header().Set("Content-Type", "application/json")
					w.Write([]byte(`{"choices":[{"message":{"content":"ab"},"finish_reason":"stop"}],"usage":` + tt.usage + `}`))
					return
				}
				s := startSSE(w)
				s.send(contentChunk("a"))
				s.send(contentChunk("b"))
				s.send(finishChunk("stop"))
				s.send(`{"choices":[],"usage":` + tt.usage + `}`)
				s.send("[DONE]")
			})
			req := chatReq()
			req.Stream = stream
			res := c.Do(context.Background(), req)
			checkOK(t, res)
			if res.PromptTokens != tt.prompt || res.CompletionTokens != tt.completion || res.CachedTokens != tt.cached {
				t.Errorf("%s (stream %v): prompt %d completion %d cached %d, want %d %d %d", tt.reason, stream,
					res.PromptTokens, res.CompletionTokens, res.CachedTokens, tt.prompt, tt.completion, tt.cached)
			}
			if got := res.UsageDropped; (tt.dropped == "") != (got == "") || len(got) < len(tt.dropped) || got[:len(tt.dropped)] != tt.dropped {
				t.Errorf("%s (stream %v): UsageDropped %q, want it to start %q", tt.reason, stream, got, tt.dropped)
			}
		}
	}
}
