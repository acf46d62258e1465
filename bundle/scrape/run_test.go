package scrape

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// vllmText renders a vLLM-shaped exposition for the n-th scrape: running
// n mod 5, queries 100n and hits 40n tokens, and 2n TTFT observations in
// (0.04, 0.06].
func vllmText(n int) string {
	var b strings.Builder
	l := `engine="0",model_name="m"`
	fmt.Fprintf(&b, "# HELP vllm:num_requests_running Number of requests in model execution batches.\n# TYPE vllm:num_requests_running gauge\n")
	fmt.Fprintf(&b, "vllm:num_requests_running{%s} %d.0\n", l, n%5)
	fmt.Fprintf(&b, "# TYPE vllm:prefix_cache_queries_total counter\nvllm:prefix_cache_queries_total{%s} %d.0\n", l, 100*n)
	fmt.Fprintf(&b, "# TYPE vllm:prefix_cache_queries_created gauge\nvllm:prefix_cache_queries_created{%s} 1.75e+09\n", l)
	fmt.Fprintf(&b, "# TYPE vllm:prefix_cache_hits_total counter\nvllm:prefix_cache_hits_total{%s} %d.0\n", l, 40*n)
	fmt.Fprintf(&b, "# TYPE vllm:time_to_first_token_seconds histogram\n")
	for _, le := range []string{"0.02", "0.04"} {
		fmt.Fprintf(&b, "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=%q,model_name=\"m\"} 0.0\n", le)
	}
	for _, le := range []string{"0.06", "0.08", "+Inf"} {
		fmt.Fprintf(&b, "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=%q,model_name=\"m\"} %d.0\n", le, 2*n)
	}
	fmt.Fprintf(&b, "vllm:time_to_first_token_seconds_count{%s} %d.0\nvllm:time_to_first_token_seconds_sum{%s} %g\n", l, 2*n, l, 0.05*float64(2*n))
	return b.String()
}

// lineLimit is a writer that cancels a run after max lines.
type lineLimit struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	lines  int
	max    int
	cancel context.CancelFunc
}

func (w *lineLimit) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lines += bytes.Count(p, []byte("\n"))
	if w.lines >= w.max {
		w.cancel()
	}
	return w.buf.Write(p)
}

// runFor runs a scrape of url, cancelled once max lines (header included)
// are written or after 10 s, and reads the file back.
func runFor(t *testing.T, cfg Config, max int) (Stats, *Series) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	w := &lineLimit{max: max, cancel: cancel}
	if cfg.Interval == 0 {
		cfg.Interval = 5 * time.Millisecond
	}
	st, err := Run(ctx, cfg, time.Now(), w)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	s, err := Read(bytes.NewReader(w.buf.Bytes()))
	if err != nil {
		t.Fatalf("reading what Run wrote: %v\n%s", err, w.buf.String())
	}
	return st, s
}

func TestRunChangingServer(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		fmt.Fprint(w, vllmText(int(n.Add(1))))
	}))
	defer srv.Close()
	st, s := runFor(t, Config{URL: srv.URL + "/metrics", Keep: []string{"vllm:prefix_cache_queries_created"}}, 7)
	// 6 scrapes in the loop, then the final one after cancellation.
	if st.OK != 7 || st.Failed != 0 || st.NoEndpoint || len(s.Scrapes) != 7 {
		t.Fatalf("stats %+v, %d scrapes; want 7 ok", st, len(s.Scrapes))
	}
	if s.Header.Format != Format || s.Header.IntervalUS != 5000 || s.Header.URL != srv.URL+"/metrics" {
		t.Errorf("header %+v", s.Header)
	}
	states := s.State()
	for i, g := range states {
		k := i + 1 // the handler's n for this scrape
		want := math.NaN()
		if i > 0 {
			want = 0.4
		}
		if g.Running != float64(k%5) || !same(g.PrefixHitRate, want) || i > 0 && g.AtUS < states[i-1].AtUS {
			t.Errorf("state %d = %+v, want running %d, hit rate %v, time ascending", i, g, k%5, want)
		}
	}
	if len(s.Scrapes[0].Samples) != 5 {
		t.Errorf("first scrape kept %d families, want 5 (4 known + the listed _created)", len(s.Scrapes[0].Samples))
	}
	first, last := s.Scrapes[0].AtUS, s.Scrapes[6].AtUS
	q, err := s.HistogramQuantiles(s.Family(TTFT), first, last, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if q.Count != 12 || !same(q.Values[0], 0.05) || !same(q.Sum, 0.6) {
		t.Errorf("TTFT over the run = %+v, want 12 observations (2·7 − 2·1), median 0.05, sum 0.6", q)
	}
}

