package memnet

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"
)

func TestListenerClose(t *testing.T) {
	l := Listen("engine")
	if got := l.Addr().String(); got != "engine" {
		t.Errorf("Addr %q, want engine", got)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); !errors.Is(err, net.ErrClosed) {
		t.Errorf("second Close: %v, want net.ErrClosed", err)
	}
	if _, err := l.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Errorf("Accept after Close: %v, want net.ErrClosed", err)
	}
	if _, err := l.DialContext(context.Background(), "tcp", "engine:80"); !errors.Is(err, net.ErrClosed) {
		t.Errorf("DialContext after Close: %v, want net.ErrClosed", err)
	}
}

func TestDialCancelled(t *testing.T) {
	l := Listen("engine")
	defer l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.DialContext(ctx, "tcp", "engine:80"); !errors.Is(err, context.Canceled) {
		t.Errorf("DialContext with no Accept and a cancelled context: %v, want context.Canceled", err)
	}
}

// TestHTTP serves HTTP on a Listener: a streamed response arrives in
// pieces as the handler flushes them, and a client that gives up cancels
// the handler's context, as a closed TCP connection does.
func TestHTTP(t *testing.T) {
	l := Listen("engine")
	cancelled := make(chan struct{})
	step := make(chan struct{})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := 0; ; i++ {
			fmt.Fprintf(w, "data: %d\n\n", i)
			w.(http.Flusher).Flush()
			select {
			case <-step:
			case <-r.Context().Done():
				close(cancelled)
				return
			}
		}
	})}
	go srv.Serve(l)
	defer srv.Close()
	hc := &http.Client{Transport: &http.Transport{DialContext: l.DialContext}}
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", "http://engine/v1/completions", nil)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(resp.Body)
	for i := range 3 {
		line, err := br.ReadString('\n')
		if want := fmt.Sprintf("data: %d\n", i); line != want || err != nil {
			t.Fatalf("event %d: %q, %v; want %q", i, line, err, want)
		}
		br.ReadString('\n')
		step <- struct{}{}
	}
	cancel()
	resp.Body.Close()
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler's context was not cancelled when the client went away")
	}
}
