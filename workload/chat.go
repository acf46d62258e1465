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
// The session's generator draws every length and think time first (turn
// count, system prompt, then per turn: user length, reply length,
// reasoning length if any, think time) and only then the texts (per turn: user text, reply text), so a
// trace with text and its --no-text twin hold the same lengths and times.
// Reply text is drawn even when the trace does not keep it (live history),
// so pinned and live traces of one spec send the same user messages.
func (b *builder) chat(c *client, turns []trace.Turn) []trace.Turn {
	n := tokens(c.Session.Turns.Sample(b.rng))
	sysID, sys := b.system(c)
	context := 0
	if sys != nil {
		context = sys.tokens
	}
	users := make([]int, n)
	for k := range n {
		t := b.newTurn(c)
		if k == 0 && sys != nil {
			t.SystemID, t.SystemTokens, t.System = sysID, sys.tokens, sys.text
		}
		if k > 0 {
			t.Parent = &[]int{k - 1}[0]
			if c.Session.Think != nil {
				t.WaitUS = micros(c.Session.Think.Sample(b.rng))
			}
		}
		users[k] = t.InputTokens
		context += t.InputTokens
		t.InputTokens = context
		context += t.OutputTokens - t.ReasoningTokens // the reply carried forward is the answer
		turns = append(turns, t)
	}
	if !b.g.noText {
		b.chatText(c, turns, users)
	}
	return turns
}

// chatText draws the user messages and replies (kept with pinned
// history) of turns, in turn order; turn k's user message is users[k]
// tokens long and its reply its answer, the output less the reasoning.
// Chats and agent episodes share it.
func (b *builder) chatText(c *client, turns []trace.Turn, users []int) {
	pinned := c.Session.History == spec.HistoryPinned
	for k := range turns {
		t := &turns[k]
		b.buf = b.prompt(b.buf[:0], b.rng, t, users[k])
		t.Prompt = string(b.buf)
		b.buf = b.prompt(b.buf[:0], b.rng, t, t.OutputTokens-t.ReasoningTokens)
		if pinned {
			t.Reply = string(b.buf)
		}
	}
}

// micros rounds a time in seconds to whole microseconds, at least 0.
func micros(sec float64) int64 {
	if math.IsNaN(sec) || sec <= 0 {
		return 0
	}
	return int64(math.Round(min(sec, 1e9) * 1e6))
}