func TestRunFailures(t *testing.T) {
	t.Parallel()
	refused := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		return "http://" + addr + "/metrics"
	}()
	serve := func(h http.HandlerFunc) string {
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return srv.URL + "/metrics"
	}
	var calls atomic.Int64
	tests := []struct {
		name       string
		url        string
		client     *http.Client
		lines      int // stop after this many lines (header included)
		ok, failed int
		noEndpoint bool
		errHas     string
		reason     string
	}{
		{"refused", refused, nil, 4, 0, 4, false, "refused",
			"nothing listening: every scrape fails, the loop goes on, and the final scrape fails too"},
		{"500", serve(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "boom", 500) }), nil, 3, 0, 3, false, "status 500",
			"a server error is a failed scrape"},
		{"garbage", serve(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "<html>{{{ not metrics\n") }), nil, 3, 0, 3, false, "parsing exposition",
			"an unparsable body is a failed scrape"},
		{"404 first", serve(http.NotFound), nil, 100, 0, 1, true, "no metrics endpoint",
			"no endpoint: one line, then Run stops on its own"},
		{"404 later", serve(func(w http.ResponseWriter, r *http.Request) {
			if calls.Add(1) == 1 {
				fmt.Fprint(w, vllmText(1))
				return
			}
			http.NotFound(w, r)
		}), nil, 3, 1, 2, false, "404",
			"a 404 after the endpoint answered is an ordinary failure"},
		{"timeout", serve(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(2 * time.Second):
			case <-r.Context().Done():
			}
		}), &http.Client{Timeout: 20 * time.Millisecond}, 3, 0, 3, false, "deadline exceeded",
			"a slow endpoint times out; the next scrape still happens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, s := runFor(t, Config{URL: tt.url, Client: tt.client}, tt.lines)
			if st.OK != tt.ok || st.Failed != tt.failed || st.NoEndpoint != tt.noEndpoint || !strings.Contains(st.LastError, tt.errHas) {
				t.Errorf("stats %+v, want ok %d failed %d noEndpoint %v, error with %q (%s)", st, tt.ok, tt.failed, tt.noEndpoint, tt.errHas, tt.reason)
			}
			if len(s.Scrapes) != tt.ok+tt.failed {
				t.Errorf("%d lines, want one per scrape, %d", len(s.Scrapes), tt.ok+tt.failed)
			}
			for _, sc := range s.Scrapes {
				if !sc.OK() && len(sc.Samples) > 0 {
					t.Errorf("failed line with samples: %+v", sc)
				}
			}
		})
	}
}

func TestRunRedactsAndValidates(t *testing.T) {
	t.Parallel()
	if _, err := Run(t.Context(), Config{}, time.Now(), &bytes.Buffer{}); err == nil {
		t.Error("empty URL: no error")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "no", http.StatusServiceUnavailable) }))
	defer srv.Close()
	url := strings.Replace(srv.URL, "http://", "http://user:secret@", 1) + "/metrics"
	st, s := runFor(t, Config{URL: url}, 2)
	if strings.Contains(s.Header.URL, "secret") || strings.Contains(s.Header.URL, "user") || strings.Contains(st.LastError, "secret") {
		t.Errorf("credentials leaked: header %q, error %q", s.Header.URL, st.LastError)
	}
	// A writer that fails ends the run with an error.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if _, err := Run(ctx, Config{URL: url}, time.Now(), failWriter{}); err == nil {
		t.Error("failing writer: no error")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("disk full") }
