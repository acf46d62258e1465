package content

// joiner says which adjacent parts of a piece byte-pair encoding joins,
// by one of two rules: tiktoken's, where two parts join when their bytes
// together are a token, whose id is its rank (ranks set); or
// tokenizer.json's, where they join when model.merges has a rule for
// their pair of ids (merges set). It is a struct rather than an interface
// so that its lookups inline into bpeMerge's loop.
type joiner struct {
	byteIDs *[256]int32          // id of each single byte
	ranks   map[string]int32     // tiktoken: bytes of a token → its id and rank
	merges  map[uint64]mergeRule // tokenizer.json: pairKey(left, right) → rule
}

// join returns the rank of joining node i with its successor and the id
// of the result; ok is false when they do not join.
func (j *joiner) join(piece string, nodes []mergeNode, i int32) (rank, id int32, ok bool) {
	n := &nodes[i]
	if j.ranks != nil {
		end := int32(len(piece))
		if after := nodes[n.next].next; after >= 0 {
			end = nodes[after].start
		}
		rank, ok = j.ranks[piece[n.start:end]]
		return rank, rank, ok
	}
	m, ok := j.merges[pairKey(n.id, nodes[n.next].id)]
	return m.rank, m.id, ok
}

// mergeNode is a part in the doubly linked list bpeMerge works on: the
// bytes from start up to the start of the next part, with their id. rank
// and merged describe joining it with its successor (rank noRank: they
// do not join).
type mergeNode struct {
	start, id, prev, next int32
	rank, merged          int32
}

// mergeScratch holds the buffers of bpeMerge so that one Encode call
// reuses them across pieces. It belongs to a single goroutine.
type mergeScratch struct {
	nodes []mergeNode
	heap  mergeHeap
}

// bpeMerge appends the ids byte-pair encoding splits piece into; piece
// must not be empty.
//
// It starts from one part per byte and repeatedly joins the two adjacent
// parts of lowest join rank, the leftmost among equals, until no two
// adjacent parts join: tiktoken's byte_pair_merge and the Hugging Face
// BPE model alike. The candidates sit in a min-heap keyed by (rank,
// position); a join changes at most two candidates, so a piece of n bytes
// costs O(n log n). Stale heap entries are skipped when popped: an entry
// is live while its node still has that rank, and then it is a join of
// that rank, so an old entry that happens to match is as good as the new
// one.
func bpeMerge(j *joiner, piece string, sc *mergeScratch, ids []int) []int {
	nodes := sc.nodes[:0]
	for i := range len(piece) {
		nodes = append(nodes, mergeNode{start: int32(i), id: j.byteIDs[piece[i]], prev: int32(i - 1), next: int32(i + 1), rank: noRank})
	}
	nodes[len(nodes)-1].next = -1
	h := sc.heap[:0]
	for i := range int32(len(nodes) - 1) {
		h = link(j, piece, nodes, i, h)
	}
	h.init()
	for len(h) > 0 {
		top := h.pop()
		n := &nodes[top.pos]
		if n.rank != top.rank {
			continue
		}
		right := n.next
		n.id, n.next = n.merged, nodes[right].next
		nodes[right].rank = noRank
		if n.next >= 0 {
			nodes[n.next].prev = top.pos
		}
		h = relink(j, piece, nodes, top.pos, h)
		if n.prev >= 0 {
			h = relink(j, piece, nodes, n.prev, h)
		}
	}
	for i := int32(0); i >= 0; i = nodes[i].next {
		ids = append(ids, int(nodes[i].id))
	}
	sc.nodes, sc.heap = nodes, h
	return ids
}

// link sets the join of node i with its successor, if they join, and
// appends the candidate to h without restoring the heap order.
func link(j *joiner, piece string, nodes []mergeNode, i int32, h mergeHeap) mergeHeap {
	n := &nodes[i]
	n.rank = noRank
	if n.next < 0 {
		return h
	}
	r, id, ok := j.join(piece, nodes, i)
	if !ok {
		return h
	}
	n.rank, n.merged = r, id
	return append(h, mergeCandidate{rank: r, pos: i})
}

// relink is link followed by restoring the heap order.
func relink(j *joiner, piece string, nodes []mergeNode, i int32, h mergeHeap) mergeHeap {
	before := len(h)
	h = link(j, piece, nodes, i, h)
	if len(h) > before {
		h.up(len(h) - 1)
	}
	return h
}
