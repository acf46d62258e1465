package server

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"surge/sim"
)

// restartClock tells the engine loop when a simulated restart is due. The
// loop owns it.
type restartClock struct {
	start time.Time
	todo  []Restart   // not yet done, by At ascending
	timer *time.Timer // fires at the next one; nil when none is left
}

func newRestartClock(start time.Time, rs []Restart) *restartClock {
	c := &restartClock{start: start, todo: slices.Clone(rs)}
	slices.SortFunc(c.todo, func(a, b Restart) int { return cmp.Compare(a.At, b.At) })
	if len(c.todo) > 0 {
		c.timer = time.NewTimer(time.Until(start.Add(c.todo[0].At)))
	}
	return c
}

// C fires when the next restart is due; it is nil, blocking forever in a
// select, when none is left.
func (c *restartClock) C() <-chan time.Time {
	if c.timer == nil {
		return nil
	}
	return c.timer.C
}

// due returns the restart due at offset now, if any, and moves on to the
// next one.
func (c *restartClock) due(now time.Duration) (Restart, bool) {
	if len(c.todo) == 0 || now < c.todo[0].At {
		return Restart{}, false
	}
	r := c.todo[0]
	c.todo = c.todo[1:]
	if len(c.todo) > 0 {
		c.timer.Reset(time.Until(c.start.Add(c.todo[0].At)))
	} else {
		c.timer.Stop()
		c.timer = nil
	}
	return r, true
}

// stop releases the timer.
func (c *restartClock) stop() {
	if c.timer != nil {
		c.timer.Stop()
	}
}

// restart simulates an engine restart, from the loop: every request
// submitted or in the engine fails with errRestart, so its handler closes
// its connection; the engine is replaced by an empty one (KV and prefix
// cache freed), whose counters continue from the old one's; and handlers
// waiting on the restart signal are woken. The gate refuses new requests
// for r.Down, by the clock.
//
// The restart is counted and logged first, before its signal fires and
// before any request fails or the new state is published, so whoever sees
// an effect of the restart (a cut stream, a drained engine) also finds it
// in /metrics and the log.
func (s *Server) restart(live map[uint64]*stream, r Restart) {
	s.mu.Lock()
	inbox := s.inbox
	s.inbox, s.aborts = nil, nil // the aborts name requests dropped below
	dropped := len(inbox)
	for id, st := range live {
		if id == st.id { // a request, not one of its other choices
			dropped++
		}
	}
	s.faults.record("restart", fmt.Sprintf("down=%v dropped=%d", r.Down, dropped))
	s.faults.count.WithLabelValues("restart_cut").Add(float64(dropped))
	close(s.restarted)
	s.restarted = make(chan struct{})
	s.mu.Unlock()
	for _, st := range inbox {
		st.fail(errRestart)
	}
	for id, st := range live {
		s.eng.Abort(id)
		st.fail(errRestart) // once per choice: the first ends it
		delete(live, id)
	}
	s.carried = addCounters(s.carried, s.eng.Stats())
	if eng, err := newEngine(s.cfg); err == nil { // it built once in New, so it builds again
		s.eng = eng
	}
	s.publish()
}

// addCounters returns cur with base's cumulative counters added, so the
// counters survive the engine being replaced.
func addCounters(base, cur sim.Stats) sim.Stats {
	cur.PrefixCacheQueries += base.PrefixCacheQueries
	cur.PrefixCacheHits += base.PrefixCacheHits
	cur.Preemptions += base.Preemptions
	cur.PromptTokens += base.PromptTokens
	cur.GenerationTokens += base.GenerationTokens
	cur.Finished += base.Finished
	cur.SpecDrafts += base.SpecDrafts
	cur.SpecDraftTokens += base.SpecDraftTokens
	cur.SpecAccepted += base.SpecAccepted
	for i := range cur.SpecAcceptedPerPos {
		cur.SpecAcceptedPerPos[i] += base.SpecAcceptedPerPos[i]
	}
	return cur
}

// restartSignal returns the channel the next restart closes: nil, which
// never fires, when no restart is configured.
func (s *Server) restartSignal() <-chan struct{} {
	if len(s.cfg.Faults.Restarts) == 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.restarted
}

// restartedBefore reports whether the restart signal st was admitted under
// has fired; the caller holds s.mu.
func restartedBefore(st *stream) bool {
	select {
	case <-st.restarted:
		return true
	default:
		return false
	}
}
