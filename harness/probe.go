package harness

import (
	"context"
	"time"

	"surge/bundle"
	"surge/client"
)

// probeTimeout bounds the target's /v1/models probe; probeHead is how
// long the first send waits for it. A probe that takes longer goes on
// beside the run, which then starts without it: a target that accepts
// and never answers delays the run by probeHead at most.
const (
	probeTimeout = 5 * time.Second
	probeHead    = time.Second
)

// startProbe asks the run's main server what it is (GET /v1/models) for
// the manifest, through a side client with cc's options, and waits for
// the answer up to probeHead, or until startAt when that is sooner (a
// shard's common start), so that normally the probe is over before the
// load begins. The returned function gives the answer, waiting for it if
// need be (up to probeTimeout from the start), with every credential of
// the run taken out of it.
func startProbe(ctx context.Context, cc client.Config, to *Servers, startAt time.Time) func() *bundle.Server {
	base := to.mainServer()
	hc, err := sideClient(cc, base, probeTimeout)
	if err != nil {
		s := &bundle.Server{Error: to.Redact(err.Error())}
		return func() *bundle.Server { return s }
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	done := make(chan *bundle.Server, 1)
	go func() {
		s := bundle.Probe(ctx, hc, withoutUser(base))
		hc.CloseIdleConnections()
		s.Redact(to.Redact)
		done <- s
	}()
	wait := probeHead
	if !startAt.IsZero() {
		wait = max(0, min(wait, time.Until(startAt)))
	}
	head := time.NewTimer(wait)
	defer head.Stop()
	var s *bundle.Server
	select {
	case s = <-done:
	case <-head.C:
	}
	return func() *bundle.Server {
		if s == nil {
			s = <-done
		}
		cancel()
		return s
	}
}
