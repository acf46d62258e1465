package content

import "sync"

// Bounds of pieceCache: pieces longer than maxCachedPiece bytes are rare
// enough to repeat that caching them is not worth the memory, and the map
// is emptied when it reaches maxCachedPieces entries, so it never holds more
// than about maxCachedPieces × (maxCachedPiece + 64) bytes (about 4 MB).
const (
	maxCachedPiece  = 48
	maxCachedPieces = 1 << 15
)

// pieceCache remembers the BPE ids of pre-tokenized pieces. Text repeats its
// words, so most pieces are looked up rather than merged again.
type pieceCache struct {
	mu  sync.Mutex         // guards ids
	ids map[string][]int32 // piece (raw bytes) → its token ids
}

// get returns the cached ids of piece.
func (c *pieceCache) get(piece string) ([]int32, bool) {
	if len(piece) > maxCachedPiece {
		return nil, false
	}
	c.mu.Lock()
	ids, ok := c.ids[piece]
	c.mu.Unlock()
	return ids, ok
}

// put records the ids of piece, emptying the cache first if it is full.
func (c *pieceCache) put(piece string, ids []int) {
	if len(piece) > maxCachedPiece {
		return
	}
	stored := make([]int32, len(ids))
	for i, id := range ids {
		stored[i] = int32(id)
	}
	c.mu.Lock()
	if c.ids == nil || len(c.ids) >= maxCachedPieces {
		c.ids = make(map[string][]int32)
	}
	c.ids[piece] = stored
	c.mu.Unlock()
}
