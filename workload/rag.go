package workload

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"surge/dist"
	"surge/spec"
	"surge/trace"
)

// docStream labels the generators of rag documents, apart from those of
// sessions, arrivals and system prompts.
const docStream uint64 = 0x646f6373 // "docs"

// ragSep follows each retrieved document, before the next one or the
// question. It starts with a space so that it is a pre-tokenizer chunk of
// its own for the BPE tokenizers content.Synth supports: letter, digit and
// punctuation runs stop at whitespace, so the document's last chunk ends
// before it; and " \n\n" is one newline-run chunk, which ends at its last
// newline because the next text starts with a non-space. Hence
//
//	tokens(d₁ + sep + … + d_k + sep + q) = Σ tokens(dᵢ) + k·tokens(sep) + tokens(q),
//
// whereas "\n\n" alone would join a document's final punctuation
// (".\n\n") at a cost that depends on the text. TestRAGSeparatorAdds
// checks this for o200k_base and cl100k_base.
const ragSep = " \n\n"

// rag builds the one request of a rag session of client c: the system
// prompt drawn from the client's pool (if it has one), then one user
// message holding the retrieved documents, most popular first, each
// followed by ragSep, and the question. Its input is the sum of those
// lengths; its output the client's output.
//
// The session's generator draws the system prompt, the question's and
// answer's lengths, the number of documents and which ones, and only then
// the question's text. Each document's length and text come from its own
// generator (seeded by seed, client and rank), so a document is the same
// in every request that retrieves it, and a --no-text trace holds the
// same lengths.
func (b *builder) rag(c *client) []trace.Turn {
	r := c.Session.RAG
	sysID, sys := b.system(c)
	t := b.newTurn(c)
	question := t.InputTokens
	k := min(tokens(r.Chunks.Sample(b.rng)), r.Documents)
	ranks := retrieve(b.rng, r, k, make([]int, 0, k))
	sep := len(b.g.tok.Encode(ragSep))
	b.buf = b.buf[:0]
	for _, rank := range ranks {
		t.InputTokens += b.document(c, rank) + sep
		if !b.g.noText {
			b.buf = append(b.buf, ragSep...)
		}
	}
	if sys != nil {
		t.SystemID, t.SystemTokens, t.System = sysID, sys.tokens, sys.text
		t.InputTokens += sys.tokens
	}
	if !b.g.noText {
		b.buf = b.prompt(b.buf, b.rng, &t, question)
		t.Prompt = string(b.buf)
	}
	return []trace.Turn{t}
}

// document returns the length of the document of c's pool at rank (from
// 1), appending its text to b.buf unless the trace keeps no text. It
// draws from the document's own generator only: the length, then the text.
func (b *builder) document(c *client, rank int) int {
	r := rand.New(rand.NewPCG(mix(b.g.spec.Seed^docStream), mix(c.key^mix(uint64(rank)))))
	n := tokens(c.Session.RAG.Chunk.Sample(r))
	if !b.g.noText {
		b.buf = b.g.synth.PromptIn(b.buf, r, c.text.style, c.text.lang, n)
	}
	return n
}

// retrieve appends to dst k distinct document ranks of the pool of rg,
// 1 ≤ k ≤ rg.Documents, in increasing order (most popular first). The
// ranks are drawn one after another, each among the documents not drawn
// yet with probability ∝ its popularity, using one uniform draw of r each.
func retrieve(r *rand.Rand, rg *spec.RAG, k int, dst []int) []int {
	pick := pickUniform
	if rg.Popularity != nil {
		pick = newPopular(rg.Popularity).pick
	}
	for range k {
		dst = insertSorted(dst, pick(r, rg.Documents, dst))
	}
	return dst
}

// insertSorted inserts x into the increasing slice s.
func insertSorted(s []int, x int) []int {
	i := len(s)
	s = append(s, x)
	for ; i > 0 && s[i-1] > x; i-- {
		s[i] = s[i-1]
	}
	s[i] = x
	return s
}

// pickUniform draws a rank of 1..n not in the increasing slice drawn,
// uniformly: the j-th (from 0) of the n − |drawn| remaining ranks, for j
// uniform, is found by stepping j + 1 past each drawn rank at or below it.
func pickUniform(r *rand.Rand, n int, drawn []int) int {
	x := r.IntN(n-len(drawn)) + 1
	for _, d := range drawn {
		if d > x {
			break
		}
		x++
	}
	return x
}

// popular draws ranks by a popularity distribution on 1..n with
// cumulative probabilities F(0) = 0 ≤ F(1) ≤ … ≤ F(n) = 1.
type popular struct {
	cdf dist.CDFer
	q   dist.Quantiler
}

// newPopular wraps d, a distribution on 1..n such as zipf; it panics if d
// has no CDF or quantile function, which spec.Parse never builds.
func newPopular(d dist.Dist) popular {
	cdf, ok1 := d.(dist.CDFer)
	q, ok2 := d.(dist.Quantiler)
	if !ok1 || !ok2 {
		panic(fmt.Sprintf("workload: popularity %s has no CDF or quantile function", d))
	}
	return popular{cdf, q}
}

// f is F(i).
func (p popular) f(i int) float64 { return p.cdf.CDF(float64(i)) }

// pick draws a rank of 1..n not in the increasing slice drawn, rank i
// with probability P(i) / R, where P(i) = F(i) − F(i−1) and R = 1 − Σ P(d)
// over the drawn d. A uniform v on [0, R) is a point of the CDF with the
// drawn ranks' intervals [F(d−1), F(d)) cut out; putting them back in
// increasing order,
//
//	x = v + Σ P(d) over the drawn d with F(d−1) ≤ x (so far),
//
// is a point of [0, 1) outside every drawn interval, and the rank is the i
// with F(i−1) ≤ x < F(i). Rounding may leave x on the edge of a drawn
// interval; the nearest rank not drawn is taken then.
func (p popular) pick(r *rand.Rand, n int, drawn []int) int {
	rem := 1.0
	for _, d := range drawn {
		rem -= p.f(d) - p.f(d-1)
	}
	x := r.Float64() * rem
	for _, d := range drawn {
		lo := p.f(d - 1)
		if x < lo {
			break
		}
		x += p.f(d) - lo
	}
	i := max(1, int(p.q.Quantile(min(x, 1))))
	if i < n && p.f(i) <= x {
		i++ // Quantile gives the first i with F(i) ≥ x; x = F(i) belongs to i+1
	}
	return undrawn(min(i, n), n, drawn)
}

// undrawn returns i if it is not in the increasing slice drawn, else the
// nearest rank above it not drawn, else the nearest below; drawn must
// leave some rank of 1..n free.
func undrawn(i, n int, drawn []int) int {
	taken := func(x int) bool { _, found := slices.BinarySearch(drawn, x); return found }
	for x := i; x <= n; x++ {
		if !taken(x) {
			return x
		}
	}
	for x := i - 1; x >= 1; x-- {
		if !taken(x) {
			return x
		}
	}
	panic("workload: every document is drawn already")
}
