package server

import (
	"io"
	"net"
	"testing"
	"time"
)

// TestReceiveTimestamps checks that a connection accepted through
// stampReceives knows when its bytes reached the socket: after the
// client began writing them, and well before the server read them 50 ms
// later; and that received clears it. A first exchange lets the kernel
// turn stamping on (it does so a moment after the listener asks).
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
	rc.received()
	before := time.Now().UnixNano()
	if _, err := client.Write([]byte("POST /v1/completions HTTP/1.1\r\n")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	readAt := time.Now().UnixNano()
	if _, err := server.Read(buf); err != nil {
		t.Fatal(err)
	}
	at := rc.received()
	if at < before || at > readAt-25e6 {
		t.Errorf("receive time %d ns after the write began, %d ns before the read; want after the write and at least 25 ms before the read",
			at-before, readAt-at)
	}
	if again := rc.received(); again != 0 {
		t.Errorf("received after received = %d, want 0", again)
	}
	client.Close()
	if n, err := server.Read(buf); n != 0 || err != io.EOF {
		t.Errorf("read after the client closed: %d, %v; want 0, io.EOF", n, err)
	}
}
