package fit

import (
	"fmt"
	"math"

	"surge/trace"
)

// prefixes tracks the prompt prefixes a client's sessions have sent, to
// measure how much of each new session's first prompt an unbounded
// prefix cache would hold: its leading content blocks already sent (an
// imported trace's blocks), or its system prompt when a session before
// drew the same one (a generated trace's pool). Only the first turn of a
// session counts; later turns share their own history, which a spec's
// sessions reproduce themselves.
type prefixes struct {
	seen  map[uint64]bool
	heads map[uint64]int // first prompts by the hash of their first block
	// Head is the hash of each first prompt's first block (its system
	// prompt, or first content block); 0 for a prompt of its own alone.
	Head []uint64
	// Hits are the shared tokens of each first prompt that shares any;
	// Rest the rest of those prompts.
	Hits, Rest []float64
	// Shared and Total are the shared tokens and all tokens of the first
	// prompts.
	Shared, Total float64
	// N counts the first prompts.
	N int
}

// add measures the first turn t of a session.
func (p *prefixes) add(t *trace.Turn) {
	if p.seen == nil {
		p.seen, p.heads = map[uint64]bool{}, map[uint64]int{}
	}
	p.N++
	p.Total += float64(t.InputTokens)
	hit, h, open := 0, uint64(0xcbf29ce484222325), true
	if t.SystemID > 0 {
		h = mix64(h ^ uint64(t.SystemID))
		if open = p.seen[h]; open {
			hit = t.SystemTokens
		}
		p.seen[h] = true
	}
	for _, b := range t.Blocks {
		h = mix64(h ^ mix64(b+1))
		if open = open && p.seen[h]; open {
			hit += t.BlockTokens
		}
		p.seen[h] = true
	}
	head := uint64(0)
	switch {
	case t.SystemID > 0:
		head = mix64(0xcbf29ce484222325 ^ uint64(t.SystemID))
	case len(t.Blocks) > 0:
		head = mix64(0xcbf29ce484222325 ^ mix64(t.Blocks[0]+1))
	}
	p.Head = append(p.Head, head)
	if head != 0 {
		p.heads[head]++
	}
	if hit > 0 {
		hit = min(hit, t.InputTokens)
		p.Hits, p.Rest = append(p.Hits, float64(hit)), append(p.Rest, float64(t.InputTokens-hit))
		p.Shared += float64(hit)
	}
}

// Shares reports whether first prompt i shares a prefix with another
// first prompt, before or after it: any sharing starts at the first
// block.
func (p *prefixes) Shares(i int) bool {
	return p.Head[i] != 0 && p.heads[p.Head[i]] > 1
}

// merge adds the measures of q, another client's, to p: their prompts
// share nothing across clients.
func (p *prefixes) merge(q *prefixes) {
	p.Shared, p.Total, p.N = p.Shared+q.Shared, p.Total+q.Total, p.N+q.N
	p.Hits, p.Rest = append(p.Hits, q.Hits...), append(p.Rest, q.Rest...)
}

// Reuse is the share of the first prompts' tokens an earlier first prompt
// held, 0 without prompts.
func (p *prefixes) Reuse() float64 {
	if p.Total == 0 {
		return 0
	}
	return p.Shared / p.Total
}

// mix64 is the SplitMix64 finaliser.
func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// MinReuse is the least reuse of a client's first prompts for which Spec
// states a prefix pool.
const MinReuse = 0.01

// PrefixFit is a client's sharing of prompt prefixes as a spec states
// it: a pool of shared system prompts, each session drawing one
// uniformly, its prompt the system prompt and a rest.
type PrefixFit struct {
	// Pool is the number of entries: as many as make the share of
	// sessions that draw an entry drawn before the trace's share of
	// first prompts that share a prefix (less poolTolerance).
	Pool int
	// Length is the law of an entry's tokens, fitted to the shared
	// tokens of the prompts that share; Rest that of the rest of their
	// prompts, which replaces the client's input law.
	Length, Rest Length
	// Share is the trace's share of first prompts that share a prefix,
	// and Reuse the share of their tokens that are shared.
	Share, Reuse float64
}

// FitPrefix fits the prefix sharing of p's prompts, or returns nil when
// their reuse is below MinReuse.
func FitPrefix(p *prefixes) (*PrefixFit, error) {
	if p.N == 0 || p.Reuse() < MinReuse || len(p.Hits) == 0 {
		return nil, nil
	}
	f := &PrefixFit{Share: float64(len(p.Hits)) / float64(p.N), Reuse: p.Reuse()}
	f.Pool = poolFor(math.Max(f.Share-poolTolerance, 0), p.N)
	var err error
	if f.Length, err = fitAny(p.Hits); err != nil {
		return nil, fmt.Errorf("fitting the shared prefixes: %w", err)
	}
	rest := make([]float64, len(p.Rest))
	for i, r := range p.Rest {
		rest[i] = math.Max(r, 1)
	}
	if f.Rest, err = fitAny(rest); err != nil {
		return nil, fmt.Errorf("fitting the prompts after their prefixes: %w", err)
	}
	return f, nil
}

// poolTolerance is how far below the trace's share of sharing prompts
// FitPrefix lets the pool's share of repeated draws fall, so that a
// trace whose every prompt shares (one system prompt in all) gets a pool
// large enough to hold the spread of its shared lengths: for n draws
// about 1% of n entries rather than one.
const poolTolerance = 0.01

// poolFor returns the pool size P for which n uniform draws repeat an
// earlier draw with the given share: the draws are first draws of
// P(1 − (1 − 1/P)ⁿ) entries on average, so the share repeated is
// 1 − P(1 − (1 − 1/P)ⁿ)/n, which falls from 1 − 1/n at P = 1 as P grows.
func poolFor(share float64, n int) int {
	repeated := func(p float64) float64 {
		return 1 - p*(-math.Expm1(float64(n)*math.Log1p(-1/p)))/float64(n)
	}
	if p := 1.0; share >= repeated(p) {
		return 1
	}
	lo, hi := 1.0, float64(n)*1e3
	for range 100 {
		mid := math.Sqrt(lo * hi)
		if repeated(mid) > share {
			lo = mid
		} else {
			hi = mid
		}
	}
	return int(math.Round(min(hi, 1e6)))
}
