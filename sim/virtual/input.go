package virtual

import (
	"context"
	"errors"
	"fmt"
	"io"

	"surge/trace"
)

// Input is a workload given session by session, so that a run holds only
// the sessions in flight rather than the whole trace.
type Input struct {
	// Next returns the sessions in trace order, open-loop ones by offset
	// as a generator emits them, and io.EOF after the last.
	Next func() (*trace.Session, error)
	// Requests is the number of turns of all the sessions, the end line's
	// Scheduled; 0 counts the turns of the sessions Next returns.
	Requests int
	// Text tallies the text of the sessions (TextTally.Add each in
	// order: it takes the first ones), which names the blocks of the
	// prompts that carry text.
	Text TextTally
}

// TextTally sums the text of the messages that the prefix cache names by
// their text (user messages and system prompts without a SystemID) and
// their tokens, as Run reads them, over the first sessions, until it holds
// TextSample tokens: a workload's ratio of bytes to tokens is known long
// before its end, and a run given its sessions one by one can start once
// that many are in.
type TextTally struct {
	Bytes, Tokens int64
}

// TextSample is the text tokens a TextTally counts at most, but for the
// session that crosses it: 2²⁴, about 64 MB of English text.
const TextSample = 1 << 24

// tally is the TextTally of sessions, added in order.
func tally(sessions []*trace.Session) TextTally {
	var tt TextTally
	for _, s := range sessions {
		tt.Add(s)
	}
	return tt
}

// Full reports whether tt has all the text it counts.
func (tt TextTally) Full() bool { return tt.Tokens >= TextSample }

// Add counts the text of s, unless tt is Full.
func (tt *TextTally) Add(s *trace.Session) {
	if tt.Full() {
		return
	}
	add := func(text string, n int) {
		if text != "" && n > 0 {
			tt.Bytes += int64(len(text))
			tt.Tokens += int64(n)
		}
	}
	for i := range s.Turns {
		t := &s.Turns[i]
		if t.Parent == nil {
			add(t.Prompt, t.InputTokens-t.SystemTokens)
			if t.SystemID == 0 {
				add(t.System, t.SystemTokens)
			}
		} else if p := *t.Parent; p >= 0 && p < len(s.Turns) {
			pt := &s.Turns[p]
			add(t.Prompt, t.InputTokens-pt.InputTokens-(pt.OutputTokens-pt.ReasoningTokens))
		}
	}
}

// ratio returns the bytes of text per KV block of blockTokens tokens,
//
//	B = round(blockTokens · Bytes / Tokens), at least 1,
//
// or 0 when no message has text.
func (tt TextTally) ratio(blockTokens int) int {
	if tt.Tokens == 0 {
		return 0
	}
	return max(1, int((int64(blockTokens)*tt.Bytes+tt.Tokens/2)/tt.Tokens))
}

// RunInput is Run for sessions given one by one: it holds a session from
// its start to the end of its last turn and drops it then, so that memory
// grows with the requests in flight and not with those simulated. Records
// are those Run writes for the same sessions. A session that is invalid or
// starts before the one before it ends the run with an error. A workload
// with closed-loop clients is read whole first, as Run holds it.
func RunInput(ctx context.Context, cfg Config, h trace.Header, in Input, sink Sink) (trace.RunEnd, error) {
	for _, c := range h.Clients {
		if c.Concurrency > 0 {
			ss, err := drain(in.Next)
			if err != nil {
				return trace.RunEnd{}, fmt.Errorf("virtual run: %w", err)
			}
			return Run(ctx, cfg, h, ss, sink)
		}
	}
	rn, err := newRunnerOf(cfg, h, in.Text, sink)
	if err != nil {
		return trace.RunEnd{}, err
	}
	turns := 0
	rn.sched = &schedule{pull: streamed(in.Next, &turns)}
	if rn.sched.advance(); rn.sched.err != nil {
		return trace.RunEnd{}, rn.sched.err
	}
	end, err := rn.run(ctx, in.Requests)
	if in.Requests == 0 {
		end.Scheduled = turns
	}
	return end, err
}

// streamed pulls the jobs of the open-loop sessions next returns,
// numbering them in order, checking each as Run does and that their
// offsets never decrease, and adds up their turns in *turns.
func streamed(next func() (*trace.Session, error), turns *int) func() (job, error) {
	key, last := 0, int64(0)
	return func() (job, error) {
		s, err := next()
		if err != nil {
			if err != io.EOF {
				err = fmt.Errorf("virtual run: reading session %d: %w", key, err)
			}
			return job{}, err
		}
		if err := s.Validate(); err != nil {
			return job{}, fmt.Errorf("virtual run: session %s/%d: %w", s.Client, s.Index, err)
		}
		if s.AtUS < last {
			return job{}, fmt.Errorf("virtual run: session %s/%d starts at %d µs, before the session before it (%d µs): sessions given one by one must come in offset order", s.Client, s.Index, s.AtUS, last)
		}
		j := job{sess: s, key: key, loop: -1}
		key, last = key+1, s.AtUS
		*turns += len(s.Turns)
		return j, nil
	}
}

// drain reads every session next returns.
func drain(next func() (*trace.Session, error)) ([]*trace.Session, error) {
	var ss []*trace.Session
	for {
		s, err := next()
		if errors.Is(err, io.EOF) {
			return ss, nil
		}
		if err != nil {
			return nil, err
		}
		ss = append(ss, s)
	}
}
