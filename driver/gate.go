package driver

import (
	"fmt"
	"sync"
	"time"
)

// gate is a counting semaphore that grants its slots first come, first
// served: a request that asked earlier (in schedule order, since the
// dispatcher asks at each request's instant) is always served before a
// later one. A channel semaphore would leave the order of requests due
// together to the goroutine scheduler.
type gate struct {
	mu   sync.Mutex // guards free and wait
	free int
	wait []*ticket // FIFO of requests waiting for a slot
}

// ticket is a place in a gate's queue.
type ticket struct {
	ready chan struct{} // receives the slot; buffered, so granting never blocks
	gone  bool          // abandoned: skip it when granting
	asked time.Time
}

// newGate returns a gate of n slots.
func newGate(n int) *gate { return &gate{free: n} }

// take takes a free slot and reports true, or, when none is free and queue
// is set, returns a ticket for the next one; else it returns nil, false.
func (g *gate) take(queue bool) (*ticket, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.free > 0 {
		g.free--
		return nil, true
	}
	if !queue {
		return nil, false
	}
	t := &ticket{ready: make(chan struct{}, 1), asked: time.Now()}
	g.wait = append(g.wait, t)
	return t, false
}

// release frees a slot, handing it to the oldest ticket still waiting.
func (g *gate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.releaseLocked()
}

// releaseLocked is release with g.mu held.
func (g *gate) releaseLocked() {
	for len(g.wait) > 0 {
		t := g.wait[0]
		g.wait[0] = nil
		g.wait = g.wait[1:]
		if !t.gone {
			t.ready <- struct{}{}
			return
		}
	}
	g.free++
}

// abandon gives up t's place; a slot granted to it meanwhile goes back.
// Abandoned tickets are skipped when their turn comes, so abandoning the
// whole queue costs one step per ticket.
func (g *gate) abandon(t *ticket) {
	g.mu.Lock()
	defer g.mu.Unlock()
	t.gone = true
	select {
	case <-t.ready:
		g.releaseLocked()
	default:
	}
}

// admission is what the cap said about a request at its intended instant.
type admission struct {
	slot bool    // holds a slot (always true without a cap)
	tk   *ticket // queued for a slot
}

// admit asks the cap for a slot at a request's intended instant. It never
// blocks, so the dispatcher can call it in schedule order.
func (r *run) admit() admission {
	if r.slots == nil {
		return admission{slot: true}
	}
	tk, ok := r.slots.take(!r.cfg.Drop)
	if tk != nil {
		r.stats.queued.Add(1)
	}
	return admission{slot: ok, tk: tk}
}

// acquire turns an admission into a slot: it waits for a queued ticket
// (setting a.queue to the wait) and reports true when a may be sent. A
// request shed at the cap, or still queued when the run stops, gets a
// dropped record and false.
func (r *run) acquire(a *attempt, adm admission) bool {
	switch {
	case adm.slot:
		return true
	case adm.tk == nil:
		r.drop(a, fmt.Sprintf("shed at the concurrency cap (%d in flight)", r.cfg.MaxConcurrency))
		return false
	}
	defer r.stats.queued.Add(-1)
	select {
	case <-adm.tk.ready:
		a.queue = time.Since(adm.tk.asked)
		if !r.halted() {
			return true
		}
		r.release()
	case <-r.halt:
		r.slots.abandon(adm.tk)
		a.queue = time.Since(adm.tk.asked)
	}
	r.drop(a, "never sent: the run stopped while it waited for a concurrency slot")
	return false
}

// release gives back a concurrency slot, if there is a cap.
func (r *run) release() {
	if r.slots != nil {
		r.slots.release()
	}
}

// drop records a as shed without being sent.
func (r *run) drop(a *attempt, why string) {
	rec := a.dropped(why)
	r.write(&rec, false)
}
