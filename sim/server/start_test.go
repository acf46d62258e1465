package server

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServeShutdownWithUnusedConn: a connection that never sends a request
// (a transport's spare dial) does not hold Serve's shutdown until the
// grace runs out and turns a clean stop into an error.
func TestServeShutdownWithUnusedConn(t *testing.T) {
	s, err := New(Config{Model: testModel, Coster: &prefillCost{step: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	accepted := make(chan struct{}, 8)
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, signalAccepts{ln, accepted}) }()

	resp, err := http.Post("http://"+ln.Addr().String()+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"`+testModel+`","messages":[{"role":"user","content":"hi"}],"max_tokens":2}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	<-accepted
	spare, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer spare.Close()
	<-accepted
	cancel()
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

// signalAccepts is a listener that signals each connection it accepts.
type signalAccepts struct {
	net.Listener
	accepted chan<- struct{}
}

// Accept accepts the next connection and signals it.
func (l signalAccepts) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.accepted <- struct{}{}
	}
	return c, err
}
