package client

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func TestHTTPErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status int
		body   string
		want   string
		reason string
	}{
		{400, `{"error":{"message":"max_tokens must be at least 1","type":"BadRequestError","code":400}}`,
			"HTTP 400: max_tokens must be at least 1", "vLLM JSON error"},
		{400, `{"object":"error","message":"The model does not exist.","type":"NotFoundError","param":null,"code":404}`,
			"HTTP 400: The model does not exist.", "older vLLM error object"},
		{503, "Service Unavailable\n", "HTTP 503: Service Unavailable", "plain text"},
		{429, "", "HTTP 429", "empty body"},
		{500, strings.Repeat("x", 100_000), "HTTP 500: xxx", "long body is cut"},
		{302, "", "HTTP 302", "redirects are not followed"},
	}
	for _, tt := range tests {
		c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
			if tt.status == 302 {
				w.Header().Set("Location", "/elsewhere")
			}
			w.WriteHeader(tt.status)
			io.WriteString(w, tt.body)
		})
		res := c.Do(context.Background(), chatReq())
		if res.ErrClass != "http" || res.Status != tt.status || !strings.HasPrefix(res.Err, tt.want) || len(res.Err) > 300 {
			t.Errorf("%s: class %q status %d err %.80q, want http %d %q", tt.reason, res.ErrClass, res.Status, res.Err, tt.status, tt.want)
		}
	}
}

func TestUnknownAPI(t *testing.T) {
	t.Parallel()
	c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) { t.Error("request sent") })
	res := c.Do(context.Background(), &Request{API: "classify"})
	if res.ErrClass != "http" || res.Status != 0 || !contains(res.Err, "unknown api") {
		t.Errorf("got %q %d %q", res.ErrClass, res.Status, res.Err)
	}
}

// TestTimeouts lets each kind of deadline pass while the server hangs. The
// deadline must outlast dialling, sending and reading the first token, which
// a loaded machine can stretch well past 100 ms, so it is 1 s, and the rows
// run in parallel to keep the test near 1 s.
func TestTimeouts(t *testing.T) {
	t.Parallel()
	const deadline = time.Second
	tests := []struct {
		stage  string
		cfg    Config
		ctxTO  time.Duration
		reason string
	}{
		{"headers", Config{Timeout: deadline}, 0, "server hangs before answering"},
		{"stream", Config{Timeout: deadline}, 0, "server hangs mid-stream"},
		{"body", Config{Timeout: deadline}, 0, "server hangs mid-body of a non-streamed response"},
		{"stream", Config{}, deadline, "ctx deadline mid-stream"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			c, _ := serve(t, tt.cfg, func(w http.ResponseWriter, r *http.Request) {
				switch tt.stage {
				case "stream":
					startSSE(w).send(contentChunk("a"))
				case "body":
					w.Header().Set("Content-Type", "application/json")
					io.WriteString(w, `{"choices":[`)
					w.(http.Flusher).Flush()
				}
				<-r.Context().Done()
			})
			ctx := context.Background()
			if tt.ctxTO > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.ctxTO)
				defer cancel()
			}
			res := c.Do(ctx, chatReq())
			if res.ErrClass != "timeout" || res.Sent.IsZero() {
				t.Errorf("%s: class %q err %q sent %v, want timeout", tt.reason, res.ErrClass, res.Err, res.Sent)
			}
			if tt.stage == "stream" && (res.Chunks != 1 || res.FirstToken.IsZero()) {
				t.Errorf("%s: the token before the hang was lost", tt.reason)
			}
		})
	}
}

