package client

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"surge/trace"
)

// streamTokens answers with n content chunks of pad bytes each, gap
// apart, a finish and [DONE].
func streamTokens(n, pad int, gap time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s := startSSE(w)
		s.send(roleChunk())
		for range n {
			s.send(contentChunk(strings.Repeat("x", pad)))
			time.Sleep(gap)
		}
		s.send(finishChunk("stop"))
		s.raw("data: [DONE]\n\n")
	}
}

// TestInjectedFaults checks the faults a request can carry on purpose.
func TestInjectedFaults(t *testing.T) {
	t.Parallel()
	t.Run("malformed body", func(t *testing.T) {
		t.Parallel()
		var valid bool
		c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			valid = json.Valid(b)
			http.Error(w, `{"error":{"message":"bad JSON"}}`, http.StatusBadRequest)
		})
		req := chatReq()
		req.Malformed = true
		res := c.Do(context.Background(), req)
		if valid || res.Status != 400 || res.ErrClass != trace.ErrHTTP {
			t.Errorf("server saw valid JSON %v; result %+v", valid, res)
		}
	})
	t.Run("a new connection per request", func(t *testing.T) {
		t.Parallel()
		var mu sync.Mutex
		addrs := map[string]bool{}
		c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			addrs[r.RemoteAddr] = true
			mu.Unlock()
			streamTokens(2, 1, 0)(w, r)
		})
		for range 4 {
			req := chatReq()
			req.NewConn = true
			checkOK(t, c.Do(context.Background(), req))
		}
		if len(addrs) != 4 {
			t.Errorf("4 requests came on %d connections, want 4", len(addrs))
		}
	})
	t.Run("cancel after tokens", func(t *testing.T) {
		t.Parallel()
		c, _ := serve(t, Config{}, streamTokens(50, 1, 0))
		req := chatReq()
		req.CancelAfterTokens = 7
		res := c.Do(context.Background(), req)
		if res.ErrClass != trace.ErrCancelled || res.Cause != CauseCancelled || res.Chunks != 7 || !strings.Contains(res.Err, "after 7 tokens") {
			t.Errorf("result %+v: want cancelled after 7 tokens", res)
		}
	})
	t.Run("slow reader", func(t *testing.T) {
		t.Parallel()
		// 40 chunks of about 1 kB at 20 kB/s: at least 1.5 s however
		// fast the machine (a lower bound: pacing only ever waits).
		c, _ := serve(t, Config{}, streamTokens(40, 1000, 0))
		req := chatReq()
		req.ReadRate = 20_000
		start := time.Now()
		res := c.Do(context.Background(), req)
		checkOK(t, res)
		if el := time.Since(start); el < 1500*time.Millisecond || res.Chunks != 40 {
			t.Errorf("read %d chunks in %v, want 40 in at least 1.5 s", res.Chunks, el)
		}
	})
	t.Run("stall after the first token", func(t *testing.T) {
		t.Parallel()
		// Tokens 10 ms apart come in reads of their own: the reads after
		// the first token's wait out the stall.
		c, _ := serve(t, Config{}, streamTokens(5, 1, 10*time.Millisecond))
		req := chatReq()
		req.Stall = 300 * time.Millisecond
		res := c.Do(context.Background(), req)
		checkOK(t, res)
		if gap := res.Last.Sub(res.FirstToken); gap < 300*time.Millisecond {
			t.Errorf("first token to last byte %v, want at least the 300 ms stall", gap)
		}
	})
	t.Run("a stall ends with its context", func(t *testing.T) {
		t.Parallel()
		c, _ := serve(t, Config{}, streamTokens(5, 1, 10*time.Millisecond))
		req := chatReq()
		req.Stall = time.Hour
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		res := c.Do(ctx, req)
		if res.ErrClass != trace.ErrTimeout && res.ErrClass != trace.ErrCancelled {
			t.Errorf("result %+v: want the stall cut short by the deadline", res)
		}
	})
}

// TestTLSVerification checks that a server's certificate is verified
// unless Insecure says otherwise.
func TestTLSVerification(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(streamTokens(2, 1, 0))
	defer srv.Close()
	for _, insecure := range []bool{false, true} {
		c, err := New(Config{BaseURL: srv.URL, Insecure: insecure})
		if err != nil {
			t.Fatal(err)
		}
		res := c.Do(context.Background(), chatReq())
		c.Close()
		if ok := res.ErrClass == ""; ok != insecure {
			t.Errorf("insecure %v: class %q (%s)", insecure, res.ErrClass, res.Err)
		}
	}
}
