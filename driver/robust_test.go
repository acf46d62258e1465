package driver

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"surge/client"
	"surge/metrics"
	"surge/trace"
)

// robustPhase is the phase timeout of the matrix: long enough that a
// loaded machine never trips it by accident.
const robustPhase = 300 * time.Millisecond

// robustBound is how long any run of the matrix may take. Each is due to
// end within about a second (schedule, plus a phase timeout or the retry
// waits); without the timeouts a hung request would last the 60 s drain.
const robustBound = 20 * time.Second

// badServer is one row of the misbehaving-server matrix: a server, the
// client and retry settings to meet it with, and what each record must say.
type badServer struct {
	reason string
	n      int // sessions, 20 ms apart
	cfg    client.Config
	retry  RetryPolicy
	h      func(hits *hits) http.HandlerFunc
	// start, instead of h, starts the server itself; it returns the base
	// URL and a wrapper for the driver's client.
	start func(t *testing.T) (string, func(Doer) Doer)
	want  func(r *trace.Record) string // what is wrong with r; "" if nothing
	after func(t *testing.T, recs []trace.Record, h *hits)
}

// hits counts what a test server saw: requests by prompt, and in total.
type hits struct {
	mu     sync.Mutex // guards byKey
	byKey  map[string]int
	total  atomic.Int64
	served atomic.Int64 // complete answers
}

// add counts a request with body key and returns its attempt number (1, 2, …).
func (h *hits) add(key string) int {
	h.total.Add(1)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.byKey[key]++
	return h.byKey[key]
}

// TestMisbehavingServers runs the driver with the real client against
// servers that fail on purpose: every request must get a record with the
// right class and cause, every run must end well within its schedule plus
// its timeouts, the summary must leave the failures out of the latencies
// and count them, and no goroutine may be left behind.
//
// It is not parallel with the package's other tests, so that counting
// goroutines measures this test alone; its rows run in parallel.
func TestMisbehavingServers(t *testing.T) {
	if testing.Short() {
		t.Skip("real sockets and timeouts: a few seconds")
	}
	base := runtime.NumGoroutine()
	t.Cleanup(func() { checkGoroutines(t, base) })
	for _, tt := range badServers() {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			runBad(t, tt)
		})
	}
}

