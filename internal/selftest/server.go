package selftest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
)

// server is the in-process zero-delay streaming server.
type server struct {
	url  string
	http *http.Server
	done chan struct{} // closed when Serve has returned
}

// startServer listens on a loopback port and serves zeroHandler.
func startServer(tokens int) (*server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("starting the zero-delay server: %w", err)
	}
	s := &server{url: "http://" + ln.Addr().String(), http: &http.Server{Handler: zeroHandler(tokens)}, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		// Serve fails only with a broken listener; the client's requests
		// then fail, and Run with them.
		_ = s.http.Serve(ln)
	}()
	return s, nil
}

// Serve serves the self-test's zero-delay server on ln until ctx ends:
// the server Run starts in its own process when Options.Target is empty.
// tokens is the events per response (0: DefaultTokens).
func Serve(ctx context.Context, ln net.Listener, tokens int) error {
	if tokens <= 0 {
		tokens = DefaultTokens
	}
	hs := &http.Server{Handler: zeroHandler(tokens)}
	stop := context.AfterFunc(ctx, func() { hs.Close() })
	defer stop()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("zero-delay server: %w", err)
	}
	return nil
}

// zeroHandler answers every completions or chat request, whatever it
// asks, with tokens one-token events, a usage chunk and [DONE], all in
// one write.
func zeroHandler(tokens int) http.Handler {
	body := []byte(streamBody(tokens))
	mux := http.NewServeMux()
	h := func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	}
	mux.HandleFunc("/v1/completions", h)
	mux.HandleFunc("/v1/chat/completions", h)
	return mux
}

// close stops the server, dropping its connections, and waits for it.
func (s *server) close() {
	s.http.Close()
	<-s.done
}

// streamBody is a completions stream of n one-token events.
func streamBody(n int) string {
	var b strings.Builder
	for range n {
		b.WriteString("data: {\"choices\":[{\"index\":0,\"text\":\" tok\"}]}\n\n")
	}
	fmt.Fprintf(&b, "data: {\"choices\":[{\"index\":0,\"text\":\"\",\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":8,\"completion_tokens\":%d}}\n\ndata: [DONE]\n\n", n)
	return b.String()
}
