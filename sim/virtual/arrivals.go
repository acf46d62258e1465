package virtual

import (
	"cmp"
	"slices"
	"time"

	"surge/trace"
)

// arrival is a request due at a virtual time: turn of sess, from
// closed-loop client loop (or -1 for open loop).
type arrival struct {
	at    time.Duration
	order uint64 // FIFO among equal times
	sess  *trace.Session
	turn  int
	loop  int
}

// before orders arrivals by time, then by when they were scheduled.
func (a *arrival) before(b *arrival) bool {
	return a.at < b.at || (a.at == b.at && a.order < b.order)
}

// closedLoop is a closed-loop client: it keeps Concurrency sessions in
// flight and starts the next, in index order, when one ends.
type closedLoop struct {
	sessions []*trace.Session
	next     int // index of the next session to start
}

// schedule holds the arrivals still to come: open-loop sessions in offset
// order, and a min-heap of requests made due by earlier ones finishing
// (later turns, closed-loop sessions).
type schedule struct {
	open  []*trace.Session // by AtUS, stable
	next  int              // first open session not yet arrived
	heap  []arrival
	order uint64
	loops []closedLoop
}

// newSchedule splits sessions into open-loop ones and closed-loop clients
// (header clients with Concurrency > 0), as the driver does, and queues
// each closed-loop client's first Concurrency sessions at time 0. It
// returns the number of requests the run means to send.
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
	for _, s := range sessions {
		total += len(s.Turns)
		if i, ok := byName[s.Client]; ok {
			sc.loops[i].sessions = append(sc.loops[i].sessions, s)
		} else {
			sc.open = append(sc.open, s)
		}
	}
	slices.SortStableFunc(sc.open, func(a, b *trace.Session) int { return cmp.Compare(a.AtUS, b.AtUS) })
	for i := range sc.loops {
		l := &sc.loops[i]
		slices.SortStableFunc(l.sessions, func(a, b *trace.Session) int { return cmp.Compare(a.Index, b.Index) })
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
		sc.push(arrival{at: t, sess: l.sessions[l.next], loop: i})
		l.next++
	}
}

// peek returns the time of the earliest arrival and whether there is one.
func (sc *schedule) peek() (time.Duration, bool) {
	switch {
	case sc.next < len(sc.open) && (len(sc.heap) == 0 || sc.open[sc.next].At() <= sc.heap[0].at):
		return sc.open[sc.next].At(), true
	case len(sc.heap) > 0:
		return sc.heap[0].at, true
	}
	return 0, false
}

// pop removes and returns the earliest arrival; peek must have found one.
// Open-loop sessions win ties, keeping the trace's order.
func (sc *schedule) pop() arrival {
	if sc.next < len(sc.open) && (len(sc.heap) == 0 || sc.open[sc.next].At() <= sc.heap[0].at) {
		s := sc.open[sc.next]
		sc.next++
		return arrival{at: s.At(), sess: s, loop: -1}
	}
	top := sc.heap[0]
	last := len(sc.heap) - 1
	sc.heap[0] = sc.heap[last]
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
