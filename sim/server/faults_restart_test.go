package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"surge/openai"

	dto "github.com/prometheus/client_model/go"
)

// TestRestartDropsAndRefuses runs a server that restarts 1.5 s after its
// start for 2 s: a stream and a whole request in flight are cut, the engine
// is left empty, requests during the downtime get 503 with Retry-After,
// and afterwards the server serves again with an empty prefix cache and
// its counters carried on.
func TestRestartDropsAndRefuses(t *testing.T) {
	t.Parallel()
	const at, down = 1500 * time.Millisecond, 2 * time.Second
	s, ts, log := faultServer(t, "restart=2s@1500ms", Config{})
	shared := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 100) // ~1000 tokens
	if cached := cachedTokens(t, ts, shared); cached != 0 {
		t.Fatalf("%d cached tokens on the first request", cached)
	}
	if cached := cachedTokens(t, ts, shared); cached < 900 {
		t.Fatalf("%d cached tokens on a repeat, want most of ~1000", cached)
	}
	genBefore := s.Stats().GenerationTokens

	streamCut, wholeCut := make(chan observed, 1), make(chan observed, 1)
	long := chatBody("go on forever", 100000, true)
	long["ignore_eos"] = true
	started := make(chan struct{})
	go func() { streamCut <- sendLong(ts.Client(), ts.URL, long, started) }()
	<-started
	whole := chatBody("go on forever, all at once", 100000, false)
	whole["ignore_eos"] = true
	go func() { wholeCut <- send(t, ts.Client(), ts.URL, whole) }()
	if o := <-streamCut; o.status != 200 || o.readErr == nil || o.done {
		t.Errorf("stream: status %d, read error %v, [DONE] %v; want 200 then a cut", o.status, o.readErr, o.done)
	}
	if o := <-wholeCut; o.err == nil {
		t.Errorf("whole request: status %d, want the connection closed without a response", o.status)
	}
	waitDrained(t, s)
	since := time.Since(s.start)
	if since < at {
		t.Fatalf("requests cut at %v, before the restart at %v", since, at)
	}
	// A loaded machine can take the downtime to get here; the requests
	// while down are then not sent (the rest is checked all the same).
	inDown := since < at+down-200*time.Millisecond
	if !inDown && os.Getenv("SURGE_STRICT_TIMING") != "" {
		t.Fatalf("requests cut at %v, want in [%v, %v) with time left to look", since, at, at+down)
	}
	if !inDown {
		t.Logf("drained at %v, too late to look at the downtime ending at %v", since, at+down)
	}
	for _, path := range []string{"/health", openai.ChatPath} {
		if !inDown {
			break
		}
		resp, err := ts.Client().Post(ts.URL+path, "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if ra, _ := strconv.Atoi(resp.Header.Get("Retry-After")); resp.StatusCode != 503 || ra < 1 || ra > 2 {
			t.Errorf("%s while down: status %d, Retry-After %q; want 503, 1–2 s", path, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}
	if n := faultCount(t, ts, "restart"); n != 1 {
		t.Errorf("/metrics counts %v restarts once the engine drained, want 1", n)
	}

	waitHealthy(t, ts)
	if cached := cachedTokens(t, ts, shared); cached != 0 {
		t.Errorf("%d cached tokens after the restart, want an empty prefix cache", cached)
	}
	if g := s.Stats().GenerationTokens; g < genBefore+3 {
		t.Errorf("generation tokens %d after the restart, want ≥ %d carried + 3", g, genBefore)
	}
	// Two requests were refused above, and waitHealthy's polls until the end.
	want := map[string]float64{"restart": 1, "restart_cut": 2}
	if inDown {
		want["restart_refused"] = 2
	}
	for kind, want := range want {
		if n := faultCount(t, ts, kind); n != want && (kind != "restart_refused" || n < want) {
			t.Errorf("faults_injected_total{kind=%q} = %v, want %v", kind, n, want)
		}
	}
	if !strings.Contains(log.String(), "kind=restart down=2s dropped=2") {
		t.Errorf("log %q lacks the restart", log.String())
	}
}

// sendLong posts a stream, closes started once its first event is in,
// and reads it to the end or a cut.
func sendLong(client *http.Client, url string, body map[string]any, started chan<- struct{}) observed {
	raw, _ := json.Marshal(body)
	resp, err := client.Post(url+openai.ChatPath, "application/json", bytes.NewReader(raw))
	if err != nil {
		close(started)
		return observed{err: err}
	}
	defer resp.Body.Close()
	o := observed{status: resp.StatusCode}
	br := bufio.NewReader(resp.Body)
	for first := true; ; first = false {
		line, err := br.ReadString('\n')
		if first {
			close(started)
		}
		if err != nil {
			o.readErr = err
			return o
		}
		o.done = o.done || line == "data: [DONE]\n"
	}
}

// cachedTokens streams a 3-token chat request for prompt and returns the
// prompt tokens found in the prefix cache.
func cachedTokens(t *testing.T, ts *httptest.Server, prompt string) int {
	t.Helper()
	code, body := post(t, ts, openai.ChatPath, chatBody(prompt, 3, true))
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	return parseStream(t, body).cached
}

// waitHealthy polls /health until it answers 200.
func waitHealthy(t *testing.T, ts *httptest.Server) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		resp, err := ts.Client().Get(ts.URL + "/health")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == 200 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("/health still %d", resp.StatusCode)
		}
	}
}

// TestRestartCountedBeforeSeen stops a restart while it fails the requests
// in flight (their lock is held) and checks that the restart is already
// counted by the time its signal fires, so nothing that observes the
// restart can find /metrics without it.
func TestRestartCountedBeforeSeen(t *testing.T) {
	f, err := ParseFaults("restart=1s@1h")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Model: testModel, Coster: &prefillCost{step: time.Millisecond}, Faults: f, FaultLog: &lockedBuffer{}})
	if err != nil {
		t.Fatal(err)
	}
	st := newStream(7, job{}, time.Now())
	live := map[uint64]*stream{st.id: st}
	signal := s.restartSignal()
	st.mu.Lock() // the restart blocks failing st
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.restart(live, Restart{At: time.Hour, Down: time.Second})
	}()
	<-signal
	restarts, cut := counterValue(t, s, "restart"), counterValue(t, s, "restart_cut")
	st.mu.Unlock()
	<-done
	if restarts != 1 || cut != 1 {
		t.Errorf("when the restart signal fired: %v restarts and %v cut requests counted, want 1 and 1", restarts, cut)
	}
	if p := st.snapshot(); p.failure != errRestart {
		t.Errorf("the request in flight ended with %v, want the restart's error", p.failure)
	}
}

// counterValue returns the value of surge:faults_injected_total{kind}.
func counterValue(t *testing.T, s *Server, kind string) float64 {
	t.Helper()
	var m dto.Metric
	if err := s.faults.count.WithLabelValues(kind).Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}
