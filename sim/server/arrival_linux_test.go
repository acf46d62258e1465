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
)

// TestReceiveTimestamps checks that a connection accepted through
// stampReceives knows when its bytes reached the socket: after the
// client began writing them, and well before the server read them 50 ms
// later. A first exchange lets the kernel turn stamping on (it does so a
// moment after the listener asks).
func TestReceiveTimestamps(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln = stampReceives(ln)
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server := <-accepted
	if server == nil {
		t.Fatal("accept failed")
	}
	defer server.Close()
	rc, ok := server.(receiver)
	if !ok {
		t.Skipf("the kernel refused SO_TIMESTAMPNS: %T", server)
	}
	buf := make([]byte, 64)
	if _, err := client.Write([]byte("warm up")); err != nil {
		t.Fatal(err)
	}
	if _, err := server.Read(buf); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	before := time.Now().UnixNano()
	if _, err := client.Write([]byte("POST /v1/completions HTTP/1.1\r\n")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	readAt := time.Now().UnixNano()
	if n, err := server.Read(buf); n == 0 || err != nil {
		t.Fatalf("read %d, %v", n, err)
	}
	if at := rc.received(); at < before || at > readAt-25e6 {
		t.Errorf("receive time %d ns after the write began, %d ns before the read; want after the write and at least 25 ms before the read",
			at-before, readAt-at)
	}
	if n, err := server.Read(nil); n != 0 || err != nil {
		t.Errorf("empty read: %d, %v; want 0, nil", n, err)
	}
	client.Close()
	if n, err := server.Read(buf); n != 0 || err != io.EOF {
		t.Errorf("read after the client closed: %d, %v; want 0, io.EOF", n, err)
	}
}

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
		_, ok := c.(receiver)
		stamping <- ok
		return withConn(ctx, c)
	}}
	go hs.Serve(stampReceives(ln))
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
