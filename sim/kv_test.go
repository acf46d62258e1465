package sim

import (
	"slices"
	"testing"
)

func TestKVCacheEvictionOrder(t *testing.T) {
	t.Parallel()
	c := newKVCache(4, 16, true)
	// Two sequences of two blocks each; A's blocks are cached, then freed
	// first, then B's: the free list must hold A's before B's, each
	// sequence's tail block before its head.
	a := c.allocate(nil, 2)
	b := c.allocate(nil, 2)
	for i, h := range []uint64{10, 11} {
		c.register(a[i], h)
	}
	for i, h := range []uint64{20, 21} {
		c.register(b[i], h)
	}
	c.release(a)
	c.release(b)
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		reason    string
		hashes    []uint64
		hits      int
		idle      int
		evictable bool
	}{
		{reason: "A's prefix is cached and idle", hashes: []uint64{10, 11, 99}, hits: 2, idle: 2},
		{reason: "a miss stops the chain", hashes: []uint64{99, 11}, hits: 0},
		{reason: "B's first block only", hashes: []uint64{20, 98}, hits: 1, idle: 1},
	}
	for _, tt := range tests {
		hits, idle := c.lookup(tt.hashes, len(tt.hashes))
		if hits != tt.hits || idle != tt.idle {
			t.Errorf("%s: lookup %v = %d hits %d idle, want %d %d", tt.reason, tt.hashes, hits, idle, tt.hits, tt.idle)
		}
	}
	// Allocating one block evicts A's tail (hash 11), the least recently
	// freed; A's head 10 stays.
	got := c.allocate(nil, 1)
	if !slices.Equal(got, a[1:2]) {
		t.Errorf("evicted block %v, want A's tail %v", got, a[1])
	}
	if h, _ := c.lookup([]uint64{10, 11}, 2); h != 1 {
		t.Errorf("after one eviction A's chain hits %d blocks, want 1", h)
	}
	// Acquiring B's head as a hit takes it off the free list; the next
	// allocation evicts A's head, then B's tail.
	c.acquire(nil, []uint64{20})
	got = c.allocate(nil, 2)
	if want := []int32{a[0], b[1]}; !slices.Equal(got, want) {
		t.Errorf("evicted %v, want %v", got, want)
	}
	if !c.canAllocate(0, 0) || c.canAllocate(1, 0) {
		t.Errorf("pool should be exactly full, %d free", c.numFree)
	}
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
}

func TestKVCacheUnhashedFirstAndDuplicates(t *testing.T) {
	t.Parallel()
	c := newKVCache(3, 16, true)
	x := c.allocate(nil, 3)
	c.register(x[0], 1)
	c.register(x[1], 1) // duplicate hash: x[1] stays unhashed
	c.release(x[:1])
	c.release(x[1:])
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	// Unhashed blocks (x[1], x[2]) are reused before the cached x[0].
	got := c.allocate(nil, 2)
	if slices.Contains(got, x[0]) {
		t.Errorf("allocation %v evicted cached block %d while free ones remained", got, x[0])
	}
	if h, _ := c.lookup([]uint64{1}, 1); h != 1 {
		t.Error("hash 1 lost")
	}
	// Caching off: nothing is registered or found.
	off := newKVCache(2, 16, false)
	y := off.allocate(nil, 1)
	off.register(y[0], 5)
	off.release(y)
	if h, _ := off.lookup([]uint64{5}, 1); h != 0 || off.hashed[y[0]] {
		t.Error("cache off still registered a hash")
	}
}

// TestKVCacheOwnedBlocks: blocks kept for their owner at a preemption go
// to the back of the free list, behind uncached blocks; the owner takes
// back its leading ones still free, up to the first one reused; taking a
// block or reallocating it forgets its owner; with caching off nothing is
// kept.
func TestKVCacheOwnedBlocks(t *testing.T) {
	t.Parallel()
	c := newKVCache(6, 16, true)
	seqA := c.allocate(nil, 3)
	other := c.allocate(nil, 1)
	c.keep(seqA, 7)
	c.release(seqA)
	c.release(other)
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	if n := c.ownedIdle(seqA, 0, 7); n != 3 {
		t.Errorf("owner finds %d of its 3 blocks, want 3", n)
	}
	if n := c.ownedIdle(seqA, 0, 8); n != 0 {
		t.Errorf("another owner finds %d blocks, want 0", n)
	}
	// Four blocks allocated are the two never used and the freed uncached
	// one, then A's tail, its least recently freed block.
	got := c.allocate(nil, 4)
	if slices.Contains(got, seqA[0]) || slices.Contains(got, seqA[1]) || !slices.Contains(got, seqA[2]) {
		t.Errorf("allocated %v, want A's tail %d evicted and its head %v kept", got, seqA[2], seqA[:2])
	}
	if n := c.ownedIdle(seqA, 0, 7); n != 2 {
		t.Errorf("after its tail was reused the owner finds %d blocks, want 2", n)
	}
	// Forgetting an owner's blocks (it was aborted while waiting) moves
	// them to the front, to be reused before cached blocks.
	c2 := newKVCache(3, 16, true)
	x := c2.allocate(nil, 3)
	c2.keep(x[:2], 9)
	c2.release(x)
	c2.forget(x[:2], 9)
	if n := c2.ownedIdle(x, 0, 9); n != 0 || c2.cached(x[0]) || c2.cached(x[1]) {
		t.Errorf("after forget the owner finds %d blocks", n)
	}
	if err := c2.check(); err != nil {
		t.Fatal(err)
	}
	back := c.take(nil, seqA[:2])
	if c.owner[back[0]] != 0 || c.ref[back[0]] != 1 {
		t.Errorf("a block taken back keeps owner %d, refcount %d", c.owner[back[0]], c.ref[back[0]])
	}
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	off := newKVCache(2, 16, false)
	y := off.allocate(nil, 1)
	off.keep(y, 7)
	off.release(y)
	if n := off.ownedIdle(y, 0, 7); n != 0 {
		t.Errorf("caching off: the owner finds %d blocks, want 0", n)
	}
}
