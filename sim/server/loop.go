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
		// Publish first, so that a client that has its tokens finds the
		// engine's counters counting them.
		s.publish()
		s.deliver(live, res.Events, time.Now())
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
		if err := s.eng.Add(s.engineRequest(st, st.id)); err != nil {
			st.fail(badRequest(err.Error()))
			continue
		}
		live[st.id] = st
	}
	for _, id := range aborts {
		if st := live[id]; st != nil {
			for _, k := range append(st.kids, id) {
				s.eng.Abort(k)
				delete(live, k)
			}
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
		if c := st.choice(ev.ID); c > 0 {
			s.deliverChoice(live, st, c, ev, t)
			continue
		}
		switch ev.Kind {
		case sim.EventScheduled:
			st.update(func(p *progress) { p.queued, p.cached = ev.Queued, ev.CachedTokens })
		case sim.EventFirstToken:
			s.metrics.ttft.Observe(t.Sub(st.arrival).Seconds())
			st.update(func(p *progress) { p.tokens, p.cached, p.first, p.last = ev.Tokens, ev.CachedTokens, t, t })
			s.addChoices(live, st)
		case sim.EventToken:
			st.update(func(p *progress) {
				s.metrics.itl.Observe(t.Sub(p.last).Seconds())
				p.tokens, p.last = ev.Tokens, t
			})
		case sim.EventFinished:
			s.finishChoice(live, st, ev.ID, t)
		}
	}
}

// engineRequest is the engine's request for one choice of st, id.
func (s *Server) engineRequest(st *stream, id uint64) *sim.Request {
	return &sim.Request{ID: id, Arrival: st.arrival.Sub(s.start), PromptLen: st.job.promptLen,
		BlockHashes: st.job.hashes, OutputLen: st.job.outputLen, Copy: st.job.copy}
}

// addChoices adds choices 1 to n−1 of st to the engine once choice 0 has
// its first token: its prompt is then computed and, with prefix caching
// on, cached, so they share its prefill and compute only the prompt's
// last partial block (vLLM forks n sequences off one prompt). Each is
// a sequence of its own in the engine's batch and KV cache.
func (s *Server) addChoices(live map[uint64]*stream, st *stream) {
	for c := 1; c < st.job.choices && len(st.kids) < c; c++ {
		id := s.newID()
		if err := s.eng.Add(s.engineRequest(st, id)); err != nil {
			st.fail(badRequest(err.Error()))
			return
		}
		st.kids = append(st.kids, id)
		live[id] = st
	}
}

// deliverChoice applies an event of choice c > 0 of st.
func (s *Server) deliverChoice(live map[uint64]*stream, st *stream, c int, ev sim.Event, t time.Time) {
	switch ev.Kind {
	case sim.EventFirstToken, sim.EventToken:
		st.update(func(p *progress) { p.more[c-1], p.last = ev.Tokens, t })
	case sim.EventFinished:
		s.finishChoice(live, st, ev.ID, t)
	}
}

// finishChoice ends the choice whose engine request is id; the request
// is done when all its choices are. Until then choice 0 stays live under
// the request's id, which an abort names, so that its other choices are
// aborted with it.
func (s *Server) finishChoice(live map[uint64]*stream, st *stream, id uint64, t time.Time) {
	if id != st.id {
		delete(live, id)
	}
	if st.finished++; st.finished < st.job.choices {
		return
	}
	delete(live, st.id)
	s.metrics.e2e.Observe(t.Sub(st.arrival).Seconds())
	s.metrics.success.WithLabelValues(finishReason(st.job)).Inc()
	st.update(func(p *progress) { p.done = true })
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
