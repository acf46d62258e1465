package virtual

// message is one message of a prompt as the prefix cache sees it: a run
// of tokens whose content is named by id, or by text when text is set, or
// a run of imported content blocks when per is set.
type message struct {
	tokens int
	// id names the content of the message's tokens; for a message named
	// by its text it names the tokens past the end of the text, which
	// belong to this message alone.
	id   uint64
	text string
	role uint64 // kindUser or kindSystem, for a message named by its text
	// blocks, when per > 0, are content blocks of per tokens each, and the
	// message their len(blocks)·per tokens: it hashes as one message per
	// block named ident(kindBlock, block, 0) would, without building them.
	blocks []uint64
	per    int
}

// hasher computes the block hashes of prompts given as messages.
type hasher struct {
	bt int // tokens per KV block
	bb int // bytes of text per KV block, 0 when no message has text
	// last is the content block named last and id its name, so that the
	// KV blocks within one content block name it once.
	last *uint64
	id   uint64
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
// prefix, when not nil, holds the leading hashes of msgs, known already
// (a source turn's, see sessionRun.prefix): they are copied, not hashed
// again.
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
	hs.last = nil
	for ; b < n; b++ {
		for need := hs.bt; need > 0; {
			v, take := hs.segment(&msgs[i], off, need)
			h = mix(h, v)
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

// segment names the run of at most need tokens of m from offset from that
// lies within one message (one content block of a run of them), and
// returns that name and the run's length. A message named by its text
// maps token offset o to byte o·bb/bt; the tokens past the end of its
// text, if any, are named by m.id as well.
func (hs *hasher) segment(m *message, from, need int) (uint64, int) {
	if m.per > 0 {
		c := from / m.per
		o := from - c*m.per
		take := min(need, m.per-o)
		if p := &m.blocks[c]; p != hs.last {
			hs.last, hs.id = p, ident(kindBlock, *p, 0)
		}
		return mix(hs.id, span(o, o+take)), take
	}
	to := from + min(need, m.tokens-from)
	if m.text == "" || hs.bb == 0 {
		return mix(m.id, span(from, to)), to - from
	}
	a, z := hs.byteAt(from), hs.byteAt(to)
	c := len(m.text)
	v := mix(m.role^crcString(m.text[min(a, c):min(z, c)]), span(from, to))
	if z > c {
		v = mix(v, m.id)
	}
	return v, to - from
}

// span packs token offsets [from, to) within a message into one word.
func span(from, to int) uint64 {
	return uint64(from)<<32 | uint64(uint32(to))
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
