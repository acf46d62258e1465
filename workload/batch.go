package workload

import (
	"slices"

	"surge/spec"
	"surge/trace"
)

// batch builds the requests of one batch job of client c and returns them
// with the job's deadline in microseconds (0: none). The requests are
// independent (no parents) and each is released WaitUS after the job's
// start: all at once with no window, else at independent uniform offsets
// in [0, window), sorted so that turn order is release order. Every
// request carries the job's system prompt, drawn once from the client's
// pool (if it has one): a job applies one instruction to many inputs.
//
// The session's generator draws the job's size, its system prompt, every
// request's lengths (in turn order), the release offsets, and only then
// the texts (in turn order), so a --no-text trace holds the same workload.
func (b *builder) batch(c *client) ([]trace.Turn, int64) {
	j := c.Session.Batch
	n := min(tokens(j.Size.Sample(b.rng)), spec.MaxJobSize)
	sysID, sys := b.system(c)
	turns := make([]trace.Turn, n)
	for i := range turns {
		t := b.newTurn(c)
		if sys != nil {
			t.SystemID, t.SystemTokens, t.System = sysID, sys.tokens, sys.text
			t.InputTokens += sys.tokens
		}
		turns[i] = t
	}
	if w := j.Window.Microseconds(); w > 0 {
		release := releases(b, n, w)
		for i := range turns {
			turns[i].WaitUS = release[i]
		}
	}
	for i := range turns {
		b.text(c, &turns[i])
	}
	return turns, j.Deadline.Microseconds()
}

// releases returns n release offsets in microseconds, each ⌊u·w⌋ for u
// uniform on [0, 1) and so in [0, w), in increasing order.
func releases(b *builder, n int, w int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(b.rng.Float64() * float64(w))
	}
	slices.Sort(out)
	return out
}
