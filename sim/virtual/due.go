package virtual

import (
	"container/heap"
	"time"
)

// dueQueue orders the replicas that have an event to come by when it
// happens, then by kind, then by index, as runner.next breaks ties: a
// min-heap of replica indices that knows each one's place, so that a
// fleet of many replicas costs log R an event rather than R. A replica
// whose next event changes is fixed in place (update).
type dueQueue struct {
	heap []int // replica indices, heap-ordered
	pos  []int // pos[i] is i's index in heap, or -1 when it has no event
	key  []dueKey
}

// dueKey is a replica's next event.
type dueKey struct {
	at   time.Duration
	kind eventKind
}

// newDueQueue returns a queue of n replicas, none with an event.
func newDueQueue(n int) *dueQueue {
	q := &dueQueue{pos: make([]int, n), key: make([]dueKey, n)}
	for i := range q.pos {
		q.pos[i] = -1
	}
	return q
}

// peek returns the replica with the earliest event, if any.
func (q *dueQueue) peek() (int, dueKey, bool) {
	if len(q.heap) == 0 {
		return 0, dueKey{}, false
	}
	i := q.heap[0]
	return i, q.key[i], true
}

// update sets replica i's next event to kind at at; evNone takes it out.
func (q *dueQueue) update(i int, kind eventKind, at time.Duration) {
	p := q.pos[i]
	switch {
	case kind == evNone && p >= 0:
		heap.Remove(q, p)
	case kind == evNone:
	case p >= 0:
		q.key[i] = dueKey{at: at, kind: kind}
		heap.Fix(q, p)
	default:
		q.key[i] = dueKey{at: at, kind: kind}
		heap.Push(q, i)
	}
}

// Len, Less, Swap, Push and Pop are heap.Interface.
func (q *dueQueue) Len() int { return len(q.heap) }

func (q *dueQueue) Less(a, b int) bool {
	i, j := q.heap[a], q.heap[b]
	ki, kj := q.key[i], q.key[j]
	if ki.at != kj.at {
		return ki.at < kj.at
	}
	if ki.kind != kj.kind {
		return ki.kind < kj.kind
	}
	return i < j
}

func (q *dueQueue) Swap(a, b int) {
	q.heap[a], q.heap[b] = q.heap[b], q.heap[a]
	q.pos[q.heap[a]], q.pos[q.heap[b]] = a, b
}

func (q *dueQueue) Push(x any) {
	i := x.(int)
	q.pos[i] = len(q.heap)
	q.heap = append(q.heap, i)
}

func (q *dueQueue) Pop() any {
	last := len(q.heap) - 1
	i := q.heap[last]
	q.heap = q.heap[:last]
	q.pos[i] = -1
	return i
}
