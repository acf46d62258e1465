package workload

import (
	"math/rand/v2"

	"surge/dist"
	"surge/spec"
)

// prefixStream labels the generators of system prompts, apart from those
// of sessions and arrivals.
const prefixStream uint64 = 0x70726566 // "pref"

// systemPrompt is one entry of a client's pool of shared system prompts.
type systemPrompt struct {
	tokens int
	text   string
}

// pool holds a client's shared system prompts, each built on first use
// from its own generator, so an entry depends only on (seed, client,
// entry) whichever sessions use it.
type pool struct {
	entries []*systemPrompt
	pick    dist.Dist // 1-based entry by popularity; nil: uniform
}

// newPool prepares the pool of p; the zipf exponent must be ≥ 0.
func newPool(p *spec.Prefix) (*pool, error) {
	pl := &pool{entries: make([]*systemPrompt, p.Pool)}
	if p.Zipf > 0 && p.Pool > 1 {
		d, err := dist.New("zipf", dist.Params{"s": p.Zipf, "n": float64(p.Pool)})
		if err != nil {
			return nil, err
		}
		pl.pick = d
	}
	return pl, nil
}

// system draws the session's system prompt from c's pool with the
// session's generator, returning its 1-based index; (0, nil) when the
// client has no pool.
func (b *builder) system(c *client) (int, *systemPrompt) {
	if c.pool == nil {
		return 0, nil
	}
	i := 0
	switch n := len(c.pool.entries); {
	case c.pool.pick != nil:
		i = int(c.pool.pick.Sample(b.rng)) - 1
	case n > 1:
		i = b.rng.IntN(n)
	}
	if c.pool.entries[i] == nil {
		c.pool.entries[i] = b.buildSystem(c, i)
	}
	return i + 1, c.pool.entries[i]
}

// buildSystem makes entry i of c's pool from its own generator.
func (b *builder) buildSystem(c *client, i int) *systemPrompt {
	r := rand.New(rand.NewPCG(mix(b.g.spec.Seed^prefixStream), mix(c.key^mix(uint64(i)))))
	sp := &systemPrompt{tokens: tokens(c.Prefix.Length.Sample(r))}
	if !b.g.noText {
		sp.text = string(b.g.synth.PromptIn(nil, r, c.text.style, c.text.lang, sp.tokens))
	}
	return sp
}
