package workload

import (
	"container/heap"
	"fmt"
	"time"

	"surge/arrival"
)

// merger interleaves the open-loop clients' arrival streams by offset.
// Ties go to the client listed first in the spec.
type merger struct {
	heads mergeHeap
}

type head struct {
	client int
	index  int
	at     time.Duration
	stream *arrival.Stream
}

func newMerger(g *Generator) (*merger, error) {
	m := &merger{}
	for ci, c := range g.clients {
		if c.Concurrency > 0 {
			continue
		}
		cfg := withBursts(&c)
		if err := cfg.Validate(); err != nil {
			return nil, fmt.Errorf("client %q: %w", c.Name, err)
		}
		h := &head{client: ci, stream: cfg.Stream(arrivalRNG(g.spec.Seed, c.key))}
		if at, ok := h.stream.Next(); ok {
			h.at = at
			m.heads = append(m.heads, h)
		}
	}
	heap.Init(&m.heads)
	return m, nil
}

// next returns the earliest pending arrival and advances its stream.
func (m *merger) next() (client, index int, at time.Duration, ok bool) {
	if len(m.heads) == 0 {
		return 0, 0, 0, false
	}
	h := m.heads[0]
	client, index, at = h.client, h.index, h.at
	if next, more := h.stream.Next(); more {
		h.at, h.index = next, h.index+1
		heap.Fix(&m.heads, 0)
	} else {
		heap.Pop(&m.heads)
	}
	return client, index, at, true
}

type mergeHeap []*head

func (h mergeHeap) Len() int { return len(h) }
func (h mergeHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].client < h[j].client
}
func (h mergeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *mergeHeap) Push(x any)   { *h = append(*h, x.(*head)) }
func (h *mergeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
