package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// serveOn runs s.Serve on a loopback port until the test ends and returns
// its address.
func serveOn(t *testing.T, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		<-served
	})
	return ln.Addr().String()
}

// rawChat is a chat request as bytes on the wire: its head declares
// declared bytes of body and body is what follows it.
func rawChat(body string, declared int) string {
	return fmt.Sprintf("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", declared, body)
}

// TestShortBodyOnKeepAlive: a body shorter than its Content-Length is
// answered 408 once the body timeout passes and its connection is closed,
// on a connection's first request and on a keep-alive connection's later
// one alike. Before, the answer waited for the rest of the body without a
// deadline, so the connection was held forever.
func TestShortBodyOnKeepAlive(t *testing.T) {
	t.Parallel()
	s, err := New(Config{Model: testModel, Coster: &prefillCost{step: time.Millisecond},
		Engine: engineSmall(), BodyTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	addr := serveOn(t, s)
	whole := `{"model":"` + testModel + `","messages":[{"role":"user","content":"hi"}],"max_tokens":2}`
	for _, tc := range []struct {
		name  string
		first bool // send a whole request first, so the short one is the second on the connection
	}{
		{"first request", false},
		{"keep-alive", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			// Bounds the test, not the server: far beyond the body timeout.
			c.SetDeadline(time.Now().Add(30 * time.Second))
			br := bufio.NewReader(c)
			if tc.first {
				io.WriteString(c, rawChat(whole, len(whole)))
				resp, err := http.ReadResponse(br, nil)
				if err != nil {
					t.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("whole request: status %d", resp.StatusCode)
				}
			}
			io.WriteString(c, rawChat(whole[:10], len(whole)))
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatalf("short body: no answer: %v", err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestTimeout || !resp.Close {
				t.Errorf("short body: status %d, close %v; want 408 and the connection closed", resp.StatusCode, resp.Close)
			}
			if n, err := br.Read(make([]byte, 1)); err != io.EOF {
				t.Errorf("after the 408: read %d bytes, %v; want EOF", n, err)
			}
		})
	}
}