// badServers is the matrix.
func badServers() []badServer {
	hang := func(*hits) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	}
	return []badServer{
		{reason: "hang before headers", n: 5, cfg: client.Config{FirstByteTimeout: robustPhase}, h: hang,
			want: failed(trace.ErrTimeout, client.CauseFirstByteTimeout+": ")},
		{reason: "hang mid-stream", n: 5, cfg: client.Config{IdleTimeout: robustPhase}, h: func(*hits) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				sseEvents(w, contentEvent("a"))
				<-r.Context().Done()
			}
		}, want: both(failed(trace.ErrTimeout, client.CauseIdleTimeout+": "), func(r *trace.Record) string {
			if r.Chunks != 1 || r.TTFTUS <= 0 {
				return fmt.Sprintf("chunks %d ttft %d: the token before the hang was lost", r.Chunks, r.TTFTUS)
			}
			return ""
		})},
		{reason: "connection reset", n: 5, h: resetAfterReading, want: failed(trace.ErrConnection, client.CauseReset+": ")},
		// The server had the whole request when it reset the connection:
		// re-sending it could run it twice, so a retry policy leaves it.
		{reason: "connection reset after the request was read, never retried", n: 5, h: resetAfterReading,
			retry: RetryPolicy{Max: 3, Backoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond},
			want: both(failed(trace.ErrConnection, client.CauseReset+": "), func(r *trace.Record) string {
				if r.Retries != 0 {
					return fmt.Sprintf("%d retries of a request the server had received", r.Retries)
				}
				return ""
			}),
			after: served(5)},
		{reason: "429 storm with Retry-After, retried", n: 5,
			retry: RetryPolicy{Max: 3, Backoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond},
			h:     refuseFirst(2, http.StatusTooManyRequests),
			want: func(r *trace.Record) string {
				// Retry-After: 1 asks for 1 s, capped at 100 ms, twice.
				if !r.OK() || r.Retries != 2 || r.SentUS-r.IntendedUS < 200_000 {
					return fmt.Sprintf("ok %v retries %d lag %dus: want success after 2 re-sends, 2×100 ms later", r.OK(), r.Retries, r.SentUS-r.IntendedUS)
				}
				return ""
			},
			after: served(15)},
		{reason: "429 storm outlasting the retries", n: 5,
			retry: RetryPolicy{Max: 2, Backoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond},
			h:     refuseFirst(1000, http.StatusTooManyRequests),
			want: both(failed(trace.ErrHTTP, "HTTP 429"), func(r *trace.Record) string {
				if r.Status != 429 || r.Retries != 2 {
					return fmt.Sprintf("status %d retries %d, want 429 after 2 re-sends", r.Status, r.Retries)
				}
				return ""
			}),
			after: served(15)},
		{reason: "503 storm, no retries by default", n: 5, h: refuseFirst(1000, http.StatusServiceUnavailable),
			want: both(failed(trace.ErrHTTP, "HTTP 503"), func(r *trace.Record) string {
				if r.Retries != 0 {
					return fmt.Sprintf("%d retries without a policy", r.Retries)
				}
				return ""
			}),
			after: served(5)},
		{reason: "malformed SSE", n: 5, h: func(*hits) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				sseEvents(w, contentEvent("a"), `{"choices":[{"delta":{"content":"b"`, "[DONE]")
			}
		}, want: failed(trace.ErrStream, "malformed stream data")},
		{reason: "server error event", n: 5, h: func(*hits) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				sseEvents(w, contentEvent("a"), `{"error":{"message":"engine died"}}`)
			}
		}, want: failed(trace.ErrStream, "error event: engine died")},
		{reason: "100 MB response", n: 3, cfg: client.Config{MaxResponseBytes: 1 << 20}, h: func(*hits) http.HandlerFunc { return hugeStream },
			want: failed(trace.ErrTooLarge, client.CauseTooLarge+": ")},
		{reason: "server restart mid-run", n: 40, start: restartingServer, want: func(r *trace.Record) string {
			if r.OK() || r.ErrorClass == trace.ErrConnection {
				return ""
			}
			return fmt.Sprintf("class %q (%s): want success or a connection error", r.ErrorClass, r.Error)
		}, after: afterRestart},
	}
}

// runBad runs one row and checks its records, its length and its summary.
func runBad(t *testing.T, tt badServer) {
	h := &hits{byKey: map[string]int{}}
	var url string
	var wrap Doer
	c := func(url string) *client.Client {
		cfg := tt.cfg
		cfg.BaseURL = url
		cl, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cl.Close)
		return cl
	}
	if tt.start != nil {
		var w func(Doer) Doer
		url, w = tt.start(t)
		wrap = w(c(url))
	} else {
		srv := httptest.NewServer(readBody(tt.h(h), h))
		t.Cleanup(srv.Close)
		url = srv.URL
		wrap = c(url)
	}
	hdr, ss := robustTrace(tt.n)
	d := mustNew(t, Config{Client: wrap, Stream: true, Retry: tt.retry}, hdr, ss)
	out := &sink{}
	began := time.Now()
	end, err := d.Run(context.Background(), time.Now(), out)
	if took := time.Since(began); err != nil || took > robustBound {
		t.Fatalf("run took %v (err %v), want under %v", took, err, robustBound)
	}
	if len(out.recs) != tt.n || end.Sent != tt.n {
		t.Fatalf("%d records, %d sent, want %d", len(out.recs), end.Sent, tt.n)
	}
	for i := range out.recs {
		if msg := tt.want(&out.recs[i]); msg != "" {
			t.Errorf("session %d: %s", out.recs[i].Session, msg)
		}
	}
	if tt.after != nil {
		tt.after(t, out.recs, h)
	}
	checkSummary(t, out.recs, end)
}

