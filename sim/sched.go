package sim

import "time"

// scheduled is one sequence's work in the current step: n tokens to compute.
type scheduled struct {
	s *seq
	n int
}

// schedule fills e.sched for a step starting at now, like vLLM V1's
// scheduler: running sequences first, in admission order, each taking
// min(its remaining tokens, the budget left) — one token for a decode, a
// chunk for a prefill — and then, unless a preemption happened, waiting
// sequences in priority/FCFS order while the budget, MaxNumSeqs and the KV
// cache allow.
func (e *Engine) schedule(now time.Duration) {
	e.budget = e.cfg.MaxNumBatchedTokens
	e.sched = e.sched[:0]
	preempted := e.scheduleRunning()
	// vLLM admits nothing after a preemption in the same step; when
	// preemption left nothing scheduled we admit anyway, so that a step does
	// work whenever the engine is not idle (the queue head then fits: Add
	// rejects requests larger than the whole cache).
	if !preempted || len(e.sched) == 0 {
		e.scheduleWaiting(now)
	}
}

// scheduleRunning gives running sequences their tokens, preempting when
// the KV cache cannot hold their growth. It reports whether it preempted.
//
// When the sequence that needs a block is itself the victim, vLLM stops
// scheduling running sequences for the step; we go on with the next ones,
// which rank before it and now have its blocks, so that a step never ends
// up empty while sequences are running.
func (e *Engine) scheduleRunning() (preempted bool) {
	i := 0
	for i < len(e.running) && e.budget > 0 {
		s := e.running[i]
		n := min(s.total()-s.computed, e.budget)
		need := e.kv.blocksFor(s.computed+n) - len(s.blocks)
		self := false
		for !self && !e.kv.canAllocate(need, 0) {
			v := e.victim(i)
			e.preempt(v)
			preempted, self = true, v == s
		}
		if self {
			continue // the next sequence moved to index i
		}
		s.blocks = e.kv.allocate(s.blocks, need)
		e.take(s, n)
		i++
	}
	return preempted
}

// victim picks the sequence to preempt among the running ones not yet
// scheduled this step (from index i on, the current one included): the
// lowest priority, then the latest arrival. vLLM's FCFS policy takes the
// last running request and its priority policy the worst overall; limiting
// the choice to unscheduled sequences avoids undoing work already planned.
func (e *Engine) victim(i int) *seq {
	v := e.running[i]
	for _, s := range e.running[i+1:] {
		if v.before(s) {
			v = s
		}
	}
	return v
}

// preempt returns a running sequence to the waiting queue by recompute: its
// blocks are freed (full prompt blocks stay cached) and its whole sequence,
// prompt and generated tokens, will be prefilled again on resumption.
func (e *Engine) preempt(s *seq) {
	e.removeRunning(s)
	e.kv.release(s.blocks)
	s.blocks = s.blocks[:0]
	s.computed = 0
	e.waiting.push(s)
	e.stats.Preemptions++
	e.events = append(e.events, Event{ID: s.req.ID, Kind: EventPreempted, Tokens: s.generated})
}

// removeRunning deletes s from the running list, keeping admission order.
func (e *Engine) removeRunning(s *seq) {
	for i, r := range e.running {
		if r == s {
			copy(e.running[i:], e.running[i+1:])
			e.running[len(e.running)-1] = nil
			e.running = e.running[:len(e.running)-1]
			return
		}
	}
}

// scheduleWaiting admits waiting sequences. A sequence's leading full
// prompt blocks found in the prefix cache count as computed, so only the
// rest is prefilled; at least one token is always left to compute, because
// the step that computes the last token samples the next one.
func (e *Engine) scheduleWaiting(now time.Duration) {
	bs := e.cfg.BlockSize
	for e.waiting.Len() > 0 && len(e.running) < e.cfg.MaxNumSeqs && e.budget > 0 {
		s := e.waiting.peek()
		maxHit := min(s.req.PromptLen/bs, (s.total()-1)/bs)
		hits, idle := e.kv.lookup(s.req.BlockHashes, maxHit)
		hit := hits * bs
		n := min(s.total()-hit, e.budget)
		need := e.kv.blocksFor(hit+n) - hits
		if !e.kv.canAllocate(need, idle) {
			return
		}
		e.waiting.pop()
		s.blocks = e.kv.acquire(s.blocks, s.req.BlockHashes[:hits])
		s.blocks = e.kv.allocate(s.blocks, need)
		s.computed = hit
		if e.cfg.EnablePrefixCaching {
			e.stats.PrefixCacheQueries += int64(s.total())
			e.stats.PrefixCacheHits += int64(hit)
		}
		if !s.admitted {
			s.admitted, s.cached = true, hit
			e.events = append(e.events, Event{ID: s.req.ID, Kind: EventScheduled,
				CachedTokens: hit, Queued: now - s.req.Arrival})
		}
		e.running = append(e.running, s)
		e.take(s, n)
	}
}

func (e *Engine) take(s *seq, n int) {
	e.budget -= n
	e.sched = append(e.sched, scheduled{s, n})
}
