package client

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// TestHTTPClientRedirects checks that an HTTPClient follows a redirect
// only when no credentials were sent and only within the origin: a
// redirect to another port of the same host gets nothing.
func TestHTTPClientRedirects(t *testing.T) {
	t.Parallel()
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/v1/models", http.StatusFound)
		case "/here":
			http.Redirect(w, r, "/v1/models", http.StatusFound)
		default:
			io.WriteString(w, `{"data":[]}`)
		}
	}))
	defer srv.Close()
	for _, tt := range []struct {
		name   string
		cfg    Config
		path   string
		follow bool
	}{
		{"no credentials, same origin", Config{}, "/here", true},
		{"no credentials, another port", Config{}, "/away", false},
		{"a key, same origin", Config{APIKey: "sk-1"}, "/here", false},
		{"a key, another port", Config{APIKey: "sk-1"}, "/away", false},
		{"user information, another port", Config{BaseURL: strings.Replace(srv.URL, "://", "://u:pw@", 1)}, "/away", false},
	} {
		cfg := tt.cfg
		if cfg.BaseURL == "" {
			cfg.BaseURL = srv.URL
		}
		hc, err := HTTPClient(cfg, 0)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := hc.Get(srv.URL + tt.path)
		if err == nil {
			resp.Body.Close()
		}
		if followed := err == nil; followed != tt.follow {
			t.Errorf("%s: followed %v (%v), want %v", tt.name, followed, err, tt.follow)
		}
		if err != nil && (!strings.Contains(err.Error(), "not following the redirect") || strings.Contains(err.Error(), "pw")) {
			t.Errorf("%s: error %q", tt.name, err)
		}
		hc.CloseIdleConnections()
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the other port got %d requests", n)
	}
}

// TestHTTPClientOptions checks that an HTTPClient has the options of
// the inference requests: TLS verification unless Insecure (with how to
// fix a failure), Header, the proxy, and credentials for the target's
// origin only.
func TestHTTPClientOptions(t *testing.T) {
	t.Parallel()
	seen := make(chan http.Header, 4)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen <- r.Header.Clone() })
	tlsSrv := httptest.NewTLSServer(h)
	defer tlsSrv.Close()
	for _, insecure := range []bool{false, true} {
		hc, _ := HTTPClient(Config{BaseURL: tlsSrv.URL, Insecure: insecure}, 0)
		resp, err := hc.Get(tlsSrv.URL + "/metrics")
		if err == nil {
			resp.Body.Close()
			<-seen
		}
		if (err == nil) != insecure || (err != nil && !strings.Contains(err.Error(), "--insecure")) {
			t.Errorf("insecure %v: %v", insecure, err)
		}
		hc.CloseIdleConnections()
	}
	c, err := New(Config{BaseURL: tlsSrv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if res := c.Do(context.Background(), chatReq()); !strings.Contains(res.Err, "--insecure") {
		t.Errorf("an inference request to an untrusted server: %q, want how to fix it", res.Err)
	}
	c.Close()

	target := httptest.NewServer(h)
	defer target.Close()
	other := httptest.NewServer(h)
	defer other.Close()
	cfg := Config{BaseURL: target.URL, APIKey: "sk-9", Header: http.Header{"X-Api-Key": {"gw"}, "X-Team": {"a"}}}
	hc, _ := HTTPClient(cfg, 0)
	defer hc.CloseIdleConnections()
	for _, tt := range []struct {
		url, auth, key string
	}{{target.URL + "/metrics", "Bearer sk-9", "gw"}, {other.URL + "/metrics", "", ""}} {
		resp, err := hc.Get(tt.url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		got := <-seen
		if got.Get("Authorization") != tt.auth || got.Get("X-Api-Key") != tt.key {
			t.Errorf("%s: Authorization %q, X-Api-Key %q; want %q, %q", tt.url, got.Get("Authorization"), got.Get("X-Api-Key"), tt.auth, tt.key)
		}
	}

	// The proxy: every request goes to it.
	var proxied atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { proxied.Add(1) }))
	defer proxy.Close()
	pu, _ := url.Parse(proxy.URL)
	pcfg := Config{BaseURL: "http://inference.invalid:8000", Proxy: http.ProxyURL(pu)}
	phc, _ := HTTPClient(pcfg, 0)
	resp, err := phc.Get("http://inference.invalid:8000/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	phc.CloseIdleConnections()
	c, err = New(pcfg)
	if err != nil {
		t.Fatal(err)
	}
	c.Do(context.Background(), chatReq())
	c.Close()
	if n := proxied.Load(); n != 2 {
		t.Errorf("the proxy got %d requests, want the scrape's and the inference's", n)
	}
}

// TestTLSHints checks that a TLS failure says how to fix it first, where
// a report's excerpt of the message still shows it.
func TestTLSHints(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	untrusted := httptest.NewTLSServer(h)
	defer untrusted.Close()
	plain := httptest.NewServer(h)
	defer plain.Close()
	for _, tt := range []struct{ url, want string }{
		{untrusted.URL, "untrusted certificate (--insecure"},
		{strings.Replace(plain.URL, "http://", "https://", 1), "not TLS (the server speaks plain HTTP: give an http:// URL)"},
	} {
		c, err := New(Config{BaseURL: tt.url})
		if err != nil {
			t.Fatal(err)
		}
		res := c.Do(context.Background(), chatReq())
		c.Close()
		if !strings.Contains(res.Err, "sending request: "+tt.want) {
			t.Errorf("%s: Err %q, want the stage then %q", tt.url, res.Err, tt.want)
		}
	}
}
