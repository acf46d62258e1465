package sim

import "time"

// SGLang's scheduler constants (sglang's global config and scheduler):
// the new-token ratio starts at 0.7, decays by (0.7 − 0.1)/600 every
// decode batch to 0.1, and after a retraction becomes the running
// requests' decoded tokens plus 20 steps each over their (clipped)
// outputs; a request's output counts at most 4,096 tokens in admission
// (CLIP_MAX_NEW_TOKENS_ESTIMATION).
const (
	sglangInitRatio    = 0.7
	sglangMinRatio     = 0.1
	sglangDecaySteps   = 600
	sglangClip         = 4096
	sglangRetractSteps = 20
)

// rest is the output tokens s may still write, at most sglangClip.
func (s *seq) rest() int { return min(s.req.OutputLen-s.generated, sglangClip) }

// decoding reports whether s computes its newest token only.
func (s *seq) decoding() bool { return s.generated > 0 && s.computed == s.total()-1 }

// scheduleSGLang fills e.sched as SGLang's scheduler does (see SGLang):
// a prefill batch of the unfinished prompts (chunks of the step's token
// budget, SGLang's chunked_prefill_size) and of newly admitted requests,
// or when there is none, a decode batch of every running request, which
// retracts requests when the KV cache cannot hold the step.
func (e *Engine) scheduleSGLang(now time.Duration) {
	e.budget = e.cfg.MaxNumBatchedTokens
	e.sched = e.sched[:0]
	if len(e.running) == 0 {
		e.ratio = sglangInitRatio
	}
	for _, s := range e.running {
		if e.budget <= 0 {
			break
		}
		if s.decoding() {
			continue
		}
		n := min(s.total()-s.computed, e.budget)
		need := e.kv.blocksFor(s.computed+n) - len(s.blocks)
		win := e.windowNeed(s, s.computed+n)
		if !e.kv.canAllocate(need+win, 0) {
			continue // its decode batch will retract for it
		}
		s.blocks = e.kv.allocate(s.blocks, need)
		s.window = e.kv.allocate(s.window, win)
		e.take(s, n)
	}
	e.scheduleWaiting(now)
	if len(e.sched) > 0 {
		return
	}
	e.budget = max(e.cfg.MaxNumBatchedTokens, len(e.running))
	if e.scheduleRunning() {
		e.raiseRatio()
		return
	}
	e.ratio = max(sglangMinRatio, e.ratio-(sglangInitRatio-sglangMinRatio)/sglangDecaySteps)
}

// retractee picks the running sequence SGLang retracts, among those not
// yet scheduled this step (from index i on): the fewest output tokens
// generated, then the longest prompt, then the most recently admitted.
func (e *Engine) retractee(i int) *seq {
	v := e.running[len(e.running)-1]
	for j := len(e.running) - 2; j >= i; j-- {
		s := e.running[j]
		if s.generated < v.generated || s.generated == v.generated && s.req.PromptLen > v.req.PromptLen {
			v = s
		}
	}
	return v
}

// raiseRatio sets the new-token ratio after a retraction: the running
// sequences' generated tokens plus sglangRetractSteps each, over their
// outputs (each at most sglangClip), at most 1.
func (e *Engine) raiseRatio() {
	done, all := 0, 0
	for _, s := range e.running {
		done += min(s.generated, sglangClip)
		all += min(s.req.OutputLen, sglangClip)
	}
	if all > 0 {
		e.ratio = min(1, float64(done+sglangRetractSteps*len(e.running))/float64(all))
	}
}
