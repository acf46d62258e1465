package virtual

// blockSet is a set of block hashes: open addressing with linear probing
// over a power-of-two table kept at most half full, the hash's own low
// bits as the slot (block hashes are uniformly mixed already), 0 marking
// an empty slot and held apart. ImpliedReuse adds millions of hashes to
// one, a few times faster than a map.
type blockSet struct {
	slots []uint64
	n     int
	zero  bool // whether hash 0 is in the set
}

// has reports whether h is in the set.
func (s *blockSet) has(h uint64) bool {
	if h == 0 {
		return s.zero
	}
	return len(s.slots) > 0 && s.slots[s.slot(h)] == h
}

// add puts h in the set.
func (s *blockSet) add(h uint64) {
	if h == 0 {
		s.zero = true
		return
	}
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	if i := s.slot(h); s.slots[i] == 0 {
		s.slots[i] = h
		s.n++
	}
}

// slot is where h is, or else the empty slot its probe ends at; the
// table has one.
func (s *blockSet) slot(h uint64) uint64 {
	mask := uint64(len(s.slots) - 1)
	i := h & mask
	for s.slots[i] != h && s.slots[i] != 0 {
		i = (i + 1) & mask
	}
	return i
}

// grow doubles the table (from 1,024 slots) and places the hashes again.
func (s *blockSet) grow() {
	old := s.slots
	s.slots = make([]uint64, max(2*len(old), 1024))
	for _, h := range old {
		if h != 0 {
			s.slots[s.slot(h)] = h
		}
	}
}
