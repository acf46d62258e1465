package virtual

import (
	"surge/openai"
	"surge/trace"
)

// ImpliedReuse returns the reuse sessions imply with blocks of blockTokens
// tokens. Each turn's prompt is built and hashed as Run does, with pinned
// replies (for a live client, the replies of the planned lengths), and its
// cached tokens are its leading full blocks already held by an earlier
// prompt, turns taken in trace order (sessions as given, turns by index).
// So it counts what sharing the workload itself holds, conversations
// re-sending their history and shared system prompts, and not what a
// server can add by also caching generated tokens or lose by evicting.
// The prompts of embeddings, rerank and score requests count with none
// cached, as Run never prefix-caches them: a batch of texts or of query
// and document pairs is not one sequence whose prefix others share. It
// reports false, the figure unknown, for sessions of more than
// MaxReuseBlocks distinct blocks.
func ImpliedReuse(sessions []*trace.Session, blockTokens int) (trace.Reuse, bool) {
	rc := NewReuseCounter(blockTokens, tally(sessions))
	for _, s := range sessions {
		rc.Add(s)
	}
	return rc.Reuse()
}

// MaxReuseBlocks bounds the distinct blocks a ReuseCounter remembers,
// 2²⁶ (a table of 1 GiB at most): an unbounded cache's hits need every block seen,
// and a workload of hundreds of millions of blocks would hold more memory
// for this one figure than its whole simulation.
const MaxReuseBlocks = 1 << 26

// ReuseCounter is ImpliedReuse for sessions given one by one, in trace
// order: Add each, then Reuse.
type ReuseCounter struct {
	r    trace.Reuse
	hs   *hasher
	seen blockSet
	msgs []message
	n    int  // sessions added
	over bool // more than MaxReuseBlocks blocks: the figure is not known
}

// NewReuseCounter counts reuse in blocks of blockTokens tokens, naming
// text blocks as Run does for sessions whose text text tallies.
func NewReuseCounter(blockTokens int, text TextTally) *ReuseCounter {
	return &ReuseCounter{r: trace.Reuse{BlockTokens: blockTokens}, hs: &hasher{bt: blockTokens, bb: text.ratio(blockTokens)}}
}

// Add counts the prompts of s.
func (rc *ReuseCounter) Add(s *trace.Session) {
	sr := newSessionRun(job{sess: s, key: rc.n}, true, false)
	rc.n++
	for k := range s.Turns {
		rc.msgs = sr.messages(rc.msgs, k)
		if openai.Pools(s.API) {
			sr.leave(k)
			rc.r.Prompt += int64(promptLen(rc.msgs))
			continue
		}
		hashes := sr.hashes(rc.hs, rc.msgs, k)
		sr.leave(k)
		hit := 0
		for hit < len(hashes) && rc.seen.has(hashes[hit]) {
			hit++
		}
		if rc.seen.n+len(hashes)-hit > MaxReuseBlocks {
			rc.over = true
		}
		if !rc.over {
			for _, h := range hashes[hit:] {
				rc.seen.add(h)
			}
		}
		rc.r.Prompt += int64(promptLen(rc.msgs))
		rc.r.Cached += int64(hit * rc.hs.bt)
	}
}

// Reuse returns the reuse of the sessions added, and false when they
// held more than MaxReuseBlocks distinct blocks, too many to tell.
func (rc *ReuseCounter) Reuse() (trace.Reuse, bool) {
	if rc.over {
		rc.seen = blockSet{} // free it
	}
	return rc.r, !rc.over
}