// checkSummary checks that the report's figures leave the failures out of
// the latencies and count them by class.
func checkSummary(t *testing.T, recs []trace.Record, end trace.RunEnd) {
	t.Helper()
	ok, byClass := 0, map[string]int{}
	for _, r := range recs {
		if r.OK() {
			ok++
		} else {
			byClass[r.ErrorClass]++
		}
	}
	s := metrics.Summarize(&trace.Records{Records: recs, End: &end}, metrics.Options{})
	e := s.All.Errors
	if s.All.OK != ok || e.Failed != len(recs)-ok || s.All.Latency.E2E.N != ok {
		t.Errorf("summary: %d ok, %d failed, %d e2e latencies; want %d, %d, %d", s.All.OK, e.Failed, s.All.Latency.E2E.N, ok, len(recs)-ok, ok)
	}
	for class, n := range byClass {
		if e.ByClass[class] != n {
			t.Errorf("summary counts %d %q failures, want %d", e.ByClass[class], class, n)
		}
	}
}

// checkGoroutines waits for the goroutine count to fall back to base,
// failing with every stack if it does not within 10 s.
func checkGoroutines(t *testing.T, base int) {
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Errorf("%d goroutines left, %d before the test:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// robustTrace is n one-turn chat sessions 20 ms apart, each with its own
// prompt so that a server can tell them apart.
func robustTrace(n int) (trace.Header, []*trace.Session) {
	h := trace.Header{Text: true, Clients: []trace.ClientInfo{{Name: "o", Model: "m"}}}
	ss := make([]*trace.Session, n)
	for i := range ss {
		ss[i] = &trace.Session{Client: "o", Index: i, AtUS: int64(i) * 20_000, API: "chat",
			Turns: []trace.Turn{{InputTokens: 2, OutputTokens: 3, MaxTokens: 3, Prompt: fmt.Sprintf("hello %d", i)}}}
	}
	return h, ss
}

// resetAfterReading resets the connection of a request whose body was
// read (by readBody).
func resetAfterReading(*hits) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			panic(err)
		}
		conn.(*net.TCPConn).SetLinger(0)
		conn.Close()
	}
}

// readBody reads the request body, counting the request by it, before h.
func readBody(h http.HandlerFunc, n *hits) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		n.add(string(b))
		r = r.WithContext(context.WithValue(r.Context(), bodyKey{}, string(b)))
		h(w, r)
	}
}

// bodyKey is the context key of the request body readBody read.
type bodyKey struct{}

// refuseFirst answers the first k attempts of each request with status
// (and Retry-After: 1), then streams a normal answer.
func refuseFirst(k, status int) func(*hits) http.HandlerFunc {
	return func(h *hits) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			body := r.Context().Value(bodyKey{}).(string)
			h.mu.Lock()
			n := h.byKey[body]
			h.mu.Unlock()
			if n <= k {
				w.Header().Set("Retry-After", "1")
				http.Error(w, `{"error":{"message":"busy"}}`, status)
				return
			}
			okStream(w)
			h.served.Add(1)
		}
	}
}

// served checks the server saw n requests in all.
func served(n int64) func(t *testing.T, recs []trace.Record, h *hits) {
	return func(t *testing.T, recs []trace.Record, h *hits) {
		if got := h.total.Load(); got != n {
			t.Errorf("server saw %d requests, want %d", got, n)
		}
	}
}

// failed checks a record's class and that its error starts with prefix.
func failed(class, prefix string) func(r *trace.Record) string {
	return func(r *trace.Record) string {
		if r.ErrorClass != class || !strings.HasPrefix(r.Error, prefix) {
			return fmt.Sprintf("class %q error %q, want %q starting %q", r.ErrorClass, r.Error, class, prefix)
		}
		return ""
	}
}

// both joins two record checks.
func both(a, b func(r *trace.Record) string) func(r *trace.Record) string {
	return func(r *trace.Record) string { return a(r) + b(r) }
}

