package interop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// timings is llama-server's own account of a request, from the last
// chunk of its stream.
type timings struct {
	CacheN      int     `json:"cache_n"`
	PromptN     int     `json:"prompt_n"`
	PromptMS    float64 `json:"prompt_ms"`
	PredictedN  int     `json:"predicted_n"`
	PredictedMS float64 `json:"predicted_ms"`
}

// tap is a reverse proxy in front of a server that keeps, for each
// completions prompt it forwarded, the timings of the server's answer,
// so the test reads them from the wire rather than from surge's records.
type tap struct {
	mu  sync.Mutex
	got map[string]timings // by prompt
}

// newTap starts a tap in front of p and returns it with its URL.
func newTap(t *testing.T, p *peer) (*tap, string) {
	t.Helper()
	target, err := url.Parse(p.url)
	if err != nil {
		t.Fatal(err)
	}
	tp := &tap{got: map[string]timings{}}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.FlushInterval = -1
	// llama-server closes the connection after every stream: a fresh one
	// per request spares the proxy re-sending on a dead one.
	proxy.Transport = &http.Transport{DisableKeepAlives: true}
	proxy.ModifyResponse = func(resp *http.Response) error {
		var body struct {
			Prompt string `json:"prompt"`
		}
		if b, ok := resp.Request.Context().Value(bodyKey{}).([]byte); ok {
			json.Unmarshal(b, &body)
		}
		if body.Prompt != "" {
			resp.Body = &tee{ReadCloser: resp.Body, done: func(b []byte) { tp.keep(body.Prompt, b) }}
		}
		return nil
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(b))
		proxy.ServeHTTP(w, r.WithContext(contextWith(r, b)))
	}))
	t.Cleanup(srv.Close)
	return tp, srv.URL
}

// keep records the timings of the last stream event of body that has
// them.
func (tp *tap) keep(prompt string, body []byte) {
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || !strings.Contains(line, `"timings"`) {
			continue
		}
		var ev struct {
			Timings *timings `json:"timings"`
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Timings != nil {
			tp.mu.Lock()
			tp.got[prompt] = *ev.Timings
			tp.mu.Unlock()
		}
	}
}

// tee passes a body through, keeping a copy for done at its end.
type tee struct {
	io.ReadCloser
	buf  bytes.Buffer
	done func([]byte)
	once sync.Once
}

// Read reads from the body, keeping what it read.
func (r *tee) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	r.buf.Write(p[:n])
	if err == io.EOF {
		r.once.Do(func() { r.done(r.buf.Bytes()) })
	}
	return n, err
}

// Close closes the body, handing what was read to done.
func (r *tee) Close() error {
	r.once.Do(func() { r.done(r.buf.Bytes()) })
	return r.ReadCloser.Close()
}

// bodyKey is the context key of a request's body in the tap.
type bodyKey struct{}

// contextWith returns r's context carrying body.
func contextWith(r *http.Request, body []byte) context.Context {
	return context.WithValue(r.Context(), bodyKey{}, body)
}

// testServerTimings checks that surge records llama-server's own
// timings as docs/records.md says: server_ttft_us is prompt_ms,
// server_e2e_us is prompt_ms + predicted_ms, server_output_tokens is
// predicted_n, read here from the wire through a proxy.
func testServerTimings(t *testing.T, srv *peer, tr *traces) {
	tp, proxyURL := newTap(t, srv)
	via := &peer{name: srv.name + " through a proxy", url: proxyURL}
	r := runTrace(t, via, tr.gen(t, llamaSpec("completions", 4, 12)))
	checkComplete(t, r)
	want := turns(r.trace)
	us := func(ms float64) int64 { return int64(math.Round(ms * 1000)) }
	near := func(a, b int64) bool { return a-b <= 1 && b-a <= 1 }
	for _, rec := range r.recs.Requests {
		prompt := salted(t, r.recs.Salt, want[key{rec.Client, rec.Session, rec.Turn}].Prompt)
		tp.mu.Lock()
		tm, ok := tp.got[prompt]
		tp.mu.Unlock()
		if !ok {
			t.Errorf("%s: the proxy saw no timings for its prompt", rec)
			continue
		}
		if !near(rec.ServerTTFTUS, us(tm.PromptMS)) || !near(rec.ServerE2EUS, us(tm.PromptMS+tm.PredictedMS)) || rec.ServerOutputTokens != tm.PredictedN {
			t.Errorf("%s: records server_ttft_us %d, server_e2e_us %d, server_output_tokens %d; the server sent prompt_ms %.3f, predicted_ms %.3f, predicted_n %d",
				rec, rec.ServerTTFTUS, rec.ServerE2EUS, rec.ServerOutputTokens, tm.PromptMS, tm.PredictedMS, tm.PredictedN)
		}
		if rec.ServerInputTokens != tm.CacheN+tm.PromptN || rec.CachedTokens != tm.CacheN {
			t.Errorf("%s: records server_input_tokens %d, cached_tokens %d; the server's timings say cache_n %d + prompt_n %d", rec, rec.ServerInputTokens, rec.CachedTokens, tm.CacheN, tm.PromptN)
		}
	}
}
