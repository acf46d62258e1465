package driver

import (
	"time"

	"surge/trace"
)

// dispatch launches each open-loop session at its absolute instant
// start + AtUS, waiting on one reused timer (see waitUntil). It never waits
// "an interval after the last send": if it falls behind (a slow machine, a
// long GC), the sessions already due go out at once and their lag shows it.
func (r *run) dispatch() {
	defer close(r.openDone)
	t := time.NewTimer(time.Hour)
	t.Stop()
	for _, s := range r.d.open {
		if !r.waitUntil(t, r.start.Add(s.At())) {
			return
		}
		adm := r.admit()
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

// session sends the turns of s one after another, the first intended at
// intended (an offset from the start), each later one at the instant the
// previous one finished. Open-loop sessions come with the first turn's
// admission, taken by the dispatcher at its instant; their later turns ask
// the cap themselves. Closed-loop sessions (adm nil) are not capped.
func (r *run) session(s *trace.Session, intended time.Duration, adm *admission) {
	capped := adm != nil
	for k := range s.Turns {
		if k > 0 {
			if r.halted() {
				return
			}
			intended = time.Since(r.start)
			if capped {
				*adm = r.admit()
			}
		}
		a := r.attempt(s, k, intended)
		if capped && !r.acquire(&a, *adm) {
			return
		}
		ok := r.send(&a)
		if capped {
			r.release()
		}
		if !ok {
			return
		}
	}
}
