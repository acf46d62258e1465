package virtual

import (
	"cmp"
	"io"
	"slices"
	"time"

	"surge/trace"
)

// job is a session waiting to start: the session, its position in the
// trace (which names its messages for the prefix cache) and its
// closed-loop client, or -1 for open loop.
type job struct {
	sess *trace.Session
	key  int
	loop int
}

// arrival is something due at a virtual time: a session's start (sr nil),
// or turn of the session in flight sr.
type arrival struct {
	at    time.Duration
	order uint64 // FIFO among equal times
	sr    *sessionRun
	turn  int
	start job // the session to start when sr is nil
}

// before orders arrivals by time, then by when they were scheduled.
func (a *arrival) before(b *arrival) bool {
	return a.at < b.at || (a.at == b.at && a.order < b.order)
}

// closedLoop is a closed-loop client: it keeps Concurrency sessions in
// flight and starts the next, in index order, when one ends.
type closedLoop struct {
	sessions []job
	next     int // index of the next session to start
}

// schedule holds the arrivals still to come: open-loop sessions in offset
// order, pulled one at a time, and a min-heap of arrivals made due by
// earlier events (turns whose dependencies finished or whose wait began,
// closed-loop sessions).
type schedule struct {
	head  job                 // the next open-loop session, when more is set
	more  bool                // whether head holds one
	pull  func() (job, error) // the open-loop session after head; io.EOF after the last
	err   error               // pull's error, other than io.EOF
	heap  []arrival
	order uint64
	loops []closedLoop
}

// newSchedule splits sessions into open-loop ones and closed-loop clients
// (header clients with Concurrency > 0), as the driver does, and queues
// each closed-loop client's first Concurrency sessions at time 0. It
// returns the number of requests the run means to send: every turn.
func newSchedule(h trace.Header, sessions []*trace.Session) (*schedule, int) {
	sc := &schedule{}
	byName := make(map[string]int, len(h.Clients))
	var conc []int
	for _, c := range h.Clients {
		if c.Concurrency > 0 {
			byName[c.Name] = len(sc.loops)
			sc.loops = append(sc.loops, closedLoop{})
			conc = append(conc, c.Concurrency)
		}
	}
	total := 0
	var open []job
	for key, s := range sessions {
		total += len(s.Turns)
		if i, ok := byName[s.Client]; ok {
			sc.loops[i].sessions = append(sc.loops[i].sessions, job{sess: s, key: key, loop: i})
		} else {
			open = append(open, job{sess: s, key: key, loop: -1})
		}
	}
	slices.SortStableFunc(open, func(a, b job) int { return cmp.Compare(a.sess.AtUS, b.sess.AtUS) })
	sc.pull = func() (job, error) {
		if len(open) == 0 {
			return job{}, io.EOF
		}
		j := open[0]
		open[0] = job{} // drop the session for the collector once it ends
		open = open[1:]
		return j, nil
	}
	sc.advance()
	for i := range sc.loops {
		l := &sc.loops[i]
		slices.SortStableFunc(l.sessions, func(a, b job) int { return cmp.Compare(a.sess.Index, b.sess.Index) })
		for range min(conc[i], len(l.sessions)) {
			sc.startNext(i, 0)
		}
	}
	return sc, total
}

// startNext queues closed-loop client i's next session at t, if any is left.
func (sc *schedule) startNext(i int, t time.Duration) {
	l := &sc.loops[i]
	if l.next < len(l.sessions) {
		sc.push(arrival{at: t, start: l.sessions[l.next]})
		l.next++
	}
}

// advance pulls the next open-loop session into head, keeping pull's
// error, if any, in err.
func (sc *schedule) advance() {
	j, err := sc.pull()
	sc.head, sc.more = j, err == nil
	if err != nil && err != io.EOF {
		sc.err = err
	}
}

// openFirst reports whether the next open-loop session is due no later
// than the heap's first arrival; open-loop sessions win ties, keeping the
// trace's order.
func (sc *schedule) openFirst() bool {
	return sc.more && (len(sc.heap) == 0 || sc.head.sess.At() <= sc.heap[0].at)
}

// peek returns the time of the earliest arrival and whether there is one.
func (sc *schedule) peek() (time.Duration, bool) {
	switch {
	case sc.openFirst():
		return sc.head.sess.At(), true
	case len(sc.heap) > 0:
		return sc.heap[0].at, true
	}
	return 0, false
}

// pop removes and returns the earliest arrival; peek must have found one.
func (sc *schedule) pop() arrival {
	if sc.openFirst() {
		j := sc.head
		sc.advance()
		return arrival{at: j.sess.At(), start: j}
	}
	top := sc.heap[0]
	last := len(sc.heap) - 1
	sc.heap[0] = sc.heap[last]
	sc.heap[last] = arrival{} // drop the pointers for the collector
	sc.heap = sc.heap[:last]
	sc.down(0)
	return top
}

// push adds a to the heap, stamping its FIFO order.
func (sc *schedule) push(a arrival) {
	a.order = sc.order
	sc.order++
	sc.heap = append(sc.heap, a)
	for i := len(sc.heap) - 1; i > 0; {
		p := (i - 1) / 2
		if !sc.heap[i].before(&sc.heap[p]) {
			break
		}
		sc.heap[i], sc.heap[p] = sc.heap[p], sc.heap[i]
		i = p
	}
}

// down restores the heap below i.
func (sc *schedule) down(i int) {
	for {
		l, small := 2*i+1, i
		if l < len(sc.heap) && sc.heap[l].before(&sc.heap[small]) {
			small = l
		}
		if r := l + 1; r < len(sc.heap) && sc.heap[r].before(&sc.heap[small]) {
			small = r
		}
		if small == i {
			return
		}
		sc.heap[i], sc.heap[small] = sc.heap[small], sc.heap[i]
		i = small
	}
}
