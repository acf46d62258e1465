package content

// mergeCandidate is a possible BPE merge: node pos with its successor,
// by a rule of the given rank.
type mergeCandidate struct {
	rank, pos int32
}

// mergeHeap is a binary min-heap of merge candidates ordered by rank and
// then by position, so that among equal ranks the leftmost pair merges
// first. It is typed, unlike container/heap, so pushes don't allocate.
type mergeHeap []mergeCandidate

func (h mergeHeap) less(i, j int) bool {
	if h[i].rank != h[j].rank {
		return h[i].rank < h[j].rank
	}
	return h[i].pos < h[j].pos
}

// init establishes the heap order over the whole slice.
func (h mergeHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// pop removes and returns the least candidate; h must not be empty.
func (h *mergeHeap) pop() mergeCandidate {
	old := *h
	top, last := old[0], len(old)-1
	old[0] = old[last]
	*h = old[:last]
	h.down(0)
	return top
}

// up moves element i towards the root until its parent is not greater.
func (h mergeHeap) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !h.less(i, parent) {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

// down moves element i towards the leaves until no child is less.
func (h mergeHeap) down(i int) {
	for {
		least := i
		for _, child := range [2]int{2*i + 1, 2*i + 2} {
			if child < len(h) && h.less(child, least) {
				least = child
			}
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}