// sseEvents starts an event stream and sends each data event.
func sseEvents(w http.ResponseWriter, events ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, ev := range events {
		fmt.Fprintf(w, "data: %s\n\n", ev)
		w.(http.Flusher).Flush()
	}
}

// contentEvent is a chunk carrying text.
func contentEvent(s string) string {
	return fmt.Sprintf(`{"choices":[{"index":0,"delta":{"content":%q},"finish_reason":null}]}`, s)
}

// okStream streams three tokens and a normal end.
func okStream(w http.ResponseWriter) {
	sseEvents(w, contentEvent("a"), contentEvent("b"),
		`{"choices":[{"index":0,"delta":{"content":"c"},"finish_reason":"length"}]}`,
		`{"choices":[],"usage":{"prompt_tokens":2,"completion_tokens":3}}`, "[DONE]")
}

// hugeStream tries to stream 100 MB of valid chunks, stopping when the
// client goes away.
func hugeStream(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	block := strings.Repeat("data: "+contentEvent(strings.Repeat("x", 1000))+"\n\n", 64)
	for n := 0; n < 100<<20; n += len(block) {
		if _, err := io.WriteString(w, block); err != nil {
			return
		}
	}
}

// restartingServer serves slow streams (five tokens 20 ms apart) until it
// has served three, then shuts down, cutting the streams in flight; once
// the client has been refused three times it listens again on the same
// port and serves to the end. The wrapper counts the refusals.
func restartingServer(t *testing.T) (string, func(Doer) Doer) {
	threeServed, threeRefused := make(chan struct{}), make(chan struct{})
	var served, refused atomic.Int64
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 5 {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
			finish := "null"
			if i == 4 {
				finish = `"length"`
			}
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"},\"finish_reason\":%s}]}\n\n", finish)
			w.(http.Flusher).Flush()
		}
		io.WriteString(w, "data: [DONE]\n\n")
		if served.Add(1) == 3 {
			close(threeServed)
		}
	})
	first := httptest.NewServer(h)
	addr := first.Listener.Addr().String()
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		defer first.Close()
		select {
		case <-threeServed:
		case <-stop:
			return
		}
		first.CloseClientConnections()
		first.Close()
		select {
		case <-threeRefused:
		case <-stop:
			return
		}
		// Go listeners set SO_REUSEADDR, so the port is free at once.
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Errorf("listening again on %s: %v", addr, err)
			return
		}
		second := httptest.NewUnstartedServer(h)
		second.Listener.Close()
		second.Listener = ln
		second.Start()
		<-stop
		second.Close()
	}()
	t.Cleanup(func() { close(stop); <-done })
	wrap := func(d Doer) Doer {
		return doerFunc(func(ctx context.Context, req *client.Request) *client.Result {
			res := d.Do(ctx, req)
			if res.Cause == client.CauseRefused && refused.Add(1) == 3 {
				close(threeRefused)
			}
			return res
		})
	}
	return first.URL, wrap
}

// afterRestart checks that the restart was seen: successes before it,
// refusals while the server was down, successes after it came back.
func afterRestart(t *testing.T, recs []trace.Record, _ *hits) {
	down := int64(-1) // intended offset of the first refusal
	for _, r := range recs {
		if strings.HasPrefix(r.Error, client.CauseRefused+": ") && (down < 0 || r.IntendedUS < down) {
			down = r.IntendedUS
		}
	}
	before, refused, after := 0, 0, 0
	for _, r := range recs {
		switch {
		case strings.HasPrefix(r.Error, client.CauseRefused+": "):
			refused++
		case r.OK() && r.IntendedUS < down:
			before++
		case r.OK() && r.IntendedUS > down:
			after++
		}
	}
	// The third stream served may be cut before the client read its end,
	// so only two successes before the restart are certain.
	if before < 2 || refused < 3 || after == 0 || down < 0 {
		t.Errorf("%d ok before the restart, %d refused, %d ok after: want 2 or more, 3 or more, some", before, refused, after)
	}
}
