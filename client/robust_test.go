package client

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// phase is the timeout every phase test uses: long enough that dialling
// and writing on a loaded machine never trip it, short enough to keep the
// test quick.
const phase = 300 * time.Millisecond

// TestCauses makes a server fail in each way the client names and checks
// the class, the cause, and that Err starts with the cause where it must.
func TestCauses(t *testing.T) {
	t.Parallel()
	hang := func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	tests := []struct {
		cfg    Config
		h      http.HandlerFunc // served by httptest
		raw    func(conn *net.TCPConn, br *bufio.Reader) bool
		class  string
		cause  string
		reason string
	}{
		{cfg: Config{FirstByteTimeout: phase}, h: hang,
			class: "timeout", cause: CauseFirstByteTimeout, reason: "server hangs before the headers"},
		{cfg: Config{IdleTimeout: phase}, h: func(w http.ResponseWriter, r *http.Request) {
			startSSE(w)
			<-r.Context().Done()
		}, class: "timeout", cause: CauseIdleTimeout, reason: "headers, then nothing: the idle phase starts at the headers"},
		{cfg: Config{IdleTimeout: phase, FirstByteTimeout: phase}, h: func(w http.ResponseWriter, r *http.Request) {
			s := startSSE(w)
			s.send(contentChunk("a"))
			<-r.Context().Done()
		}, class: "timeout", cause: CauseIdleTimeout, reason: "server hangs mid-stream; the first-byte phase is over"},
		{cfg: Config{Timeout: phase, IdleTimeout: time.Hour}, h: func(w http.ResponseWriter, r *http.Request) {
			s := startSSE(w)
			for {
				s.send(contentChunk("a"))
				select {
				case <-r.Context().Done():
					return
				case <-time.After(10 * time.Millisecond):
				}
			}
		}, class: "timeout", cause: CauseDeadline, reason: "a stream that never ends meets the overall deadline"},
		{raw: func(conn *net.TCPConn, br *bufio.Reader) bool {
			conn.SetLinger(0)
			return false
		}, class: "connection", cause: CauseReset, reason: "reset before any response byte"},
		{raw: func(conn *net.TCPConn, br *bufio.Reader) bool {
			io.WriteString(conn, sseHead+chunk("data: "+contentChunk("a")+"\n\n"))
			time.Sleep(10 * time.Millisecond)
			conn.SetLinger(0)
			return false
		}, class: "connection", cause: CauseReset, reason: "reset mid-stream"},
		{raw: func(conn *net.TCPConn, br *bufio.Reader) bool {
			io.WriteString(conn, sseHead+chunk("data: "+contentChunk("a")+"\n\n"))
			return false
		}, class: "connection", cause: CauseClosed, reason: "closed mid-stream: EOF inside the chunked body"},
		{raw: func(conn *net.TCPConn, br *bufio.Reader) bool { return false },
			class: "connection", cause: CauseClosed, reason: "closed before any response byte"},
		{h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
		}, class: "http", cause: CauseStatus, reason: "429 with Retry-After"},
		{h: func(w http.ResponseWriter, r *http.Request) { startSSE(w).send(`{"choices":[{"delta":{"content":"a"`) },
			class: "stream", cause: CauseMalformed, reason: "JSON cut inside an event"},
		{h: func(w http.ResponseWriter, r *http.Request) {
			startSSE(w).send(`{"error":{"message":"out of memory"}}`)
		},
			class: "stream", cause: CauseErrorEvent, reason: "server error event"},
		{h: func(w http.ResponseWriter, r *http.Request) { startSSE(w).send(contentChunk("a")) },
			class: "stream", cause: CauseTruncated, reason: "clean end without [DONE] or finish_reason"},
		{cfg: Config{MaxResponseBytes: 1 << 20}, h: endless,
			class: "too_large", cause: CauseTooLarge, reason: "a 100 MB stream is cut at the cap"},
		{cfg: Config{MaxResponseBytes: 1 << 20}, h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"choices":[{"text":"` + strings.Repeat("a", 2<<20) + `"}]}`))
		}, class: "too_large", cause: CauseTooLarge, reason: "a non-streamed body over the cap"},
		{h: func(w http.ResponseWriter, r *http.Request) {
			s := startSSE(w)
			s.send(`{"choices":"hello"}`)
			s.send(finishChunk("stop"))
			s.send("[DONE]")
		}, class: "stream", cause: CauseMalformed, reason: "choices as a string"},
		{h: func(w http.ResponseWriter, r *http.Request) {
			s := startSSE(w)
			s.send(`{"choices":[{"delta":{"content":42}}]}`)
			s.send(finishChunk("stop"))
			s.send("[DONE]")
		}, class: "stream", cause: CauseMalformed, reason: "content as a number"},
		{h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"choices":[{"message":{"content":42},"finish_reason":"stop"}]}`))
		}, class: "stream", cause: CauseMalformed, reason: "a non-streamed body with content as a number"},
		{h: endlessLine, class: "too_large", cause: CauseTooLarge, reason: "a line without an end is cut at the event cap"},
		{cfg: Config{MaxEventBytes: 64}, h: func(w http.ResponseWriter, r *http.Request) {
			s := startSSE(w)
			s.send(contentChunk(strings.Repeat("y", 100)))
			s.send("[DONE]")
		}, class: "too_large", cause: CauseTooLarge, reason: "an event over a smaller event cap"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			var c *Client
			if tt.raw != nil {
				cfg := tt.cfg
				cfg.BaseURL = rawServer(t, tt.raw)
				var err error
				if c, err = New(cfg); err != nil {
					t.Fatal(err)
				}
				defer c.Close()
			} else {
				c, _ = serve(t, tt.cfg, tt.h)
			}
			res := c.Do(context.Background(), chatReq())
			if res.ErrClass != tt.class || res.Cause != tt.cause {
				t.Fatalf("class %q cause %q (%s), want %q %q", res.ErrClass, res.Cause, res.Err, tt.class, tt.cause)
			}
			prefixed := tt.class == "timeout" || tt.class == "connection" || tt.class == "too_large"
			if prefixed != strings.HasPrefix(res.Err, tt.cause+": ") {
				t.Errorf("err %q: starts with the cause %q only for timeout, connection and too_large", res.Err, tt.cause)
			}
			if tt.cause == CauseStatus && res.RetryAfter != 2*time.Second {
				t.Errorf("RetryAfter %v, want 2s from the header", res.RetryAfter)
			}
		})
	}
}

