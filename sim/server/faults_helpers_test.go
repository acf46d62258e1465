package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"surge/openai"
)

// lockedBuffer is a bytes.Buffer safe for the server's handlers to log to.
type lockedBuffer struct {
	mu sync.Mutex // guards b
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// faultServer starts a test server (1 ms steps) injecting the faults of
// spec, drawn with seed 1, and logging them to the returned buffer.
func faultServer(t *testing.T, spec string, cfg Config) (*Server, *httptest.Server, *lockedBuffer) {
	t.Helper()
	f, err := ParseFaults(spec)
	if err != nil {
		t.Fatal(err)
	}
	log := &lockedBuffer{}
	cfg.Faults, cfg.FaultSeed, cfg.FaultLog = f, 1, log
	s, ts := newTestServer(t, cfg)
	return s, ts, log
}

// observed is what a plain net/http client saw of one request.
type observed struct {
	err     error // from Do: no response at all
	status  int
	header  http.Header
	body    []byte          // a whole response's body
	events  [][]byte        // a stream's data payloads, [DONE] excluded
	at      []time.Duration // when each event was read, since the request was sent
	done    bool            // the stream ended with [DONE]
	readErr error           // reading the body failed, e.g. the stream was cut
}

// send posts body to url's chat endpoint with client, reading a stream
// event by event. It may run on any goroutine.
func send(t *testing.T, client *http.Client, url string, body map[string]any) observed {
	t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		return observed{err: err} // no t.Fatal: send runs on other goroutines too
	}
	began := time.Now()
	resp, err := client.Post(url+openai.ChatPath, "application/json", bytes.NewReader(raw))
	if err != nil {
		return observed{err: err}
	}
	defer resp.Body.Close()
	o := observed{status: resp.StatusCode, header: resp.Header}
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		o.body, o.readErr = io.ReadAll(resp.Body)
		return o
	}
	br := bufio.NewReader(resp.Body)
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			if err != io.EOF || len(line) > 0 {
				o.readErr = err
			}
			return o
		}
		data, ok := bytes.CutPrefix(bytes.TrimRight(line, "\n"), []byte("data: "))
		switch {
		case !ok:
		case string(data) == "[DONE]":
			o.done = true
		default:
			o.events = append(o.events, data)
			o.at = append(o.at, time.Since(began))
		}
	}
}

// tokens counts the events that decode and carry a token, and those that
// do not decode.
func (o observed) tokens() (tokens, broken int) {
	for _, ev := range o.events {
		in, err := openai.Decode(ev)
		switch {
		case err != nil:
			broken++
		case in.Token():
			tokens++
		}
	}
	return tokens, broken
}

// isTimeout reports whether err is a timeout.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// faultCount returns surge:faults_injected_total for kind from /metrics,
// or -1 if there is no such series.
func faultCount(t *testing.T, ts *httptest.Server, kind string) float64 {
	t.Helper()
	prefix := `surge:faults_injected_total{kind="` + kind + `",model_name="test-model"} `
	for line := range strings.Lines(scrape(t, ts)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), prefix); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("metric line %q: %v", line, err)
			}
			return n
		}
	}
	return -1
}

// waitDrained waits until nothing runs or waits in the engine and no KV
// block is in use.
func waitDrained(t *testing.T, s *Server) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for st := s.Stats(); st.Running+st.Waiting > 0 || st.KVUsage > 0; st = s.Stats() {
		if time.Now().After(deadline) {
			t.Fatalf("engine not drained: %+v", st)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
