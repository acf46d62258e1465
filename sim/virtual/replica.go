package virtual

import (
	"time"

	"surge/sim"
)

// replica is one engine with its own position in virtual time.
type replica struct {
	eng *sim.Engine
	// at is when the replica's next event happens: the end of the step in
	// progress when stepping, else the earliest time it may start one.
	at       time.Duration
	stepping bool        // held holds a step's events, due at at
	held     []sim.Event // copied: the engine reuses its slice
	load     int         // requests routed here and not yet finished
}

// step starts an engine step at r.at and holds its events until its end.
func (r *replica) step() {
	res := r.eng.Step(r.at)
	r.held = append(r.held[:0], res.Events...)
	r.at += res.Duration
	r.stepping = true
}

// eventKind orders what happens at one instant: a step's results are
// delivered first (they may make requests due), then arrivals are routed,
// then idle replicas start steps with everything that has arrived.
type eventKind int

const (
	evNone eventKind = iota
	evDeliver
	evArrive
	evStep
)

// nextEvent returns the replica's next event and its time.
func (r *replica) nextEvent() (eventKind, time.Duration) {
	switch {
	case r.stepping:
		return evDeliver, r.at
	case !r.eng.Idle():
		return evStep, r.at
	}
	return evNone, 0
}

// route picks the replica for the next request: in turn for RoundRobin, the
// one with the least load (lowest index among equals) for LeastLoaded.
func (rn *runner) route() int {
	if rn.cfg.Router == LeastLoaded {
		best := 0
		for i := range rn.reps {
			if rn.reps[i].load < rn.reps[best].load {
				best = i
			}
		}
		return best
	}
	i := rn.rr
	rn.rr = (rn.rr + 1) % len(rn.reps)
	return i
}