// endlessLine streams one line that never ends, a chunk whose content
// goes on until 100 MB are written or the client goes away.
func endlessLine(w http.ResponseWriter, r *http.Request) {
	s := startSSE(w)
	io.WriteString(s.w, `data: {"choices":[{"delta":{"content":"`)
	block := strings.Repeat("x", 64<<10)
	for n := 0; n < 100<<20; n += len(block) {
		if _, err := io.WriteString(s.w, block); err != nil {
			return
		}
		s.f.Flush()
	}
}

// endless streams valid chunks of about 1 KB until 100 MB are written or
// the client goes away.
func endless(w http.ResponseWriter, r *http.Request) {
	s := startSSE(w)
	ev := "data: " + contentChunk(strings.Repeat("x", 900)) + "\n\n"
	block := strings.Repeat(ev, 64)
	for n := 0; n < 100<<20; n += len(block) {
		if _, err := io.WriteString(s.w, block); err != nil {
			return
		}
		s.f.Flush()
	}
}

// TestConnectTimeout makes dialling hang; the connect phase ends the
// request, and the refused case is named apart from it.
func TestConnectTimeout(t *testing.T) {
	t.Parallel()
	c, err := New(Config{BaseURL: "http://127.0.0.1:1", ConnectTimeout: phase})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if res := c.Do(context.Background(), chatReq()); res.ErrClass != "connection" || res.Cause != CauseRefused {
		t.Errorf("nothing listening: class %q cause %q (%s), want connection refused", res.ErrClass, res.Cause, res.Err)
	}
	gone := make(chan struct{})
	defer close(gone)
	c.pooled.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		select { // a black hole: the dial ends only when the test does
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-gone:
			return nil, net.ErrClosed
		}
	}
	res := c.Do(context.Background(), chatReq())
	if res.ErrClass != "timeout" || res.Cause != CauseConnectTimeout || !res.Sent.IsZero() {
		t.Errorf("dial hangs: class %q cause %q sent %v (%s), want a connect timeout, nothing sent", res.ErrClass, res.Cause, res.Sent, res.Err)
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		v      string
		want   time.Duration
		reason string
	}{
		{"", 0, "absent"},
		{"3", 3 * time.Second, "seconds"},
		{" 0 ", 0, "zero: retry at once"},
		{"-5", 0, "negative is no wait"},
		{"soon", 0, "malformed"},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, "HTTP date"},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0, "a date in the past"},
		{"99999999999999", maxRetryAfter, "absurd: capped at a day"},
	}
	for _, tt := range tests {
		if got := retryAfter(tt.v, now); got != tt.want {
			t.Errorf("%s: retryAfter(%q) = %v, want %v", tt.reason, tt.v, got, tt.want)
		}
	}
}
