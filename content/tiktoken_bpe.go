package content

// encodePiece appends the ids of one piece of split text. As in tiktoken,
// a piece that is a token is that token; other pieces are merged.
func (t *tiktoken) encodePiece(piece string, sc *mergeScratch, ids []int) []int {
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
	ids = bpeMerge(&joiner{byteIDs: &t.bytes, ranks: t.ranks}, piece, sc, ids)
	t.cache.put(piece, ids[start:])
	return ids
}
