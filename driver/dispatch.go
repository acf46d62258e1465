package driver

import (
	"sync"
	"time"

	"surge/trace"
)

// dispatch launches each open-loop session at its absolute instant
// start + AtUS, waiting on one reused timer backed by an alarm (see
// waitUntil). It never waits "an interval after the last send": if it
// falls behind (a slow machine, a long GC), the sessions already due go
// out one after another without waiting, each once the one before is under
// way, and their lag shows it.
func (r *run) dispatch() {
	defer close(r.openDone)
	al := newAlarm()
	defer al.close()
	t := time.NewTimer(time.Hour)
	t.Stop()
	for _, s := range r.d.open {
		if !r.waitUntil(t, al, r.start.Add(s.At())) {
			return
		}
		adm := r.admit()
		r.stats.launched.Add(1)
		r.wg.Go(func() { r.session(s, s.At(), &adm) })
	}
}

// work is one closed-loop worker of client i: it takes the client's next
// session as soon as its previous one is over, until the sessions run out,
// Duration passes or the run halts.
func (r *run) work(i int) {
	l := &r.d.closed[i]
	for !r.halted() {
		now := time.Since(r.start)
		if r.cfg.Duration > 0 && now >= r.cfg.Duration {
			return
		}
		n := int(r.next[i].Add(1)) - 1
		if n >= len(l.sessions) {
			return
		}
		s := l.sessions[n]
		r.stats.taken.Add(1)
		r.stats.takenTurns.Add(int64(len(s.Turns)))
		if n == len(l.sessions)-1 && r.closedLeft.Add(-1) == 0 {
			close(r.closedDone)
		}
		r.session(s, now, nil)
	}
}

// session runs the turns of s, the first intended at intended (an offset
// from the start). A turn with no dependencies is due then; any other once
// the turns it depends on have finished, plus its wait, and it is not sent
// if one of them failed or the run halts first. Open-loop sessions come
// with turn 0's admission, taken by the dispatcher at its instant; their
// other turns ask the cap at their own instants. Closed-loop sessions (adm
// nil) are not capped.
func (r *run) session(s *trace.Session, intended time.Duration, adm *admission) {
	sr := &sessionRun{
		r: r, conv: newConversation(s, r.d.salt, r.d.pinned[s.Client], r.cfg.Expand, r.d.images), capped: adm != nil,
		done: make([]chan struct{}, len(s.Turns)),
		ok:   make([]bool, len(s.Turns)), end: make([]time.Duration, len(s.Turns)),
	}
	for k := range sr.done {
		sr.done[k] = make(chan struct{})
	}
	if len(s.Turns) == 1 {
		sr.turn(0, intended, adm)
		return
	}
	var wg sync.WaitGroup
	for k := range s.Turns {
		first := adm
		if k > 0 {
			first = nil
		}
		wg.Go(func() { sr.turn(k, intended, first) })
	}
	wg.Wait()
}

// sessionRun is the state of one session in flight.
type sessionRun struct {
	r      *run
	conv   *conversation
	capped bool
	done   []chan struct{} // closed when turn k is over, sent or not
	ok     []bool          // turn k succeeded; written before done[k] closes
	end    []time.Duration // when turn k finished, from the run start
}

// turn sends turn k when it is due; adm is the dispatcher's admission of
// turn 0 of an open-loop session, else nil.
func (sr *sessionRun) turn(k int, start time.Duration, adm *admission) {
	defer close(sr.done[k])
	r, t := sr.r, &sr.conv.s.Turns[k]
	due := start
	if deps := t.Deps(); len(deps) > 0 {
		due = 0
		for _, d := range deps {
			<-sr.done[d]
			if !sr.ok[d] {
				return
			}
			due = max(due, sr.end[d])
		}
	}
	due += t.Wait()
	if k > 0 || t.WaitUS > 0 {
		if !sr.waitFor(due) {
			return
		}
		if sr.capped {
			a := r.admit()
			adm = &a
		}
	}
	a := r.attempt(sr.conv.s, k, due)
	if sr.capped && !r.acquire(&a, *adm) {
		return
	}
	sr.ok[k] = r.send(&a, sr.conv)
	sr.end[k] = time.Since(r.start)
	if sr.capped {
		r.release()
	}
}

// waitFor waits until the offset due, reporting false if the run halts
// first.
func (sr *sessionRun) waitFor(due time.Duration) bool {
	if d := time.Until(sr.r.start.Add(due)); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		return sr.r.sleep(t, d)
	}
	return !sr.r.halted()
}
