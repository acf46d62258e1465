package driver

import (
	"cmp"
	"context"
	"hash/fnv"
	"math"
	"slices"
	"sync"
	"time"

	"surge/trace"
)

// storms tracks the requests in flight of the clients that have
// cancellation storms (a workload's faults), so that a storm can cancel
// a share of them.
type storms struct {
	windows []trace.FaultWindow // the storms, by time
	clients map[string]bool     // clients with a storm

	mu      sync.Mutex
	flights map[*attempt]*flight
}

// flight is a request a storm may cancel.
type flight struct {
	cancel  context.CancelFunc
	stormed bool // cancelled by a storm
}

// newStorms collects the storms of a trace's fault windows; nil when it
// has none.
func newStorms(windows []trace.FaultWindow) *storms {
	s := &storms{clients: map[string]bool{}, flights: map[*attempt]*flight{}}
	for _, w := range windows {
		if w.Kind == trace.FaultStorm {
			s.windows = append(s.windows, w)
			s.clients[w.Client] = true
		}
	}
	if len(s.windows) == 0 {
		return nil
	}
	return s
}

// track registers a, sent with ctx, as a request a storm may cancel: one
// of a client with storms that carries no fault of its own. It returns
// the context to send a with and a function that unregisters it and
// reports whether a storm cancelled it.
func (s *storms) track(ctx context.Context, a *attempt) (context.Context, func() bool) {
	if s == nil || !s.clients[a.session.Client] || a.session.Turns[a.turn].Fault != nil {
		return ctx, func() bool { return false }
	}
	ctx, cancel := context.WithCancel(ctx)
	f := &flight{cancel: cancel}
	s.mu.Lock()
	s.flights[a] = f
	s.mu.Unlock()
	return ctx, func() bool {
		s.mu.Lock()
		delete(s.flights, a)
		stormed := f.stormed
		s.mu.Unlock()
		cancel()
		return stormed
	}
}

// run fires each storm at its offset from start, until done is closed.
func (s *storms) run(start time.Time, done <-chan struct{}) {
	for _, w := range s.windows {
		t := time.NewTimer(time.Until(start.Add(time.Duration(w.AtUS) * time.Microsecond)))
		select {
		case <-t.C:
			s.strike(w)
		case <-done:
			t.Stop()
			return
		}
	}
}

// strike cancels ⌈Fraction·n⌉ of the n requests of w's client in flight,
// chosen by a hash of their session and turn, so that the same requests
// are chosen in every run that has them in flight together. In flight
// means meant to be sent by the storm's instant (intended_us ≤ at_us): a
// request meant for later, that a storm timer firing late finds running,
// is left alone, so a storm cancels the same requests on a loaded machine
// and reports can tell its requests by their records.
func (s *storms) strike(w trace.FaultWindow) {
	s.mu.Lock()
	defer s.mu.Unlock()
	type pick struct {
		key uint64
		f   *flight
	}
	var in []pick
	for a, f := range s.flights {
		if a.session.Client == w.Client && us(a.intended) <= w.AtUS {
			in = append(in, pick{flightKey(a), f})
		}
	}
	slices.SortFunc(in, func(x, y pick) int { return cmp.Compare(x.key, y.key) })
	n := int(math.Ceil(w.Fraction * float64(len(in))))
	for _, p := range in[:n] {
		p.f.stormed = true
		p.f.cancel()
	}
}

// flightKey hashes a's identity.
func flightKey(a *attempt) uint64 {
	h := fnv.New64a()
	h.Write([]byte(a.session.Client))
	var b [16]byte
	for i := range 8 {
		b[i] = byte(a.session.Index >> (8 * i))
		b[8+i] = byte(a.turn >> (8 * i))
	}
	h.Write(b[:])
	return h.Sum64()
}
