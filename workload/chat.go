package workload

import (
	"math"

	"surge/spec"
	"surge/trace"
)

// chat builds a conversation of client c: a system prompt drawn from the
// client's pool (if it has one), then turns each continuing the one
// before it after a think time. Turn k's prompt is the whole conversation
// so far, so its input is the system prompt plus every earlier user
// message and reply plus its own user message.
//
// All lengths and texts come from the session's generator in a fixed
// order (turn count, system prompt, then per turn: user length, reply
// length, think time, user text, reply text), so a session's bytes depend
// only on (seed, client, index). Reply text is drawn even when the trace
// does not keep it (live history), so pinned and live traces of one spec
// send the same user messages.
func (b *builder) chat(c *client, turns []trace.Turn) []trace.Turn {
	n := tokens(c.Session.Turns.Sample(b.rng))
	sysID, sys := b.system(c)
	context := 0
	if sys != nil {
		context = sys.tokens
	}
	pinned := c.Session.History == spec.HistoryPinned
	for k := range n {
		t := b.turnSettings(c, tokens(c.Input.Sample(b.rng)), tokens(c.Output.Sample(b.rng)))
		if k == 0 {
			if sys != nil {
				t.SystemID, t.SystemTokens = sysID, sys.tokens
				if !b.g.noText {
					t.System = sys.text
				}
			}
		} else {
			t.Parent = &[]int{k - 1}[0]
			if c.Session.Think != nil {
				t.WaitUS = micros(c.Session.Think.Sample(b.rng))
			}
		}
		user := t.InputTokens
		context += user
		t.InputTokens = context
		context += t.OutputTokens
		if !b.g.noText {
			b.buf = b.g.synth.Prompt(b.buf[:0], b.rng, c.style, user)
			t.Prompt = string(b.buf)
			b.buf = b.g.synth.Prompt(b.buf[:0], b.rng, c.style, t.OutputTokens)
			if pinned {
				t.Reply = string(b.buf)
			}
		}
		turns = append(turns, t)
	}
	return turns
}

// micros rounds a time in seconds to whole microseconds, at least 0.
func micros(sec float64) int64 {
	if math.IsNaN(sec) || sec <= 0 {
		return 0
	}
	return int64(math.Round(min(sec, 1e9) * 1e6))
}
