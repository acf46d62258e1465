package virtual

import (
	"hash/crc64"

	"surge/trace"
)

// crcTable is read-only after init.
var crcTable = crc64.MakeTable(crc64.ECMA)

// blockBytes returns B, the bytes of prompt text standing for one KV block
// of blockTokens tokens across the whole workload:
//
//	B = round(blockTokens · Σ len(prompt) / Σ InputTokens), at least 1,
//
// or 0 when no turn has prompt text (prefix hashes are then not computed).
func blockBytes(sessions []*trace.Session, blockTokens int) int {
	var bytes, tokens int64
	for _, s := range sessions {
		for i := range s.Turns {
			t := &s.Turns[i]
			if t.Prompt != "" && t.InputTokens > 0 {
				bytes += int64(len(t.Prompt))
				tokens += int64(t.InputTokens)
			}
		}
	}
	if tokens == 0 {
		return 0
	}
	return max(1, int((int64(blockTokens)*bytes+tokens/2)/tokens))
}

// blockHashes returns the chained hash of each full block of prompt: block
// b's hash is the CRC-64 of prompt[0 : (b+1)·bb], so equal prefixes give
// equal hashes. It gives at most min(⌊len(prompt)/bb⌋, ⌊tokens/blockTokens⌋)
// hashes, and nil when there are none (caching off for the request).
func blockHashes(prompt string, bb, tokens, blockTokens int) []uint64 {
	if bb <= 0 || blockTokens <= 0 {
		return nil
	}
	n := min(len(prompt)/bb, tokens/blockTokens)
	if n <= 0 {
		return nil
	}
	out := make([]uint64, n)
	text := []byte(prompt[:n*bb]) // one copy, not one per block
	var h uint64
	for b := range n {
		h = crc64.Update(h, crcTable, text[b*bb:(b+1)*bb])
		out[b] = h
	}
	return out
}
