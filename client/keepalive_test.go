package client

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"testing"
)

// closingServer answers one request per connection, advertising keep-alive
// as llama-server does, then closes the connection: at once, or only when
// the next request has arrived on it (so that every reuse fails).
func closingServer(t *testing.T, waitForNext bool) string {
	body := "data: " + contentChunk("a") + "\n\ndata: " + finishChunk("stop") + "\n\ndata: [DONE]\n\n"
	return rawServer(t, func(conn *net.TCPConn, br *bufio.Reader) bool {
		io.WriteString(conn, sseHead+chunk(body)+"0\r\n\r\n")
		if waitForNext {
			br.Peek(1)
		}
		return false
	})
}

func TestServerClosingAfterEachResponse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		waitForNext bool
		n           int
		reason      string
	}{
		{true, 20, "every reused connection is dead: each is retried once on a fresh one"},
		{false, 200, "the server closes at once, racing the next request"},
	}
	for _, tt := range tests {
		url := closingServer(t, tt.waitForNext)
		c, err := New(Config{BaseURL: url, MaxConns: 4})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		resends := 0
		for i := range tt.n {
			res := c.Do(context.Background(), chatReq())
			if res.ErrClass != "" || res.Chunks != 1 || res.Resends > 1 {
				t.Fatalf("%s: request %d: class %q err %q chunks %d resends %d", tt.reason, i, res.ErrClass, res.Err, res.Chunks, res.Resends)
			}
			resends += res.Resends
		}
		// At most every other request reuses a dead connection: a re-send's
		// fresh connection goes back to the pool, and the next request
		// dies on it. Exactly n/2 only if net/http hands every connection
		// back to the idle pool before the next request asks; when it is
		// slower the next request dials anew and needs no re-send, so only
		// the range is the client's doing.
		if tt.waitForNext && (resends < 1 || resends > tt.n/2) {
			t.Errorf("%s: %d resends in %d requests, want 1 to %d (at most every other request reuses a dead connection)", tt.reason, resends, tt.n, tt.n/2)
		}
	}
}

// TestPlainTransportFailsOnClosingServer shows the failure the retry
// prevents: net/http alone does not re-send a POST whose reused connection
// was closed, so this test server does exercise it.
func TestPlainTransportFailsOnClosingServer(t *testing.T) {
	t.Parallel()
	url := closingServer(t, true)
	hc := &http.Client{Transport: &http.Transport{}}
	defer hc.CloseIdleConnections()
	failed := 0
	for range 4 {
		resp, err := hc.Post(url+"/v1/chat/completions", "application/json", bytes.NewReader([]byte(`{}`)))
		if err != nil {
			failed++
			continue
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	if failed == 0 {
		t.Error("plain net/http never failed: the closing server does not reproduce the problem")
	}
}
