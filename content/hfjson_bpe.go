package content

import (
	"fmt"
	"math"
)

// maxTokenID bounds the ids LoadHF accepts, which index a decoding table;
// real vocabularies stay under a million.
const maxTokenID = 1 << 22

// noRank marks a BPE node that cannot merge with its successor.
const noRank = math.MaxInt32

// mergeRule is one line of model.merges: its rank (line number; lower
// merges first) and the id of the token the pair becomes.
type mergeRule struct {
	rank, id int32
}

// bpeModel is a byte-level BPE model with its vocabulary keyed by raw
// bytes rather than by the byte-level alphabet.
type bpeModel struct {
	cache        pieceCache           // results of merging pieces
	vocab        map[string]int32     // raw bytes of a token → id
	byteIDs      [256]int32           // id of each single byte
	merges       map[uint64]mergeRule // pairKey(left, right) → rule
	ignoreMerges bool                 // a piece in vocab is one token
}

// pairKey packs the ids of two adjacent tokens into one map key.
func pairKey(left, right int32) uint64 {
	return uint64(uint32(left))<<32 | uint64(uint32(right))
}

// newBPEModel builds the model from model.vocab and model.merges, both
// written in the byte-level alphabet a. It also returns the decoding table:
// the raw bytes of each id (entries outside the alphabet as written).
func newBPEModel(m *hfModel, a *byteAlphabet) (*bpeModel, []string, error) {
	b := &bpeModel{vocab: make(map[string]int32, len(m.Vocab)), ignoreMerges: m.IgnoreMerges}
	n := 0
	for tok, id := range m.Vocab {
		if id < 0 || id >= maxTokenID {
			return nil, nil, fmt.Errorf("tokenizer.json: model.vocab[%q]: id %d out of range [0, %d)", tok, id, maxTokenID)
		}
		n = max(n, id+1)
	}
	pieces := make([]string, n)
	for tok, id := range m.Vocab {
		// An entry outside the alphabet can never come out of byte-level
		// pre-tokenization, so it is only decoded, never encoded.
		raw, ok := a.decode(tok)
		if !ok {
			pieces[id] = tok
			continue
		}
		b.vocab[raw] = int32(id)
		pieces[id] = raw
	}
	for c := range 256 {
		id, ok := b.vocab[string([]byte{byte(c)})]
		if !ok {
			return nil, nil, fmt.Errorf("tokenizer.json: model.vocab lacks the byte-level token %q for byte 0x%02X", string(a.runes[c]), c)
		}
		b.byteIDs[c] = id
	}
	merges, err := mergeRules(m)
	if err != nil {
		return nil, nil, err
	}
	b.merges = merges
	return b, pieces, nil
}

// mergeRules indexes model.merges by the ids of the pair. As in the
// Hugging Face library, a pair listed twice keeps its last rank.
func mergeRules(m *hfModel) (map[uint64]mergeRule, error) {
	rules := make(map[uint64]mergeRule, len(m.Merges))
	for i, pair := range m.Merges {
		var ids [3]int32
		for j, tok := range [3]string{pair[0], pair[1], pair[0] + pair[1]} {
			id, ok := m.Vocab[tok]
			if !ok {
				return nil, fmt.Errorf("tokenizer.json: model.merges[%d] %q %q: token %q is not in model.vocab", i, pair[0], pair[1], tok)
			}
			ids[j] = int32(id)
		}
		rules[pairKey(ids[0], ids[1])] = mergeRule{rank: int32(i), id: ids[2]}
	}
	return rules, nil
}

// encodePiece appends the ids of one pre-tokenized piece (raw bytes):
// bpeMerge with model.merges' rules, starting from one token per byte.
func (b *bpeModel) encodePiece(piece string, sc *mergeScratch, ids []int) []int {
	switch {
	case len(piece) == 0:
		return ids
	case len(piece) == 1:
		return append(ids, int(b.byteIDs[piece[0]]))
	case b.ignoreMerges:
		if id, ok := b.vocab[piece]; ok {
			return append(ids, int(id))
		}
	}
	if cached, ok := b.cache.get(piece); ok {
		for _, id := range cached {
			ids = append(ids, int(id))
		}
		return ids
	}
	start := len(ids)
	ids = bpeMerge(&joiner{byteIDs: &b.byteIDs, merges: b.merges}, piece, sc, ids)
	b.cache.put(piece, ids[start:])
	return ids
}
