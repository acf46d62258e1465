package virtual

import "hash/crc64"

// crcTable is read-only after init.
var crcTable = crc64.MakeTable(crc64.ECMA)

// message is one message of a prompt as the prefix cache sees it: a run
// of tokens whose content is named by id, or by text when text is set.
type message struct {
	tokens int
	// id names the content of the message's tokens; for a message named
	// by its text it names the tokens past the end of the text, which
	// belong to this message alone.
	id   uint64
	text string
	role uint64 // kindUser or kindSystem, for a message named by its text
}

// hasher computes the block hashes of prompts given as messages.
type hasher struct {
	bt  int    // tokens per KV block
	bb  int    // bytes of text per KV block, 0 when no message has text
	buf []byte // scratch for checksumming text
}

// hashes returns the chained hash of each full block of the prompt msgs,
// ⌊Σ tokens / bt⌋ of them. Token i of message m is named by (m's content,
// i), and block b's hash is
//
//	h_b = mix(h_{b−1}, the segments of block b),   h_{−1} = 0,
//
// where a segment is the longest run of the block's tokens within one
// message, named by the message's content and the run's offsets [from,
// to) in it. Two prompts whose tokens are named alike up to the end of
// block b therefore have equal hashes up to b, and a block straddling two
// messages depends on both. Messages of no tokens add nothing.
//
// prefix, when not nil, holds the hashes of a prompt whose messages begin
// msgs (a parent turn's): its blocks are copied, not hashed again.
func (hs *hasher) hashes(msgs []message, prefix []uint64) []uint64 {
	n := promptLen(msgs) / hs.bt
	if n == 0 || len(prefix) > n {
		return nil
	}
	out := make([]uint64, n)
	b := copy(out, prefix)
	var h uint64
	if b > 0 {
		h = out[b-1]
	}
	// Find the message holding token b·bt, the first one to hash.
	i, off := 0, b*hs.bt
	for i < len(msgs) && off >= msgs[i].tokens {
		off -= msgs[i].tokens
		i++
	}
	for ; b < n; b++ {
		for need := hs.bt; need > 0; {
			m := &msgs[i]
			take := min(need, m.tokens-off)
			h = mix(h, hs.segment(m, off, off+take))
			off += take
			need -= take
			for i < len(msgs) && off == msgs[i].tokens {
				i, off = i+1, 0
			}
		}
		out[b] = h
	}
	return out
}

// segment names tokens [from, to) of m. A message named by its text maps
// token offset o to byte o·bb/bt; the tokens past the end of its text, if
// any, are named by m.id as well.
func (hs *hasher) segment(m *message, from, to int) uint64 {
	pos := uint64(from)<<32 | uint64(uint32(to))
	if m.text == "" || hs.bb == 0 {
		return mix(m.id, pos)
	}
	a, z := hs.byteAt(from), hs.byteAt(to)
	c := len(m.text)
	hs.buf = append(hs.buf[:0], m.text[min(a, c):min(z, c)]...)
	v := mix(m.role^crc64.Checksum(hs.buf, crcTable), pos)
	if z > c {
		v = mix(v, m.id)
	}
	return v
}

// byteAt is the byte offset of token offset o in a message's text.
func (hs *hasher) byteAt(o int) int {
	return int(int64(o) * int64(hs.bb) / int64(hs.bt))
}

// ident names content of kind by two numbers.
func ident(kind, a, b uint64) uint64 {
	return mix(mix(kind, a), b)
}

// mix combines hash h with value v: the SplitMix64 finaliser (a bijection
// of 64-bit words) of h ⊕ finaliser(v + φ), φ = 2⁶⁴/golden ratio, so that
// every bit of either input affects every bit of the result.
func mix(h, v uint64) uint64 {
	return fmix(h ^ fmix(v+0x9e3779b97f4a7c15))
}

// fmix is the SplitMix64 finaliser.
func fmix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
