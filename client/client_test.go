package client

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestNewRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url    string
		want   string
		reason string
	}{
		{"", "empty", "no URL"},
		{"localhost:8000", "scheme", "missing scheme parses as scheme localhost"},
		{"ftp://h/", "scheme", "wrong scheme"},
		{"http://", "no host", "no host"},
		{"http://h/?a=1", "query", "query"},
		{"http://h\x7f/", "parsing base URL", "unparsable"},
	}
	for _, tt := range tests {
		if _, err := New(Config{BaseURL: tt.url}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: New(%q) error %v, want one mentioning %q", tt.reason, tt.url, err, tt.want)
		}
	}
}

func TestBaseURLPaths(t *testing.T) {
	t.Parallel()
	tests := []struct {
		suffix string
		want   string
		reason string
	}{
		{"", "/v1/chat/completions", "bare host"},
		{"/", "/v1/chat/completions", "trailing slash"},
		{"/v1", "/v1/chat/completions", "a /v1 base as OpenAI SDKs take it"},
		{"/proxy/v1/", "/proxy/v1/chat/completions", "a prefix"},
	}
	for _, tt := range tests {
		var path, auth string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			path, auth = r.URL.Path, r.Header.Get("Authorization")
			startSSE(w).raw("data: " + finishChunk("stop") + "\n\ndata: [DONE]\n\n")
		}))
		u := strings.Replace(srv.URL, "http://", "http://alice:pw@", 1)
		c, err := New(Config{BaseURL: u + tt.suffix})
		if err != nil {
			t.Fatal(err)
		}
		checkOK(t, c.Do(context.Background(), chatReq()))
		if path != tt.want {
			t.Errorf("%s: path %q, want %q", tt.reason, path, tt.want)
		}
		if want := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:pw")); auth != want {
			t.Errorf("%s: Authorization %q, want %q from the URL's user", tt.reason, auth, want)
		}
		c.Close()
		srv.Close()
	}
}

func TestProtocols(t *testing.T) {
	t.Parallel()
	protos := make(chan string, 1)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		protos <- r.Proto
		s := startSSE(w)
		s.send(contentChunk("a"))
		s.send("[DONE]")
	}))
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetHTTP1(true)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Start()
	defer srv.Close()
	tests := []struct {
		http2  bool
		want   string
		reason string
	}{
		{false, "HTTP/1.1", "default is HTTP/1.1"},
		{true, "HTTP/2.0", "HTTP2 speaks h2c to an http:// server"},
	}
	for _, tt := range tests {
		c, err := New(Config{BaseURL: srv.URL, HTTP2: tt.http2})
		if err != nil {
			t.Fatal(err)
		}
		res := c.Do(context.Background(), chatReq())
		checkOK(t, res)
		if proto := <-protos; proto != tt.want || res.Chunks != 1 {
			t.Errorf("%s: server saw %q, chunks %d", tt.reason, proto, res.Chunks)
		}
		c.Close()
	}
}
