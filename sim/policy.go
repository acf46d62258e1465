package sim

import (
	"fmt"
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
)

// ParsePolicy reads a policy by the engine that defines it: vllm, or
// trtllm (also tensorrt-llm) for NoEvict.
func ParsePolicy(s string) (Policy, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "vllm":
		return VLLM, nil
	case "trtllm", "tensorrt-llm", "trt-llm":
		return NoEvict, nil
	}
	return VLLM, fmt.Errorf("unknown engine %q (want vllm or trtllm)", s)
}

// String returns the engine's name: "vllm" or "trtllm".
func (p Policy) String() string {
	switch p {
	case VLLM:
		return "vllm"
	case NoEvict:
		return "trtllm"
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// footprint is the number of blocks s holds when it has computed every
// token it ever will: its prompt and all but the last output token (which
// is sampled, never computed).
func (e *Engine) footprint(s *seq) int {
	return e.kv.blocksFor(s.req.PromptLen + s.req.OutputLen - 1)
}

// reservedBlocks is, under NoEvict, the blocks the running sequences may
// still allocate before they finish; 0 under VLLM, which reserves nothing.
func (e *Engine) reservedBlocks() int {
	if e.cfg.Policy != NoEvict {
		return 0
	}
	n := 0
	for _, s := range e.running {
		n += e.footprint(s) - len(s.blocks)
	}
	return n
}
