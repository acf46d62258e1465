package harness

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"
)

// The ready check's backoff: the first retry after readyFirst, each next
// one twice as late, at most readyMax apart.
const (
	readyFirst = 100 * time.Millisecond
	readyMax   = 5 * time.Second
)

// waitReady waits, up to cfg.ReadyCheckTimeout (0: not at all), until
// every server of to answers GET /v1/models with anything but a server
// error (a server still loading its model refuses connections, or
// answers 503), asking each again with backoff. It then lets the run go
// on, ready or not, saying on cfg.Log what it waited for: the preflight
// says what is still wrong. A cancelled ctx ends it with ErrInterrupted.
func waitReady(ctx context.Context, cfg *Config, to *Servers) error {
	if cfg.ReadyCheckTimeout <= 0 {
		return nil
	}
	wait, cancel := context.WithTimeout(ctx, cfg.ReadyCheckTimeout)
	defer cancel()
	for _, u := range to.urls() {
		hc, err := sideClient(cfg.Client, u, probeTimeout)
		if err != nil {
			continue // the preflight says what is wrong
		}
		waitServer(wait, cfg.Log, hc, u, cfg.ReadyCheckTimeout)
		hc.CloseIdleConnections()
		if ctx.Err() != nil {
			return ErrInterrupted
		}
	}
	return nil
}

// waitServer asks the server at base whether it answers until it does or
// ctx ends, and says on log what it waited for.
func waitServer(ctx context.Context, log io.Writer, hc *http.Client, base string, timeout time.Duration) {
	start, backoff := time.Now(), readyFirst
	for attempt := 1; ; attempt++ {
		why := notReady(ctx, hc, withoutUser(base))
		switch {
		case why == "" && attempt > 1:
			fmt.Fprintf(log, "surge: %s is ready (after %d attempts, %v)\n", Redact(base), attempt, time.Since(start).Round(time.Millisecond))
			return
		case why == "":
			return
		case attempt == 1:
			fmt.Fprintf(log, "surge: %s is not ready (%s): waiting up to %v for it (--ready-check-timeout)\n", Redact(base), why, timeout)
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			fmt.Fprintf(log, "surge: %s is still not ready after %d attempts (%s); going on\n", Redact(base), attempt, why)
			return
		case <-t.C:
		}
		backoff = min(2*backoff, readyMax)
	}
}

// notReady asks the server at base for its models and says why it is not
// ready ("" when it answered with anything but a server error).
func notReady(ctx context.Context, hc *http.Client, base string) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/v1/models", nil)
	if err != nil {
		return err.Error()
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err.Error()
	}
	resp.Body.Close()
	if resp.StatusCode >= http.StatusInternalServerError {
		return resp.Status
	}
	return ""
}

// urls are the base URLs of every server of s, sorted.
func (s *Servers) urls() []string {
	set := map[string]bool{}
	if s.base != "" {
		set[s.base] = true
	}
	for _, u := range s.routes {
		set[u] = true
	}
	return slices.Sorted(maps.Keys(set))
}
