package scrape

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"surge/sim"
	"surge/sim/server"
)

// TestRunBuiltinEngine scrapes surge's own engine (Llama-3.1-8B on one
// H100, in real time) while six requests of 64 forced output tokens run,
// and checks what the series shows: requests running at some scrape,
// monotonic token counters that grew by exactly the tokens generated,
// and an engine-side TTFT histogram holding the six requests.
func TestRunBuiltinEngine(t *testing.T) {
	t.Parallel()
	m, err := sim.LookupModel("Llama-3.1-8B")
	if err != nil {
		t.Fatal(err)
	}
	g, err := sim.LookupGPU("H100")
	if err != nil {
		t.Fatal(err)
	}
	base, stopServer, err := server.Start(t.Context(), server.Config{Hardware: sim.Hardware{Model: m, GPU: g, TP: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer stopServer()

	ctx, stopScrape := context.WithCancel(t.Context())
	out := &firstScrape{scraped: make(chan struct{})}
	var st Stats
	var runErr error
	done := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		st, runErr = Run(ctx, Config{URL: DefaultURL(base + "/v1"), Interval: 10 * time.Millisecond}, start, out)
	}()
	// Send once the first scrape (the line after the header) is written,
	// so the series starts before any request.
	select {
	case <-out.scraped:
	case <-done:
		t.Fatal("Run ended before its first scrape")
	}

	const requests, maxTokens = 6, 64
	var wg sync.WaitGroup
	errs := make(chan error, requests)
	for i := range requests {
		wg.Go(func() {
			body := fmt.Sprintf(`{"model":%q,"prompt":"request %d: tell me a long story","max_tokens":%d,"ignore_eos":true}`, m.Name, i, maxTokens)
			resp, err := http.Post(base+"/v1/completions", "application/json", strings.NewReader(body))
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			if b, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK {
				errs <- fmt.Errorf("status %d: %s", resp.StatusCode, b)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// Stop scraping before the engine so the final scrape sees it.
	stopScrape()
	<-done
	if runErr != nil || st.Failed != 0 || st.OK < 3 {
		t.Fatalf("Run: %v, stats %+v; want ≥ 3 scrapes, none failed", runErr, st)
	}

	s, err := Read(&out.buf)
	if err != nil {
		t.Fatal(err)
	}
	states := s.State()
	peak := 0.0
	for _, g := range states {
		peak = max(peak, g.Running)
		if g.Waiting < 0 || g.KVUsage < 0 || g.KVUsage > 1 {
			t.Errorf("state %+v out of range", g)
		}
	}
	if peak < 1 {
		t.Errorf("no scrape saw a running request (%d scrapes)", len(states))
	}
	last := states[len(states)-1]
	if last.Running != 0 || last.Waiting != 0 {
		t.Errorf("after every request finished: %+v, want none running or waiting", last)
	}

	prev := 0.0
	for i, sc := range s.OK() {
		v := total(sc, "vllm:generation_tokens_total")
		if v < prev {
			t.Errorf("scrape %d: generation tokens %v went down from %v", i, v, prev)
		}
		prev = v
	}
	if first := total(s.OK()[0], "vllm:generation_tokens_total"); first != 0 || prev != requests*maxTokens {
		t.Errorf("generation tokens went from %v to %v, want 0 to %d", first, prev, requests*maxTokens)
	}

	fam := s.Family(TTFT)
	if fam != "vllm:time_to_first_token_seconds" || s.Family(ITL) != "vllm:inter_token_latency_seconds" || s.Family(E2E) != "vllm:e2e_request_latency_seconds" {
		t.Fatalf("families %q %q %q", fam, s.Family(ITL), s.Family(E2E))
	}
	end := s.Scrapes[len(s.Scrapes)-1].AtUS
	q, err := s.HistogramQuantiles(fam, 0, end, 0.5, 0.99)
	if err != nil {
		t.Fatal(err)
	}
	if q.Count != requests || !(q.Values[0] > 0) || q.Values[1] < q.Values[0] || q.Values[1] > 2560 || q.Sum <= 0 {
		t.Errorf("engine TTFT %+v: want %d observations, 0 < p50 ≤ p99 ≤ the largest bucket", q, requests)
	}
	e2e, err := s.HistogramQuantiles(s.Family(E2E), 0, end, 0.5)
	if err != nil || e2e.Count != requests || e2e.Sum < q.Sum {
		t.Errorf("engine E2E %+v (%v): want %d observations, summing to at least TTFT's %v", e2e, err, requests, q.Sum)
	}
}

// firstScrape is a writer that closes scraped once two lines, the header
// and the first scrape, are written.
type firstScrape struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	scraped chan struct{}
}

func (w *firstScrape) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if bytes.Count(w.buf.Bytes(), []byte("\n")) == 2 {
		close(w.scraped)
	}
	return n, err
}
