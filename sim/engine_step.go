package sim

import (
	"fmt"
	"time"
)

// EventKind says what happened to a request in a step.
type EventKind uint8

// Event kinds, in the order a request meets them.
const (
	// EventScheduled: the request was admitted for the first time. Queued
	// and CachedTokens are set.
	EventScheduled EventKind = iota + 1
	// EventFirstToken: prefill completed and the first output token was
	// sampled in the same step, as in vLLM. CachedTokens is set.
	EventFirstToken
	// EventToken: one more output token.
	EventToken
	// EventFinished: the request generated OutputLen tokens; it follows
	// that token's event in the same step and its blocks are freed.
	EventFinished
	// EventPreempted: the request went back to the waiting queue and will
	// recompute its KV cache; tokens already generated are kept.
	EventPreempted
)

// String returns the kind's name.
func (k EventKind) String() string {
	switch k {
	case EventScheduled:
		return "scheduled"
	case EventFirstToken:
		return "first_token"
	case EventToken:
		return "token"
	case EventFinished:
		return "finished"
	case EventPreempted:
		return "preempted"
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// Event is something that happened to request ID during a step.
type Event struct {
	ID   uint64
	Kind EventKind
	// Time is the end of the step, now+Duration: every event of a step
	// happens when its results are out.
	Time time.Duration
	// Tokens is the number of output tokens generated so far.
	Tokens int
	// CachedTokens is the number of prompt tokens found in the prefix cache
	// at first admission (EventScheduled and EventFirstToken).
	CachedTokens int
	// Queued is the time from Arrival to the start of the step that first
	// admitted the request (EventScheduled only).
	Queued time.Duration
}

// StepResult is what one Step did.
type StepResult struct {
	Duration time.Duration // the step's length from the Coster; 0 when idle
	// Events are in scheduling order. The slice is reused by the next Step.
	Events  []Event
	Running int // sequences running after the step
	Waiting int // sequences waiting after the step
}

// Step runs one engine iteration starting at the caller's time now and
// returns its duration and events, all stamped now+Duration. It schedules
// (see schedule), asks the Coster for the step time of the batch, and
// advances every scheduled sequence: prefill chunks move on, a sequence
// whose tokens are all computed samples one output token, and a sequence
// that reaches OutputLen finishes and frees its blocks (its full prompt
// blocks stay in the prefix cache, unreferenced, evictable LRU).
//
// A step does work whenever the engine is not idle, so Duration is 0 only
// when Idle. The caller calls Step again at now+Duration.
func (e *Engine) Step(now time.Duration) StepResult {
	e.events = e.events[:0]
	e.schedule(now)
	var d time.Duration
	if len(e.sched) > 0 {
		e.fillBatch()
		d = e.cost.StepTime(e.batch) + e.draftTime()
		e.advance()
	}
	for i := range e.events {
		e.events[i].Time = now + d
	}
	return StepResult{Duration: d, Events: e.events, Running: len(e.running), Waiting: e.waiting.Len()}
}

// fillBatch describes the scheduled work for the Coster. A sequence
// computing its single newest token is a decode whose context is the
// computed tokens already in its KV cache, so it attends over context+1,
// as a Chunk's Context counts tokens before its own; anything else is a
// prefill chunk, including the recompute of a preempted sequence. A
// decode with drafts verifies them with its newest token: a Verify chunk.
func (e *Engine) fillBatch() {
	e.batch.Prefill = e.batch.Prefill[:0]
	e.batch.Decode = e.batch.Decode[:0]
	e.batch.Verify = e.batch.Verify[:0]
	for _, sc := range e.sched {
		s := sc.s
		if sc.drafts > 0 {
			e.batch.Verify = append(e.batch.Verify, Chunk{Tokens: sc.n, Context: s.computed})
			continue
		}
		if s.generated > 0 && s.computed == s.total()-1 {
			e.batch.Decode = append(e.batch.Decode, s.computed)
			continue
		}
		e.batch.Prefill = append(e.batch.Prefill, Chunk{Tokens: sc.n, Context: s.computed})
	}
}

// advance applies the scheduled work at the end of the step.
func (e *Engine) advance() {
	finished := false
	for _, sc := range e.sched {
		s := sc.s
		old := s.computed
		gen := 1
		if sc.drafts > 0 {
			gen = e.verify(sc, old)
		} else {
			s.computed += sc.n
		}
		e.cacheFullBlocks(s, old)
		if s.computed < s.total() {
			continue // a prefill chunk that is not the last
		}
		s.generated += gen
		e.stats.GenerationTokens += int64(gen)
		ev := Event{ID: s.req.ID, Kind: EventToken, Tokens: s.generated}
		if s.generated == 1 {
			ev.Kind, ev.CachedTokens = EventFirstToken, s.cached
			e.stats.PromptTokens += int64(s.req.PromptLen)
		}
		e.events = append(e.events, ev)
		if s.generated == s.req.OutputLen {
			e.events = append(e.events, Event{ID: s.req.ID, Kind: EventFinished, Tokens: s.generated})
			e.finish(s)
			finished = true
		}
	}
	if finished {
		e.dropFinished()
	}
}

// cacheFullBlocks registers the prompt blocks that became full while the
// sequence's computed tokens went from old to s.computed.
func (e *Engine) cacheFullBlocks(s *seq, old int) {
	if !e.cfg.EnablePrefixCaching {
		return
	}
	bs := e.cfg.BlockSize
	last := min(s.computed/bs, s.req.PromptLen/bs, len(s.req.BlockHashes))
	for b := old / bs; b < last; b++ {
		e.kv.register(s.blocks[b], s.req.BlockHashes[b])
	}
}

func (e *Engine) finish(s *seq) {
	e.release(s)
	s.blocks, s.window, s.done = nil, nil, true
	delete(e.seqs, s.req.ID)
	e.stats.Finished++
}

// dropFinished removes finished sequences from the running list in place.
func (e *Engine) dropFinished() {
	kept := e.running[:0]
	for _, s := range e.running {
		if !s.done {
			kept = append(kept, s)
		}
	}
	clear(e.running[len(kept):])
	e.running = kept
}
