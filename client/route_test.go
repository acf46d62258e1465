package client

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"surge/trace"
)

// modelServer answers every chat request with a short non-streamed reply
// and remembers the model each request named.
type modelServer struct {
	mu     sync.Mutex // guards models
	models []string
}

func (s *modelServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model string `json:"model"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.models = append(s.models, body.Model)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
}

// seen returns the models the server was asked for, sorted.
func (s *modelServer) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(slices.Values(s.models))
}

// startModelServer serves a modelServer for the test's duration.
func startModelServer(t *testing.T) (*modelServer, string) {
	t.Helper()
	s := &modelServer{}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL
}

func TestRouterSendsEachModelToItsServer(t *testing.T) {
	t.Parallel()
	a, urlA := startModelServer(t)
	b, urlB := startModelServer(t)
	other, urlOther := startModelServer(t)
	r, err := NewRouter(RouterConfig{
		Config: Config{BaseURL: urlOther},
		Routes: map[string]string{"llama": urlA, "qwen": urlB, "llama-big": urlA},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var wg sync.WaitGroup
	for _, m := range []string{"llama", "qwen", "llama-big", "mistral", "qwen", "llama"} {
		wg.Go(func() { checkOK(t, r.Do(context.Background(), &Request{API: "chat", Model: m, Prompt: "x"})) })
	}
	wg.Wait()
	tests := []struct {
		srv    *modelServer
		want   []string
		reason string
	}{
		{a, []string{"llama", "llama", "llama-big"}, "two models routed to one URL"},
		{b, []string{"qwen", "qwen"}, "one model routed to its own URL"},
		{other, []string{"mistral"}, "a model with no route goes to the default"},
	}
	for _, tt := range tests {
		if got := tt.srv.seen(); !slices.Equal(got, tt.want) {
			t.Errorf("%s: server got %q, want %q", tt.reason, got, tt.want)
		}
	}
	if len(r.clients) != 3 {
		t.Errorf("%d clients for 3 distinct URLs", len(r.clients))
	}
}

func TestRouterWithoutRoute(t *testing.T) {
	t.Parallel()
	a, urlA := startModelServer(t)
	r, err := NewRouter(RouterConfig{Routes: map[string]string{"llama": urlA, "qwen": urlA}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	res := r.Do(context.Background(), &Request{API: "chat", Model: "mistral", Prompt: "x"})
	if res.ErrClass != trace.ErrHTTP || res.Status != 0 || !res.Sent.IsZero() ||
		!strings.Contains(res.Err, `"mistral"`) || !strings.Contains(res.Err, "llama, qwen") {
		t.Errorf("result %+v; want an http error naming the model and the routed ones", res)
	}
	if got := a.seen(); len(got) != 0 {
		t.Errorf("server got %q; a request with no route must not be sent", got)
	}
}

func TestNewRouterRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cfg    RouterConfig
		want   []string
		reason string
	}{
		{RouterConfig{}, []string{"no routes"}, "nothing to send to"},
		{RouterConfig{Routes: map[string]string{"a": "ftp://u:secret@h", "b": "http://h", "c": "localhost:80"}},
			[]string{`model "a"`, "base URL ftp://h:", `model "c"`}, "every bad URL is named by its model, credentials hidden"},
		{RouterConfig{Routes: map[string]string{"": "http://h"}}, []string{"empty model name"}, "an empty model name"},
		{RouterConfig{Config: Config{BaseURL: "http//h"}, Routes: map[string]string{"a": "http://h"}},
			[]string{"default route"}, "a bad default route"},
	}
	for _, tt := range tests {
		r, err := NewRouter(tt.cfg)
		if err == nil {
			r.Close()
			t.Errorf("%s: no error", tt.reason)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tt.reason, err, w)
			}
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: error %q shows a password", tt.reason, err)
		}
	}
}
