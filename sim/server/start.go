package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"surge/internal/recvtime"
)

// shutdownGrace bounds how long Serve waits for responses in flight.
const shutdownGrace = 5 * time.Second

// Limits on slow or greedy clients. There is no whole-request read
// timeout or write timeout: either would cut long streams. Instead a
// request's headers must arrive within headerTimeout and its body within
// Config.BodyTimeout (see readBody); an idle keep-alive connection closes after
// idleTimeout; headers are capped at maxHeaderBytes, which also bounds
// their count.
const (
	headerTimeout  = 10 * time.Second
	idleTimeout    = 2 * time.Minute
	maxHeaderBytes = 64 << 10
)

// Serve runs the engine loop and serves HTTP on ln until ctx ends, then
// shuts down gracefully: the listener closes, requests in flight end (with
// 503 once the loop stops), and Serve returns after at most a few seconds.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	loopCtx, stopLoop := context.WithCancel(context.Background())
	loopDone := make(chan error, 1)
	go func() { loopDone <- s.Run(loopCtx) }()
	var fresh unused
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: headerTimeout,
		IdleTimeout: idleTimeout, MaxHeaderBytes: maxHeaderBytes, ConnContext: withConn,
		ConnState: fresh.track}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(recvtime.Listen(ln)) }()
	var err error
	select {
	case err = <-served:
	case <-ctx.Done():
	}
	// Stop the loop first so streams in flight end, close connections
	// that never sent a request, then let Shutdown wait for the handlers.
	stopLoop()
	loopErr := <-loopDone
	fresh.close()
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if serr := hs.Shutdown(sctx); serr != nil {
		hs.Close()
		err = errors.Join(err, serr)
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	if err = errors.Join(err, loopErr); err != nil {
		return fmt.Errorf("serving: %w", err)
	}
	return nil
}

// Start builds a server from cfg and serves it on an ephemeral loopback
// port until ctx ends or stop is called. It returns the base URL, e.g.
// "http://127.0.0.1:43121" (append /v1/chat/completions), and stop, which
// shuts the server down and waits for it; stop may be called more than once.
func Start(ctx context.Context, cfg Config) (baseURL string, stop func(), err error) {
	s, err := New(cfg)
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("starting sim server: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Serve(ctx, ln)
	}()
	stop = func() {
		cancel()
		<-done
	}
	return "http://" + ln.Addr().String(), stop, nil
}
