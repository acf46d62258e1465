package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"surge/internal/recvtime"
)

// TestArrivalOnTheWire serves HTTP as Serve does and sends requests on
// one kept-alive connection. A request written while the server is busy
// with the one before arrives when it was written, not when the server
// gets to it; and a request after one whose body its handler never read
// (net/http discards it afterwards) arrives when it was written, not when
// that body was.
func TestArrivalOnTheWire(t *testing.T) {
	var mu sync.Mutex
	waits := map[string]time.Duration{} // path → handler start − arrival
	h := stampArrival(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		mu.Lock()
		waits[r.URL.Path] = start.Sub(arrivedAt(r))
		mu.Unlock()
		switch r.URL.Path {
		case "/slow":
			time.Sleep(100 * time.Millisecond)
		case "/refuse":
			w.WriteHeader(http.StatusServiceUnavailable) // body left unread
		}
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stamping := make(chan bool, 1)
	hs := &http.Server{Handler: h, ConnContext: func(ctx context.Context, c net.Conn) context.Context {
		ok := recvtime.Of(c) != nil
		stamping <- ok
		return withConn(ctx, c)
	}}
	go hs.Serve(recvtime.Listen(ln))
	defer hs.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	exchange := func(raw string, n int) {
		t.Helper()
		if _, err := io.WriteString(c, raw); err != nil {
			t.Fatal(err)
		}
		for range n {
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	get := func(path string) string { return fmt.Sprintf("GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path) }
	exchange(get("/warm"), 1) // lets the kernel turn stamping on
	time.Sleep(10 * time.Millisecond)
	// Pipelined: /late is in the socket while /slow's handler sleeps.
	exchange(get("/slow")+get("/late"), 2)
	body := strings.Repeat("x", 100<<10)
	exchange(fmt.Sprintf("POST /refuse HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s", len(body), body), 1)
	time.Sleep(200 * time.Millisecond)
	exchange(get("/after"), 1)
	if !<-stamping {
		t.Skip("the kernel refused SO_TIMESTAMPNS")
	}
	mu.Lock()
	defer mu.Unlock()
	if w := waits["/late"]; w < 80*time.Millisecond {
		t.Errorf("/late, written with /slow, waited %v from arrival to its handler; want about /slow's 100 ms", w)
	}
	if w := waits["/after"]; w > 100*time.Millisecond {
		t.Errorf("/after waited %v from arrival to its handler; want far less than the 200 ms since /refuse's unread body", w)
	}
}
