package server

import (
	"slices"
	"sync"
	"time"
)

// stream is one request's progress, written by the engine loop and read
// by the request's handler. The loop never blocks on it: it updates the
// counts under mu and signals notify, a channel of capacity one, without
// waiting, so tokens a slow handler has not yet written coalesce into the
// counts and it catches up on its next read.
type stream struct {
	id      uint64
	job     job
	arrival time.Time
	notify  chan struct{}
	// restarted is the restart signal when the request arrived: a request
	// submitted after it fired is dropped as the restart dropped the rest.
	restarted <-chan struct{}
	// kids are the engine IDs of choices 1 to n−1 of a request for n
	// choices (choice 0 is id), and finished counts the choices done;
	// the loop alone touches them.
	kids     []uint64
	finished int

	mu sync.Mutex // guards p
	p  progress
}

// progress is a snapshot of a stream.
type progress struct {
	tokens  int           // output tokens of choice 0 generated so far
	more    []int         // those of choices 1 to n−1
	cached  int           // prompt tokens found in the prefix cache
	queued  time.Duration // engine queue time
	first   time.Time     // delivery of the first token
	last    time.Time     // delivery of the latest token
	done    bool          // all tokens generated, or failed
	failure *apiError     // why the request ended early, if it did
}

func newStream(id uint64, j job, arrival time.Time) *stream {
	st := &stream{id: id, job: j, arrival: arrival, notify: make(chan struct{}, 1)}
	if j.choices > 1 {
		st.p.more = make([]int, j.choices-1)
	}
	return st
}

// snapshot returns the current progress.
func (st *stream) snapshot() progress {
	st.mu.Lock()
	defer st.mu.Unlock()
	p := st.p
	p.more = slices.Clone(p.more)
	return p
}

// total is the output tokens of every choice generated so far.
func (p *progress) total() int {
	n := p.tokens
	for _, m := range p.more {
		n += m
	}
	return n
}

// choice is the choice engine request id generates: 0 for st.id, c for
// kids[c−1].
func (st *stream) choice(id uint64) int {
	if id == st.id {
		return 0
	}
	return slices.Index(st.kids, id) + 1
}

// update applies f to the progress and wakes the handler without blocking.
func (st *stream) update(f func(p *progress)) {
	st.mu.Lock()
	f(&st.p)
	st.mu.Unlock()
	select {
	case st.notify <- struct{}{}:
	default: // a wake-up is already pending; it will see this update too
	}
}

// fail ends the stream with e.
func (st *stream) fail(e *apiError) {
	st.update(func(p *progress) { p.done, p.failure = true, e })
}
