package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	"surge/sim"
)

// errShutdown ends requests still in flight when the loop stops.
var errShutdown = &apiError{status: http.StatusServiceUnavailable, typ: "ServiceUnavailableError",
	msg: "the server is shutting down"}

// Run runs the engine loop until ctx ends, then fails every request still
// in flight with 503. It must be called once; Serve and Start call it.
func (s *Server) Run(ctx context.Context) error {
	s.mu.Lock()
	if s.running {
		s.mu.Unlock()
		return errors.New("server: Run called twice")
	}
	s.running = true
	s.mu.Unlock()
	live := make(map[uint64]*stream)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer s.stop(live)
	restarts := newRestartClock(s.start, s.cfg.Faults.Restarts)
	defer restarts.stop()
	for {
		if r, ok := restarts.due(time.Since(s.start)); ok {
			s.restart(live, r)
		}
		s.takeInbox(live)
		if s.eng.Idle() {
			select {
			case <-ctx.Done():
				return nil
			case <-s.wake:
				continue
			case <-restarts.C():
				continue
			}
		}
		now := time.Since(s.start)
		res := s.eng.Step(now)
		// Sleep until the step's end, start+now+Duration, on one reused timer.
		timer.Reset(time.Until(s.start.Add(now + res.Duration)))
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil
		case <-restarts.C():
			// The restart drops this step's requests with the engine.
			timer.Stop()
			continue
		case <-timer.C:
		}
		s.deliver(live, res.Events, time.Now())
		s.publish()
	}
}

// submit hands st to the loop; it reports false once the loop has stopped.
func (s *Server) submit(st *stream) bool {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return false
	}
	if restartedBefore(st) {
		s.mu.Unlock()
		s.faults.count.WithLabelValues("restart_cut").Inc()
		st.fail(errRestart)
		return true
	}
	s.inbox = append(s.inbox, st)
	s.mu.Unlock()
	s.poke()
	return true
}

// abort asks the loop to drop request id, whose client went away.
func (s *Server) abort(id uint64) {
	s.mu.Lock()
	s.aborts = append(s.aborts, id)
	s.mu.Unlock()
	s.poke()
}

// poke wakes the loop if it is waiting for work, without blocking.
func (s *Server) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// takeInbox adds submitted requests to the engine and applies aborts.
func (s *Server) takeInbox(live map[uint64]*stream) {
	s.mu.Lock()
	inbox, aborts := s.inbox, s.aborts
	s.inbox, s.aborts = nil, nil
	s.mu.Unlock()
	for _, st := range inbox {
		r := &sim.Request{ID: st.id, Arrival: st.arrival.Sub(s.start), PromptLen: st.job.promptLen,
			BlockHashes: st.job.hashes, OutputLen: st.job.outputLen}
		if err := s.eng.Add(r); err != nil {
			st.fail(badRequest(err.Error()))
			continue
		}
		live[st.id] = st
	}
	for _, id := range aborts {
		if live[id] != nil {
			s.eng.Abort(id)
			delete(live, id)
			s.metrics.success.WithLabelValues("abort").Inc()
		}
	}
	if len(inbox)+len(aborts) > 0 {
		s.publish()
	}
}

// deliver applies one step's events, delivered at t, to their streams.
func (s *Server) deliver(live map[uint64]*stream, events []sim.Event, t time.Time) {
	for _, ev := range events {
		st := live[ev.ID]
		if st == nil {
			continue
		}
		switch ev.Kind {
		case sim.EventScheduled:
			st.update(func(p *progress) { p.queued, p.cached = ev.Queued, ev.CachedTokens })
		case sim.EventFirstToken:
			s.metrics.ttft.Observe(t.Sub(st.arrival).Seconds())
			st.update(func(p *progress) { p.tokens, p.cached, p.first, p.last = ev.Tokens, ev.CachedTokens, t, t })
		case sim.EventToken:
			st.update(func(p *progress) {
				s.metrics.itl.Observe(t.Sub(p.last).Seconds())
				p.tokens, p.last = ev.Tokens, t
			})
		case sim.EventFinished:
			s.metrics.e2e.Observe(t.Sub(st.arrival).Seconds())
			s.metrics.success.WithLabelValues(finishReason(st.job)).Inc()
			st.update(func(p *progress) { p.done = true })
			delete(live, ev.ID)
		}
	}
}

// publish copies the engine's stats for /metrics and Stats.
func (s *Server) publish() {
	st := addCounters(s.carried, s.eng.Stats())
	s.mu.Lock()
	s.stats = st
	s.mu.Unlock()
}

// stop marks the loop stopped and fails every request in flight.
func (s *Server) stop(live map[uint64]*stream) {
	s.mu.Lock()
	s.stopped = true
	inbox := s.inbox
	s.inbox = nil
	s.mu.Unlock()
	for _, st := range inbox {
		st.fail(errShutdown)
	}
	for _, st := range live {
		st.fail(errShutdown)
	}
}
