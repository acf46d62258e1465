package virtual

import (
	"math/rand/v2"
	"testing"
)

// TestBlockSet holds the set to a map over hashes that collide in their
// low bits, repeat, and include 0.
func TestBlockSet(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	var s blockSet
	want := map[uint64]bool{}
	for i := range 100_000 {
		h := r.Uint64()
		switch i % 4 {
		case 1:
			h <<= 10 // the same low bits: long probe runs
		case 2:
			h = uint64(i % 5000) // repeats, and 0
		}
		if s.has(h) != want[h] {
			t.Fatalf("step %d: has(%d) = %v before adding, want %v", i, h, s.has(h), want[h])
		}
		s.add(h)
		want[h] = true
		if !s.has(h) {
			t.Fatalf("step %d: %d added but not held", i, h)
		}
	}
	n := s.n
	if s.zero {
		n++
	}
	if n != len(want) {
		t.Errorf("%d hashes held, want %d", n, len(want))
	}
	for range 10_000 {
		if h := r.Uint64(); s.has(h) != want[h] {
			t.Fatalf("has(%d) = %v, want %v", h, s.has(h), want[h])
		}
	}
}
