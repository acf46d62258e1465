package sim

import "fmt"

// kvCache is a paged KV cache of numBlocks blocks of blockSize tokens each,
// with a reference count per block and, when caching is on, a prefix cache
// mapping the chained hash of a full prompt block to the block holding it.
// A full block that no hash names may instead be kept for the one sequence
// that computed it (owner), so that the sequence finds it again after a
// preemption, as vLLM, which hashes every full block, lets a preempted
// request resume from its own cached blocks.
//
// Blocks with refcount 0 are free and sit in one doubly linked list in
// eviction order: blocks holding nothing first, then blocks still cached
// (a hash or an owner), least recently freed first. Allocation pops the
// front, so a cached block is evicted (its hash or owner forgotten) only
// when no truly free block remains, and then the least recently used one
// goes first. Keeping that order needs no sorting: uncached blocks are
// pushed at the front and cached blocks at the back, and a cache hit may
// unlink any block in O(1).
type kvCache struct {
	blockSize int
	caching   bool
	ref       []int32  // references by requests; 0 means free
	hash      []uint64 // hash held by the block when hashed is true
	hashed    []bool
	owner     []uint64 // the sequence a block without hash is kept for; 0 for none
	prev      []int32  // free-list links; index len(ref) is the sentinel
	next      []int32
	numFree   int
	byHash    map[uint64]int32
}

// noBlock marks a block that is not in the free list.
const noBlock = -1

// newKVCache returns a cache with every block free.
func newKVCache(numBlocks, blockSize int, caching bool) *kvCache {
	c := &kvCache{
		blockSize: blockSize,
		caching:   caching,
		ref:       make([]int32, numBlocks),
		hash:      make([]uint64, numBlocks),
		hashed:    make([]bool, numBlocks),
		owner:     make([]uint64, numBlocks),
		prev:      make([]int32, numBlocks+1),
		next:      make([]int32, numBlocks+1),
		byHash:    make(map[uint64]int32),
	}
	s := c.sentinel()
	c.prev[s], c.next[s] = s, s
	for b := range int32(numBlocks) {
		c.pushBack(b)
	}
	return c
}

func (c *kvCache) sentinel() int32 { return int32(len(c.ref)) }

// blocksFor is the number of blocks holding tokens tokens: ⌈tokens/blockSize⌉.
func (c *kvCache) blocksFor(tokens int) int {
	return (tokens + c.blockSize - 1) / c.blockSize
}

func (c *kvCache) pushBack(b int32) {
	s := c.sentinel()
	last := c.prev[s]
	c.prev[b], c.next[b] = last, s
	c.next[last], c.prev[s] = b, b
	c.numFree++
}

func (c *kvCache) pushFront(b int32) {
	s := c.sentinel()
	first := c.next[s]
	c.prev[b], c.next[b] = s, first
	c.prev[first], c.next[s] = b, b
	c.numFree++
}

func (c *kvCache) unlink(b int32) {
	c.next[c.prev[b]] = c.next[b]
	c.prev[c.next[b]] = c.prev[b]
	c.prev[b], c.next[b] = noBlock, noBlock
	c.numFree--
}

// lookup counts the leading hashes, at most maxBlocks, whose blocks are
// cached, and how many of those blocks are free (they leave the free list
// when acquired, so admission must count them against it). It changes nothing.
func (c *kvCache) lookup(hashes []uint64, maxBlocks int) (hits, idle int) {
	if !c.caching {
		return 0, 0
	}
	for _, h := range hashes[:min(len(hashes), maxBlocks)] {
		b, ok := c.byHash[h]
		if !ok {
			break
		}
		hits++
		if c.ref[b] == 0 {
			idle++
		}
	}
	return hits, idle
}

// canAllocate reports whether n new blocks can be allocated after idle free
// cached blocks have been acquired as hits.
func (c *kvCache) canAllocate(n, idle int) bool {
	return n+idle <= c.numFree
}

// acquire references the cached blocks of hashes (all must be cached, as
// lookup found) and appends them to dst.
func (c *kvCache) acquire(dst []int32, hashes []uint64) []int32 {
	for _, h := range hashes {
		b := c.byHash[h]
		if c.ref[b] == 0 {
			c.unlink(b)
		}
		c.ref[b]++
		dst = append(dst, b)
	}
	return dst
}

// allocate appends n fresh blocks to dst, evicting cached hashes from the
// blocks it takes. The caller must have checked canAllocate.
func (c *kvCache) allocate(dst []int32, n int) []int32 {
	for range n {
		b := c.next[c.sentinel()]
		if b == c.sentinel() {
			panic("sim: kv cache allocate without free blocks")
		}
		c.unlink(b)
		if c.hashed[b] {
			if c.byHash[c.hash[b]] == b {
				delete(c.byHash, c.hash[b])
			}
			c.hashed[b] = false
		}
		c.owner[b] = 0
		c.ref[b] = 1
		dst = append(dst, b)
	}
	return dst
}

