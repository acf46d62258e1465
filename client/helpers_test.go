package client

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Chunks as vLLM writes them.
func roleChunk() string {
	return `{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`
}

func contentChunk(s string) string {
	return fmt.Sprintf(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":%q},"finish_reason":null}]}`, s)
}

func reasoningChunk(s string) string {
	return fmt.Sprintf(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"reasoning_content":%q},"finish_reason":null}]}`, s)
}

func finishChunk(reason string) string {
	return fmt.Sprintf(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":%q}]}`, reason)
}

func usageChunk(prompt, completion int) string {
	return fmt.Sprintf(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`, prompt, completion, prompt+completion)
}

// sse writes events to a streaming response, flushing each.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

// startSSE sends the headers of an event stream.
func startSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	f := w.(http.Flusher)
	f.Flush()
	return &sse{w: w, f: f}
}

// send writes one data event and flushes it, returning the time the flush
// returned: the bytes are then in the kernel, on their way to the client.
func (s *sse) send(data string) time.Time {
	fmt.Fprintf(s.w, "data: %s\n\n", data)
	s.f.Flush()
	return time.Now()
}

// raw writes bytes as they are and flushes them.
func (s *sse) raw(b string) {
	fmt.Fprint(s.w, b)
	s.f.Flush()
}

// serve starts a test server with h and returns a client for it. The
// request body is read before h runs unless h reads it, so that the
// server notices when the client goes away.
func serve(t testing.TB, cfg Config, h http.HandlerFunc) (*Client, *httptest.Server) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	cfg.BaseURL = srv.URL
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c, srv
}

// chatReq is a small streaming chat request.
func chatReq() *Request {
	return &Request{API: "chat", Model: "m", Prompt: "Hello", MaxTokens: 16, Stream: true}
}

// checkOK fails the test if res is an error.
func checkOK(t *testing.T, res *Result) {
	t.Helper()
	if res.ErrClass != "" {
		t.Fatalf("request failed: class %q, status %d: %s", res.ErrClass, res.Status, res.Err)
	}
}
