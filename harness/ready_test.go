package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// loading is a server that answers 503 to its first `loading` requests of
// /v1/models, as a server loading its model does, then lists model m and
// answers chat requests; it keeps the paths it was asked, in order.
type loading struct {
	mu      sync.Mutex
	loading int
	paths   []string
}

func (l *loading) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	l.paths = append(l.paths, r.URL.Path)
	busy := r.URL.Path == "/v1/models" && l.loading > 0
	if busy {
		l.loading--
	}
	l.mu.Unlock()
	switch {
	case busy:
		http.Error(w, `{"error":{"message":"Loading model"}}`, http.StatusServiceUnavailable)
	case r.URL.Path == "/v1/models":
		fmt.Fprint(w, `{"object":"list","data":[{"id":"m","object":"model"}]}`)
	default:
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\n"+
			"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1}}\n\n"+
			"data: [DONE]\n\n")
	}
}

// asked is how many times the server was asked path.
func (l *loading) asked(path string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(strings.Join(l.paths, " ")+" ", path+" ")
}

// TestReadyCheck: with a ready-check timeout the run asks the server for
// its models until it stops answering 503, then goes on; a server that
// never gets ready is waited for until the timeout, and the run goes on
// to the preflight all the same; without a timeout nothing is waited for.
func TestReadyCheck(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		loading  int
		timeout  time.Duration
		asked    func(int) bool // the /v1/models requests of the wait
		log      string
		canceled bool
	}{
		{"ready after 3 refusals", 3, time.Minute, func(n int) bool { return n == 4 }, "is ready (after 4 attempts", false},
		{"ready at once", 0, time.Minute, func(n int) bool { return n == 1 }, "", false},
		{"never ready", 1 << 30, 300 * time.Millisecond, func(n int) bool { return n >= 1 }, "still not ready after", false},
		{"no timeout", 1 << 30, 0, func(n int) bool { return n == 0 }, "", false},
		{"interrupted", 1 << 30, time.Minute, func(int) bool { return true }, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := &loading{loading: c.loading}
			hs := httptest.NewServer(srv)
			defer hs.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.canceled {
				cancel()
			}
			var log bytes.Buffer
			err := waitReady(ctx, &Config{ReadyCheckTimeout: c.timeout, Log: &log}, &Servers{base: hs.URL})
			if c.canceled != errors.Is(err, ErrInterrupted) {
				t.Fatalf("waitReady: %v", err)
			}
			if n := srv.asked("/v1/models"); !c.asked(n) {
				t.Errorf("the server was asked for its models %d times", n)
			}
			if !strings.Contains(log.String(), c.log) {
				t.Errorf("log %q, want it to say %q", log.String(), c.log)
			}
		})
	}
}

// TestRunWaitsForReady: Run waits for a loading server before its
// preflight and schedule, then sends the workload.
func TestRunWaitsForReady(t *testing.T) {
	t.Parallel()
	srv := &loading{loading: 2}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	res, err := Run(context.Background(), Config{Workload: failing(t, 2), Dir: filepath.Join(t.TempDir(), "run"), Target: hs.URL, Scrape: Scrape{Off: true}, ReadyCheckTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	srv.mu.Lock()
	paths := strings.Join(srv.paths, " ")
	srv.mu.Unlock()
	// Two refusals and the answer, then the preflight's own requests.
	if !strings.HasPrefix(paths, "/v1/models /v1/models /v1/models ") || res.Summary.All.Sent != 2 {
		t.Errorf("the server was asked %s; sent %d; want three /v1/models first, then the run's 2 requests", paths, res.Summary.All.Sent)
	}
}
