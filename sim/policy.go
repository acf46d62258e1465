package sim

import (
	"fmt"
	"math"
	"strings"
)

// Policy is how an engine admits requests into its KV cache, after the
// engines that define them. The zero value is VLLM.
type Policy int

const (
	// VLLM admits a request when the blocks of its next chunk are free and
	// preempts the most recently admitted request by recompute when a
	// running one needs a block and none is free (vLLM V1's scheduler).
	VLLM Policy = iota
	// NoEvict is TensorRT-LLM's default capacity policy,
	// GUARANTEED_NO_EVICT: a request is admitted only when the free blocks,
	// less those the running requests may still need to finish, hold its
	// whole prompt and output; a started request is never preempted.
	NoEvict
	// SGLang is SGLang's scheduler: a step is a prefill batch whenever a
	// waiting request can be admitted or a prompt is unfinished, else a
	// decode batch of every running request; a request is admitted when
	// the free blocks hold its prompt and its whole output (at most
	// sglangClip tokens), less a share (the new-token ratio) of what the
	// running ones may still write; and when a decode runs out of blocks
	// the request with the fewest output tokens is retracted (the longest
	// prompt among equals), recomputed later, and the ratio raised.
	SGLang
)

// ParsePolicy reads a policy by the engine that defines it: vllm, sglang,
// or trtllm (also tensorrt-llm) for NoEvict.
func ParsePolicy(s string) (Policy, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "vllm":
		return VLLM, nil
	case "trtllm", "tensorrt-llm", "trt-llm":
		return NoEvict, nil
	case "sglang":
		return SGLang, nil
	}
	return VLLM, fmt.Errorf("unknown engine %q (want vllm, sglang or trtllm)", s)
}

// String returns the engine's name: "vllm", "trtllm" or "sglang".
func (p Policy) String() string {
	switch p {
	case VLLM:
		return "vllm"
	case NoEvict:
		return "trtllm"
	case SGLang:
		return "sglang"
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// footprint is the number of blocks s holds when it has computed every
// token it ever will: its prompt and all but the last output token (which
// is sampled, never computed).
func (e *Engine) footprint(s *seq) int {
	return e.blocksOf(s.req.PromptLen + s.req.OutputLen - 1)
}

// blocksOf is the blocks a sequence of tokens tokens holds: those of
// its full-attention layers and of its sliding-window ones.
func (e *Engine) blocksOf(tokens int) int {
	b := e.kv.blocksFor(tokens)
	return b + min(b, e.cfg.WindowBlocks)
}

// windowNeed is the blocks s's sliding-window layers need beyond those
// they hold to hold tokens tokens: as many as the tokens fill, up to
// WindowBlocks. The window's blocks are the sequence's own (never in
// the prefix cache), and a sequence keeps its most while it runs.
func (e *Engine) windowNeed(s *seq, tokens int) int {
	return max(0, min(e.kv.blocksFor(tokens), e.cfg.WindowBlocks)-len(s.window))
}

// release frees the blocks s holds, both kinds.
func (e *Engine) release(s *seq) {
	e.kv.release(s.blocks)
	e.kv.release(s.window)
	s.blocks, s.window = s.blocks[:0], s.window[:0]
}

// reservedBlocks is, under NoEvict, the blocks the running sequences may
// still allocate before they finish; under SGLang, the blocks of the
// new-token ratio's share of the output they may still write (each at
// most sglangClip tokens); 0 under VLLM, which reserves nothing.
func (e *Engine) reservedBlocks() int {
	switch e.cfg.Policy {
	case NoEvict:
		n := 0
		for _, s := range e.running {
			n += e.footprint(s) - len(s.blocks) - len(s.window)
		}
		return n
	case SGLang:
		tokens := 0.0
		for _, s := range e.running {
			tokens += e.ratio * float64(s.rest())
		}
		return e.kv.blocksFor(int(math.Ceil(tokens)))
	}
	return 0
}

// laterBlocks is the blocks a sequence admitted now reserves beyond the
// need of its first chunk: under NoEvict all it will ever allocate;
// under SGLang its output's (at most sglangClip tokens).
func (e *Engine) laterBlocks(s *seq, hits, need int) int {
	switch e.cfg.Policy {
	case NoEvict:
		return e.footprint(s) - hits - need
	case SGLang:
		return e.kv.blocksFor(s.rest())
	}
	return 0
}
