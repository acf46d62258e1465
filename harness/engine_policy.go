package harness

import (
	"fmt"

	"surge/sim"
)

// TensorRT-LLM's defaults (LLM API and trtllm-serve): max_batch_size 2048,
// max_num_tokens 8192, kv_cache_config.free_gpu_memory_fraction 0.9 of
// the memory the weights and activations leave, and the
// GUARANTEED_NO_EVICT capacity scheduler (TensorRT-LLM docs, "Useful
// Runtime Options" and "How to Change KV Cache Behavior").
const (
	trtllmMaxBatchSize = 2048
	trtllmMaxNumTokens = 8192
	trtllmFreeFraction = 0.9
)

// SGLang's defaults (sglang server arguments): chunked_prefill_size
// 8192, which it picks for GPUs of 80 GB and more (less on smaller ones);
// max_running_requests up to 4096, which its admission control keeps
// well below; mem_fraction_static by the TP degree (sglangMemFraction),
// of the GPU's whole memory for weights and KV cache, as vLLM's
// utilization is.
const (
	sglangMaxRunning = 4096
	sglangChunk      = 8192
)

// sglangMemFraction is SGLang's default mem_fraction_static for tp GPUs
// (server_args.py): 0.88 on one, 0.87 from 2, 0.85 from 4, 0.81 from 8
// and 0.79 from 16, leaving room for the larger communication buffers
// and CUDA graphs of a wider group.
func sglangMemFraction(tp int) float64 {
	switch {
	case tp >= 16:
		return 0.79
	case tp >= 8:
		return 0.81
	case tp >= 4:
		return 0.85
	case tp >= 2:
		return 0.87
	}
	return 0.88
}

// policy reads Engine.
func (e EngineSettings) policy() (sim.Policy, error) {
	p, err := sim.ParsePolicy(e.Engine)
	if err != nil {
		return p, fmt.Errorf("--engine: %w", err)
	}
	return p, nil
}

// defaults returns the settings e's engine starts with on tp GPUs when
// not told otherwise (vLLM's, for an unknown engine, which Check
// refuses).
func (e EngineSettings) defaults(tp int) EngineSettings {
	switch p, _ := e.policy(); p {
	case sim.NoEvict:
		return EngineSettings{MaxNumSeqs: trtllmMaxBatchSize, MaxNumBatchedTokens: trtllmMaxNumTokens,
			MemoryUtilization: trtllmFreeFraction}
	case sim.SGLang:
		return EngineSettings{MaxNumSeqs: sglangMaxRunning, MaxNumBatchedTokens: sglangChunk, MemoryUtilization: sglangMemFraction(tp)}
	}
	return DefaultEngineSettings()
}

// OnlyGiven returns e with the numbers flags did not give zeroed, so
// that they take the defaults of e's engine rather than the vLLM defaults
// the flags show. flags may be nil: e as it is.
func (e EngineSettings) OnlyGiven(flags interface{ Changed(string) bool }) EngineSettings {
	if flags == nil {
		return e
	}
	if !flags.Changed("max-num-seqs") {
		e.MaxNumSeqs = 0
	}
	if !flags.Changed("max-num-batched-tokens") {
		e.MaxNumBatchedTokens = 0
	}
	if !flags.Changed("gpu-memory-utilization") {
		e.MemoryUtilization = 0
	}
	return e
}
