package sim

import "time"

// scheduled is one sequence's work in the current step: n tokens to
// compute, of which drafts are speculative drafts verified after its
// newest token (n = drafts+1 then).
type scheduled struct {
	s      *seq
	n      int
	drafts int
}

// schedule fills e.sched for a step starting at now, like vLLM V1's
// scheduler: running sequences first, in admission order, each taking
// min(its remaining tokens, the budget left) — one token for a decode, a
// chunk for a prefill — and then, unless a preemption happened, waiting
// sequences in priority/FCFS order while the budget, MaxNumSeqs and the KV
// cache allow.
func (e *Engine) schedule(now time.Duration) {
	if e.cfg.Policy == SGLang {
		e.scheduleSGLang(now)
		return
	}
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
		drafts := e.drafts(s)
		n += drafts
		need := e.kv.blocksFor(s.computed+n) - len(s.blocks)
		win := e.windowNeed(s, s.computed+n)
		self := false
		for !self && !e.kv.canAllocate(need+win, 0) {
			v := e.victim(i)
			e.preempt(v)
			preempted, self = true, v == s
		}
		if self {
			continue // the next sequence moved to index i
		}
		s.blocks = e.kv.allocate(s.blocks, need)
		s.window = e.kv.allocate(s.window, win)
		e.take(s, n)
		e.sched[len(e.sched)-1].drafts = drafts
		i++
	}
	return preempted
}

// victim picks the sequence to preempt among the running ones not yet
// scheduled this step (from index i on, the current one included): the
// most recently admitted of those with the lowest priority. With equal
// priorities that is the last of the running list, as vLLM V1's FCFS
// policy pops it (a resumed request goes back to the end of the list, so
// it is the next victim again); its priority policy takes the worst
// overall, and limiting the choice to unscheduled sequences avoids undoing
// work already planned.
func (e *Engine) victim(i int) *seq {
	if e.cfg.Policy == SGLang {
		return e.retractee(i)
	}
	v := e.running[len(e.running)-1]
	for j := len(e.running) - 2; j >= i; j-- {
		if s := e.running[j]; s.req.Priority > v.req.Priority {
			v = s
		}
	}
	return v
}

// preempt returns a running sequence to the waiting queue by recompute: its
// blocks are freed and its whole sequence, prompt and generated tokens,
// will be prefilled again on resumption, but for its full blocks still
// cached then (with prefix caching on, they stay cached for it, evicted
// least recently used first, as vLLM keeps every full block hashed).
func (e *Engine) preempt(s *seq) {
	e.removeRunning(s)
	full := s.blocks[:s.computed/e.cfg.BlockSize]
	e.kv.keep(full, s.owner())
	s.prev = append(s.prev[:0], full...)
	e.release(s)
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
// prompt blocks found in the prefix cache count as computed, and so do,
// for a preempted sequence, the full blocks after them it computed before
// and finds still cached for it; only the rest is prefilled. At least one
// token is always left to compute, because the step that computes the
// last token samples the next one.
//
// Under NoEvict a sequence is admitted only when the free blocks, less
// those reserved for the running sequences to finish, hold all the blocks
// it will ever allocate, so that no running sequence is ever preempted.
func (e *Engine) scheduleWaiting(now time.Duration) {
	bs := e.cfg.BlockSize
	reserved := e.reservedBlocks()
	for e.waiting.Len() > 0 && len(e.running) < e.cfg.MaxNumSeqs && e.budget > 0 {
		s := e.waiting.peek()
		maxHit := (s.total() - 1) / bs
		shared, idle := e.kv.lookup(s.req.BlockHashes, min(s.req.PromptLen/bs, maxHit))
		own := min(e.kv.ownedIdle(s.prev, shared, s.owner()), maxHit-shared)
		hits := shared + own
		hit := hits * bs
		n := min(s.total()-hit, e.budget)
		need := e.kv.blocksFor(hit+n) - hits
		win := e.windowNeed(s, hit+n)
		later := e.laterBlocks(s, hits, need+win) // reserved for after this step

		if !e.kv.canAllocate(need+win+reserved+later, idle+own) {
			return
		}
		reserved += later
		e.waiting.pop()
		s.blocks = e.kv.acquire(s.blocks, s.req.BlockHashes[:shared])
		if own > 0 {
			s.blocks = e.kv.take(s.blocks, s.prev[shared:hits])
		}
		s.blocks = e.kv.allocate(s.blocks, need)
		s.window = e.kv.allocate(s.window, win)
		s.prev = s.prev[:0]
		s.computed = hit
		if e.cfg.EnablePrefixCaching && !s.admitted {
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
	e.sched = append(e.sched, scheduled{s: s, n: n})
}
