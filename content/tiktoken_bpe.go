package content

// rankNode is a part in the doubly linked list merge works on: the bytes
// from start up to the start of the next part, with the id of those bytes.
// rank is the id of this part and its successor joined (noRank: not a
// token).
type rankNode struct {
	start, id, prev, next int32
	rank                  int32
}

// rankScratch holds the buffers of tiktoken.merge so that one Encode call
// reuses them across pieces. It belongs to a single goroutine.
type rankScratch struct {
	nodes []rankNode
	heap  mergeHeap
}

// encodePiece appends the ids of one piece of split text. As in tiktoken,
// a piece that is a token is that token; other pieces are merged.
func (t *tiktoken) encodePiece(piece string, sc *rankScratch, ids []int) []int {
	if id, ok := t.ranks[piece]; ok {
		return append(ids, int(id))
	}
	if piece == "" {
		return ids
	}
	if cached, ok := t.cache.get(piece); ok {
		for _, id := range cached {
			ids = append(ids, int(id))
		}
		return ids
	}
	start := len(ids)
	ids = t.merge(piece, sc, ids)
	t.cache.put(piece, ids[start:])
	return ids
}

// merge appends the ids byte-pair encoding splits piece into.
//
// It starts from one part per byte and repeatedly joins the two adjacent
// parts whose joined bytes are the token of lowest rank (id), the leftmost
// among equals, until no two adjacent parts join into a token: tiktoken's
// byte_pair_merge. The candidates sit in the min-heap keyed by (rank,
// position) that the tokenizer.json loader uses; a join changes at most two
// candidates, so a piece of n bytes costs O(n log n). Stale heap entries
// are skipped when popped: an entry is live while its node still has that
// rank, and then it is a join of that rank, so an old entry that happens to
// match is as good as the new one.
func (t *tiktoken) merge(piece string, sc *rankScratch, ids []int) []int {
	nodes := sc.nodes[:0]
	for i := range len(piece) {
		id := t.ranks[piece[i:i+1]]
		nodes = append(nodes, rankNode{start: int32(i), id: id, prev: int32(i - 1), next: int32(i + 1), rank: noRank})
	}
	nodes[len(nodes)-1].next = -1
	h := sc.heap[:0]
	for i := range int32(len(nodes) - 1) {
		h = t.link(piece, nodes, i, h)
	}
	h.init()
	for len(h) > 0 {
		top := h.pop()
		n := &nodes[top.pos]
		if n.rank != top.rank {
			continue
		}
		right := n.next
		n.id, n.next = n.rank, nodes[right].next
		nodes[right].rank = noRank
		if n.next >= 0 {
			nodes[n.next].prev = top.pos
		}
		h = t.relink(piece, nodes, top.pos, h)
		if n.prev >= 0 {
			h = t.relink(piece, nodes, n.prev, h)
		}
	}
	for i := int32(0); i >= 0; i = nodes[i].next {
		ids = append(ids, int(nodes[i].id))
	}
	sc.nodes, sc.heap = nodes, h
	return ids
}

// link sets the rank of node i, the id of its bytes joined with its
// successor's if that is a token, and appends the candidate to h without
// restoring the heap order.
func (t *tiktoken) link(piece string, nodes []rankNode, i int32, h mergeHeap) mergeHeap {
	n := &nodes[i]
	n.rank = noRank
	if n.next < 0 {
		return h
	}
	end := int32(len(piece))
	if after := nodes[n.next].next; after >= 0 {
		end = nodes[after].start
	}
	r, ok := t.ranks[piece[n.start:end]]
	if !ok {
		return h
	}
	n.rank = r
	return append(h, mergeCandidate{rank: r, pos: i})
}

// relink is link followed by restoring the heap order.
func (t *tiktoken) relink(piece string, nodes []rankNode, i int32, h mergeHeap) mergeHeap {
	before := len(h)
	h = t.link(piece, nodes, i, h)
	if len(h) > before {
		h.up(len(h) - 1)
	}
	return h
}
