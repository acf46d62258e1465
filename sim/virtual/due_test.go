package virtual

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestDueQueue holds the queue to a scan of every replica, the way the
// run loop found the next event before it, over random updates.
func TestDueQueue(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 37
	q := newDueQueue(n)
	kinds := make([]eventKind, n)
	ats := make([]time.Duration, n)
	for step := range 20000 {
		i := rng.IntN(n)
		kinds[i] = []eventKind{evNone, evDeliver, evStep}[rng.IntN(3)]
		ats[i] = time.Duration(rng.IntN(50)) // many ties
		q.update(i, kinds[i], ats[i])
		want, found := -1, false
		for j := range n {
			if kinds[j] == evNone {
				continue
			}
			if !found || ats[j] < ats[want] || (ats[j] == ats[want] && kinds[j] < kinds[want]) {
				want, found = j, true
			}
		}
		got, k, ok := q.peek()
		if ok != found || (ok && (got != want || k.at != ats[want] || k.kind != kinds[want])) {
			t.Fatalf("step %d: peek %d %+v %v; want %d (found %v)", step, got, k, ok, want, found)
		}
	}
}