// TestCancelled cancels a stream once the client has read its first token,
// and then sends with the cancelled context. The cancel is not timed: it is
// made by the client's connection, in the first Read after the one that
// delivered the first event (see cancelAfter), so the event has been
// counted however slowly the machine runs.
func TestCancelled(t *testing.T) {
	t.Parallel()
	c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
		s := startSSE(w)
		for {
			s.send(contentChunk("a"))
			select {
			case <-r.Context().Done():
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dial := c.pooled.DialContext
	c.pooled.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &cancelAfter{Conn: conn, mark: []byte(contentChunk("a") + "\n\n"), cancel: cancel}, nil
	}
	res := c.Do(ctx, chatReq())
	if res.ErrClass != "cancelled" || res.Chunks == 0 {
		t.Errorf("cancel mid-stream: class %q err %q chunks %d", res.ErrClass, res.Err, res.Chunks)
	}
	res = c.Do(ctx, chatReq())
	if res.ErrClass != "cancelled" || !res.Sent.IsZero() {
		t.Errorf("cancelled before sending: class %q err %q sent %v", res.ErrClass, res.Err, res.Sent)
	}
}

// cancelAfter is a client connection that calls cancel when it is asked
// for more bytes after it has delivered mark. net/http asks for more only
// when everything delivered has been passed up (its bufio.Reader refills
// only when empty, and its chunked reader returns the data it has before
// reading the next chunk's header), and the client parses all it is given
// before reading again, so by then the event in mark has been counted.
type cancelAfter struct {
	net.Conn
	mark   []byte
	cancel context.CancelFunc

	mu  sync.Mutex // guards got
	got []byte     // bytes delivered, until mark is among them
}

// Read implements net.Conn.
func (c *cancelAfter) Read(p []byte) (int, error) {
	c.mu.Lock()
	seen := bytes.Contains(c.got, c.mark)
	c.mu.Unlock()
	if seen {
		c.cancel()
	}
	n, err := c.Conn.Read(p)
	if !seen {
		c.mu.Lock()
		c.got = append(c.got, p[:n]...)
		c.mu.Unlock()
	}
	return n, err
}

// rawServer accepts connections and hands each to h with the request
// already read, for misbehaviour net/http will not produce; h reports
// whether to serve another request on the connection.
func rawServer(t *testing.T, h func(conn *net.TCPConn, br *bufio.Reader) bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				br := bufio.NewReader(conn)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					io.Copy(io.Discard, req.Body)
					if !h(conn.(*net.TCPConn), br) {
						return
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

const sseHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5, max=100\r\n\r\n"

// chunk frames s as one HTTP/1.1 chunk.
func chunk(s string) string { return fmt.Sprintf("%x\r\n%s\r\n", len(s), s) }

func TestConnectionErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		end    func(conn *net.TCPConn)
		reason string
	}{
		{func(conn *net.TCPConn) { conn.SetLinger(0) }, "reset mid-stream"},
		{func(conn *net.TCPConn) {}, "closed mid-stream (EOF inside the chunked body)"},
	}
	for _, tt := range tests {
		url := rawServer(t, func(conn *net.TCPConn, br *bufio.Reader) bool {
			io.WriteString(conn, sseHead+chunk("data: "+contentChunk("a")+"\n\n"))
			time.Sleep(10 * time.Millisecond)
			tt.end(conn)
			return false
		})
		c, err := New(Config{BaseURL: url})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		res := c.Do(context.Background(), chatReq())
		if res.ErrClass != "connection" || res.Status != 200 || res.Chunks != 1 {
			t.Errorf("%s: class %q status %d chunks %d err %q", tt.reason, res.ErrClass, res.Status, res.Chunks, res.Err)
		}
	}
	// Nothing listening.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	c, err := New(Config{BaseURL: "http://" + addr})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if res := c.Do(context.Background(), chatReq()); res.ErrClass != "connection" || !res.Sent.IsZero() {
		t.Errorf("refused: class %q err %q", res.ErrClass, res.Err)
	}
}

func TestAPIKeyNeverInErrors(t *testing.T) {
	t.Parallel()
	const key = "sk-test-4f7a9c2e1b"
	var got string
	c, _ := serve(t, Config{APIKey: key}, func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Get("Authorization")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s","type":"invalid_request_error"}}`, key)
	})
	res := c.Do(context.Background(), chatReq())
	if got != "Bearer "+key {
		t.Errorf("server saw Authorization %q", got)
	}
	if res.ErrClass != "http" || contains(res.Err, key) || !contains(res.Err, "[redacted]") {
		t.Errorf("echoed key not redacted: %q", res.Err)
	}
	// A stream error echoing the key, and a connection error.
	c2, _ := serve(t, Config{APIKey: key}, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w).send(`{"error":{"message":"bad key ` + key + `"}}`)
	})
	if res := c2.Do(context.Background(), chatReq()); res.ErrClass != "stream" || contains(res.Err, key) {
		t.Errorf("stream error: %q %q", res.ErrClass, res.Err)
	}
	c3, err := New(Config{BaseURL: "http://127.0.0.1:1", APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	if res := c3.Do(context.Background(), chatReq()); res.ErrClass != "connection" || contains(res.Err, key) {
		t.Errorf("connection error: %q %q", res.ErrClass, res.Err)
	}
	if _, err := New(Config{BaseURL: "http://user:" + key + "@h%zz/", APIKey: key}); err == nil || contains(err.Error(), key) {
		t.Errorf("New error %v must exist and hide the URL's password", err)
	}
}
