package zeroserver

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"surge/openai"
)

// stream is what a client reads from one response.
type stream struct {
	tokens     int    // chunks carrying a token
	firstText  string // the first token's text
	finish     string // the last finish_reason
	completion int    // usage.completion_tokens
	done       bool   // [DONE] came last
}

// read parses a response body as a client does.
func read(t *testing.T, body []byte) stream {
	t.Helper()
	var (
		p  openai.Parser
		st stream
	)
	p.Feed(body)
	for {
		ev, ok := p.Next()
		if !ok {
			break
		}
		if st.done {
			t.Fatalf("event %q after [DONE]", ev.Data)
		}
		if ev.Done() {
			st.done = true
			continue
		}
		in, text, _, err := openai.DecodeText(ev.Data, nil, nil)
		if err != nil {
			t.Fatalf("event %q: %v", ev.Data, err)
		}
		if in.Token() {
			if st.tokens == 0 {
				st.firstText = string(text)
			}
			st.tokens++
		}
		if in.FinishReason != "" {
			st.finish = in.FinishReason
		}
		if in.HasUsage {
			st.completion = in.Usage.CompletionTokens
		}
	}
	return st
}

func TestHandler(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		cfg        Config
		path, body string
		want       int // tokens
	}{
		{"completions by max_tokens", Config{}, "/v1/completions", `{"max_tokens":5}`, 5},
		{"chat by max_tokens", Config{}, "/v1/chat/completions", `{"max_tokens":3,"messages":[]}`, 3},
		{"no max_tokens", Config{}, "/v1/completions", `{"prompt":"x"}`, DefaultTokens},
		{"fixed tokens ignore the body", Config{Tokens: 7}, "/v1/completions", `not json`, 7},
		{"each event flushed", Config{Each: true}, "/v1/chat/completions", `{"max_tokens":4}`, 4},
		{"with a wait between tokens", Config{ITL: time.Microsecond}, "/v1/completions", `{"max_tokens":3}`, 3},
		{"stamped in one write", Config{Stamp: true}, "/v1/completions", `{"max_tokens":2}`, 2},
		{"stamped, each event flushed", Config{Stamp: true, Each: true}, "/v1/chat/completions", `{"max_tokens":2}`, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(Handler(tc.cfg))
			defer srv.Close()
			// Twice: the second response comes from the prepared one.
			for range 2 {
				before := time.Now().UnixNano()
				resp, err := http.Post(srv.URL+tc.path, "application/json", strings.NewReader(tc.body))
				if err != nil {
					t.Fatal(err)
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil {
					t.Fatal(err)
				}
				if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
					t.Fatalf("status %d, Content-Type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
				}
				st := read(t, body)
				if st.tokens != tc.want || st.completion != tc.want || st.finish != "length" || !st.done {
					t.Errorf("read %+v, want %d tokens, usage of %d, finish_reason length and [DONE]", st, tc.want, tc.want)
				}
				if !tc.cfg.Stamp {
					if st.firstText != " tok" {
						t.Errorf("first token %q, want \" tok\"", st.firstText)
					}
					continue
				}
				if len(st.firstText) != StampWidth {
					t.Errorf("stamp %q is not %d bytes", st.firstText, StampWidth)
				}
				ns, err := strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(st.firstText, "t")), 10, 64)
				if err != nil || ns < before || ns > time.Now().UnixNano() {
					t.Errorf("stamp %q: %d, %v; want a time within the request", st.firstText, ns, err)
				}
			}
		})
	}
}

func TestHandlerRefusesABadBody(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	Handler(Config{}).ServeHTTP(rec, httptest.NewRequest("POST", "/v1/completions", strings.NewReader("{")))
	if rec.Code != http.StatusBadRequest {
		t.Errorf("status %d for a body that is not JSON, want 400", rec.Code)
	}
}

func TestServeStopsWithItsContext(t *testing.T) {
	t.Parallel()
	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, Config{}) }()
	resp, err := http.Post("http://"+ln.Addr().String()+"/v1/completions", "application/json", strings.NewReader(`{"max_tokens":1}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve after its context ended: %v, want nil", err)
	}
}
