package workload

import (
	"math/rand/v2"

	"surge/content"
	"surge/trace"
)

// duplicate makes session s of client ci, a single request, a
// near-duplicate of an earlier one with the share the client's duplicates
// give: it draws, with the session's generator after everything else, the
// earlier session (one of the last Within), rebuilds that session's
// request from its own seed, so the copy depends only on (seed, client,
// the two indices), and changes Tokens tokens of its prompt at Edit with
// fresh text in the request's style and language. A prompt that cannot be
// edited at its exact length leaves s as it was.
func (b *builder) duplicate(ci int, s *trace.Session) {
	c := &b.g.clients[ci]
	d := c.Duplicates
	if d == nil || c.data != nil || s.Index == 0 || len(s.Turns) != 1 || b.rng.Float64() >= d.Share {
		return
	}
	j := s.Index - 1 - b.rng.IntN(min(d.Within, s.Index))
	seed := b.rng.Uint64()
	orig, err := b.build(ci, j, s.AtUS)
	if err != nil {
		return // only a dataset's build fails, and a dataset client has no duplicates
	}
	t := orig.Turns[0]
	if !b.g.noText && d.Edit != content.WhereNone {
		r := rand.New(rand.NewPCG(seed, uint64(j)))
		fill := func(dst []byte, n int) []byte { return b.prompt(dst, r, &t, n) }
		p, ok := content.NearDuplicate(b.g.tok, t.Prompt, d.Edit, d.Tokens, fill)
		if !ok {
			return
		}
		t.Prompt = p
	}
	t.DuplicateOf = &j
	s.Turns[0] = t
}
