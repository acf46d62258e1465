package virtual

import "surge/trace"

// A turn's prompt often begins with an earlier turn's of its session: a
// turn continuing a conversation with its parent's whole prompt, and an
// imported turn described by content blocks with the leading blocks it
// shares with the previous request of its stream, its first dependency.
// Its hashes then copy that turn's for the shared blocks and hash only
// the rest, so that replaying a conversation costs hashing linear in its
// length rather than in the sum of its prompts.

// source returns the turn whose prompt turn k's begins with, or −1: its
// parent; or, for a turn starting a conversation with content blocks, its
// first dependency if that starts one with the same system prompt, blocks
// of the same size and the same first block. A plain run takes parents
// alone.
func source(s *trace.Session, k int, plain bool) int {
	t := &s.Turns[k]
	if t.Parent != nil {
		return *t.Parent
	}
	if plain || len(t.Blocks) == 0 || len(t.After) == 0 {
		return -1
	}
	p := t.After[0]
	if p < 0 || p >= k {
		return -1 // an invalid session, which Run refuses anyway
	}
	pt := &s.Turns[p]
	if pt.Parent != nil || len(pt.Blocks) == 0 || pt.Blocks[0] != t.Blocks[0] ||
		pt.BlockTokens != t.BlockTokens || !sameSystem(pt, t) {
		return -1
	}
	return p
}

// sameSystem reports whether turns a and b, both starting a conversation,
// begin with the same system prompt: none, or one pool entry of the same
// length. (A system prompt of a turn's own is never shared.)
func sameSystem(a, b *trace.Turn) bool {
	if a.SystemTokens != b.SystemTokens {
		return false
	}
	return a.SystemTokens == 0 || (a.SystemID > 0 && a.SystemID == b.SystemID)
}

// prefix returns the leading hashes, of KV blocks of bt tokens, that turn
// k's prompt shares with its source's, which the source keeps until k is
// sent: all of a parent's, whose prompt begins k's; for content blocks,
// those of the full KV blocks within the system prompt and the L leading
// blocks both turns name alike,
//
//	⌊(SystemTokens + L·BlockTokens) / bt⌋,
//
// whatever the alignment of content blocks to KV blocks: every token
// before SystemTokens + L·BlockTokens is named by the same (content,
// offset) in both prompts, and a KV block's hash depends on its tokens'
// names and the hashes before it alone.
func (sr *sessionRun) prefix(k, bt int) []uint64 {
	src := sr.turns[k].src
	if src < 0 {
		return nil
	}
	h := sr.turns[src].hashes
	t := &sr.s.Turns[k]
	if t.Parent != nil {
		return h
	}
	l := commonPrefix(sr.s.Turns[src].Blocks, t.Blocks)
	return h[:min(len(h), (t.SystemTokens+l*t.BlockTokens)/bt)]
}

// commonPrefix returns how many leading ids a and b have in common.
func commonPrefix(a, b []uint64) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// hashes returns the block hashes of turn k's prompt msgs, continuing its
// source's, and keeps them while turns whose source k is need them.
func (sr *sessionRun) hashes(hs *hasher, msgs []message, k int) []uint64 {
	h := hs.hashes(msgs, sr.prefix(k, hs.bt))
	if sr.turns[k].heirs > 0 {
		sr.turns[k].hashes = h
	}
	return h
}