// release drops one reference to each block. Blocks are released from the
// last to the first, so that among blocks freed together a sequence's tail
// is evicted before its prefix, which other requests are likelier to share.
func (c *kvCache) release(blocks []int32) {
	for i := len(blocks) - 1; i >= 0; i-- {
		b := blocks[i]
		c.ref[b]--
		if c.ref[b] > 0 {
			continue
		}
		if c.cached(b) {
			c.pushBack(b)
		} else {
			c.pushFront(b)
		}
	}
}

// cached reports whether block b holds content the cache keeps: a hash
// or an owner.
func (c *kvCache) cached(b int32) bool { return c.hashed[b] || c.owner[b] != 0 }

// keep marks the blocks of owner without a hash as kept for it (when
// caching is on), so that a release sends them to the back of the free
// list and ownedIdle finds them.
func (c *kvCache) keep(blocks []int32, owner uint64) {
	if !c.caching {
		return
	}
	for _, b := range blocks {
		if !c.hashed[b] {
			c.owner[b] = owner
		}
	}
}

// ownedIdle counts the leading blocks of prev, from index from on, that
// are free and still kept for owner: the blocks a preempted sequence
// computed and can take back.
func (c *kvCache) ownedIdle(prev []int32, from int, owner uint64) int {
	n := 0
	for _, b := range prev[min(from, len(prev)):] {
		if c.ref[b] != 0 || c.owner[b] != owner || c.hashed[b] {
			break
		}
		n++
	}
	return n
}

// forget drops the blocks of prev still kept for owner, which no one can
// take back any more, to the front of the free list, to be reused first.
func (c *kvCache) forget(prev []int32, owner uint64) {
	for _, b := range prev {
		if c.ref[b] == 0 && c.owner[b] == owner && !c.hashed[b] {
			c.owner[b] = 0
			c.unlink(b)
			c.pushFront(b)
		}
	}
}

// take references the free blocks of bs, which ownedIdle found, and
// appends them to dst.
func (c *kvCache) take(dst []int32, bs []int32) []int32 {
	for _, b := range bs {
		c.unlink(b)
		c.ref[b], c.owner[b] = 1, 0
		dst = append(dst, b)
	}
	return dst
}

// register records that block b holds the full prompt block with hash h. A
// hash already cached in another block keeps that block: the copy stays
// unhashed and is recycled first when freed.
func (c *kvCache) register(b int32, h uint64) {
	if !c.caching || c.hashed[b] {
		return
	}
	if _, ok := c.byHash[h]; ok {
		return
	}
	c.byHash[h] = b
	c.hash[b], c.hashed[b] = h, true
}

// used is the number of blocks referenced by at least one request.
func (c *kvCache) used() int { return len(c.ref) - c.numFree }

// check verifies the cache's invariants: refcounts are never negative, a
// block is in the free list exactly when its refcount is 0, uncached free
// blocks precede cached ones, no block has both a hash and an owner, and
// byHash and the blocks agree.
func (c *kvCache) check() error {
	inFree := make([]bool, len(c.ref))
	n, seenHashed := 0, false
	for b := c.next[c.sentinel()]; b != c.sentinel(); b = c.next[b] {
		if inFree[b] {
			return fmt.Errorf("block %d twice in the free list", b)
		}
		inFree[b] = true
		n++
		if c.cached(b) {
			seenHashed = true
		} else if seenHashed {
			return fmt.Errorf("uncached free block %d after a cached one", b)
		}
	}
	if n != c.numFree {
		return fmt.Errorf("free list holds %d blocks, counter says %d", n, c.numFree)
	}
	for b, r := range c.ref {
		switch {
		case r < 0:
			return fmt.Errorf("block %d has refcount %d", b, r)
		case (r == 0) != inFree[b]:
			return fmt.Errorf("block %d has refcount %d but in free list is %t", b, r, inFree[b])
		case c.hashed[b] && c.owner[b] != 0:
			return fmt.Errorf("block %d has both a hash and an owner", b)
		case c.hashed[b] && c.byHash[c.hash[b]] != int32(b):
			return fmt.Errorf("block %d holds hash %x mapped to block %d", b, c.hash[b], c.byHash[c.hash[b]])
		}
	}
	for h, b := range c.byHash {
		if !c.hashed[b] || c.hash[b] != h {
			return fmt.Errorf("hash %x maps to block %d that does not hold it", h, b)
		}
	}
	return nil
}
