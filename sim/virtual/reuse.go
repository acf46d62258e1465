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
// and document pairs is not one sequence whose prefix others share.
func ImpliedReuse(sessions []*trace.Session, blockTokens int) trace.Reuse {
	r := trace.Reuse{BlockTokens: blockTokens}
	hs := &hasher{bt: blockTokens, bb: textRatio(sessions, blockTokens)}
	var seen blockSet
	var msgs []message
	for i, s := range sessions {
		sr := newSessionRun(job{sess: s, key: i}, true, false)
		for k := range s.Turns {
			msgs = sr.messages(msgs, k)
			if openai.Pools(s.API) {
				sr.leave(k)
				r.Prompt += int64(promptLen(msgs))
				continue
			}
			hashes := sr.hashes(hs, msgs, k)
			sr.leave(k)
			hit := 0
			for hit < len(hashes) && seen.has(hashes[hit]) {
				hit++
			}
			for _, h := range hashes[hit:] {
				seen.add(h)
			}
			r.Prompt += int64(promptLen(msgs))
			r.Cached += int64(hit * blockTokens)
		}
	}
	return r
}
