package workload

import (
	"math/rand/v2"
	"strings"

	"surge/content"
	"surge/trace"
)

// blockStream labels the generators of imported content blocks.
const blockStream uint64 = 0x626c6f63 // "bloc"

// Expander writes prompt text for turns that carry only lengths, such as
// those of an imported trace, so that a trace without text can be sent to
// a server. A turn with content blocks gets, per block, text of exactly
// the block's tokens drawn from the block id alone, so blocks the trace
// says are equal are equal text and a server's prefix cache sees the
// trace's sharing; the rest of its prompt (a tail block, or the turn's
// own content) follows. A turn without blocks gets text of its input
// length drawn from its session and turn. It is safe for concurrent use.
type Expander struct {
	synth *content.Synth
	sep   int // tokens of ragSep, which ends every block
	seed  uint64
}

// NewExpander prepares an expander writing text with synth, whose
// tokenizer is tok, from seed.
func NewExpander(tok content.Tokenizer, synth *content.Synth, seed uint64) *Expander {
	return &Expander{synth: synth, sep: len(tok.Encode(ragSep)), seed: seed}
}

// Prompt returns the text of turn k of s: exactly its input tokens, less
// its system prompt's, in the expander's tokenizer. Each block is text of
// BlockTokens − 1 tokens and ragSep, which keeps the counts of joined
// blocks additive (see ragSep); blocks shorter than the separator are
// written as plain text of their length.
func (e *Expander) Prompt(s *trace.Session, k int) string {
	t := &s.Turns[k]
	var b strings.Builder
	var buf []byte
	for _, id := range t.Blocks {
		buf = e.block(buf[:0], id, t.BlockTokens)
		b.Write(buf)
	}
	rest := t.InputTokens - t.SystemTokens - len(t.Blocks)*t.BlockTokens
	if rest > 0 {
		r := rand.New(rand.NewPCG(mix(e.seed^sessionStream), mix(nameKey(s.Client)^mix(uint64(s.Index))^uint64(k))))
		if t.TailBlock != nil {
			r = e.rng(*t.TailBlock)
		}
		buf = e.synth.Prompt(buf[:0], r, content.Style("mixed"), rest)
		b.Write(buf)
	}
	return b.String()
}

// block appends the text of block id of n tokens to dst.
func (e *Expander) block(dst []byte, id uint64, n int) []byte {
	r := e.rng(id)
	if n <= e.sep {
		return e.synth.Prompt(dst, r, content.Style("mixed"), n)
	}
	dst = e.synth.Prompt(dst, r, content.Style("mixed"), n-e.sep)
	return append(dst, ragSep...)
}

// rng returns the generator of block id.
func (e *Expander) rng(id uint64) *rand.Rand {
	return rand.New(rand.NewPCG(mix(e.seed^blockStream), mix(id)))
}
