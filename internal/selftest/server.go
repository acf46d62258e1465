package selftest

import (
	"context"
	"fmt"
	"net"
	"net/http"

	"surge/internal/zeroserver"
)

// server is the in-process zero-delay streaming server.
type server struct {
	url  string
	http *http.Server
	done chan struct{} // closed when Serve has returned
}

// startServer listens on a loopback port and serves the zero-delay
// server's responses of tokens tokens.
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
	return zeroserver.Serve(ctx, ln, zeroserver.Config{Tokens: tokens})
}

// zeroHandler answers every completions or chat request, whatever it
// asks, with tokens one-token events, a last chunk and [DONE], all in one
// write.
func zeroHandler(tokens int) http.Handler {
	return zeroserver.Handler(zeroserver.Config{Tokens: tokens})
}

// close stops the server, dropping its connections, and waits for it.
func (s *server) close() {
	s.http.Close()
	<-s.done
}
