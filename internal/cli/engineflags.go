package cli

import (
	"github.com/spf13/pflag"

	"surge/harness"
	"surge/sim"
)

// engineFlags are the built-in engine's scheduler, memory and precision
// settings, spelled as `vllm serve` spells them so that its users
// recognise them, bound onto a harness.EngineSettings; fs says which were
// given. surge serve, surge sim, surge run (without --target) and surge
// sweep share them.
type engineFlags struct {
	s  harness.EngineSettings
	fs *pflag.FlagSet
}

// engineFlagNames returns the names of the flags register adds, the hidden
// vLLM alias included.
func engineFlagNames() []string {
	return []string{"max-num-seqs", "max-num-batched-tokens", "no-prefix-caching",
		"no-enable-prefix-caching", "gpu-memory-utilization", "max-model-len", "dtype", "kv-cache-dtype", "engine",
		"speculative-tokens", "speculative-method"}
}

// register adds the engine flags to fs with vLLM's defaults. note starts
// every usage string (surge run says they apply only without --target).
// --no-enable-prefix-caching, vLLM's spelling, is a hidden alias of
// --no-prefix-caching: both set the same field.
func (e *engineFlags) register(fs *pflag.FlagSet, note string) {
	e.fs = fs
	fs.StringVar(&e.s.Engine, "engine", "vllm", note+"scheduling and defaults to follow: vllm; sglang (prefill and decode batches apart, admission reserving outputs, retracts the newest decodes; 4096 seqs, 8192-token chunks, 0.88 of the memory); or trtllm (never preempts; 2048 seqs, KV cache 0.9 of the memory left)")
	fs.IntVar(&e.s.MaxNumSeqs, "max-num-seqs", sim.DefaultMaxNumSeqs,
		note+"most sequences the engine runs in one step (vLLM's --max-num-seqs)")
	fs.IntVar(&e.s.MaxNumBatchedTokens, "max-num-batched-tokens", sim.DefaultMaxNumBatchedTokens,
		note+"token budget of one step: prefill chunk tokens plus one per decoding sequence")
	fs.BoolVar(&e.s.NoPrefixCaching, "no-prefix-caching", false,
		note+"turn automatic prefix caching off (vLLM: --no-enable-prefix-caching)")
	fs.BoolVar(&e.s.NoPrefixCaching, "no-enable-prefix-caching", false, "vLLM's spelling of --no-prefix-caching")
	_ = fs.MarkHidden("no-enable-prefix-caching") // the flag exists: it cannot fail
	fs.Float64Var(&e.s.MemoryUtilization, "gpu-memory-utilization", sim.DefaultMemoryUtilization,
		note+"fraction of each GPU's memory for weights, activations and KV cache, in (0, 1]")
	fs.IntVar(&e.s.MaxModelLen, "max-model-len", 0,
		note+"context limit in tokens, prompt plus output (default the model's context, capped at what the KV cache holds)")
	fs.StringVar(&e.s.Dtype, "dtype", "auto", note+"weight precision: auto (the checkpoint's: bf16, fp8 for DeepSeek-V3, mxfp4 for gpt-oss), bf16, fp16, fp8 (Hopper, Ada, MI300X, Blackwell), fp4 (Blackwell) or mxfp4 (a mixture of experts' experts)")
	fs.StringVar(&e.s.KVCacheDtype, "kv-cache-dtype", "auto", note+"KV cache precision: auto (bf16, or fp16 with --dtype fp16), bf16, fp16 or fp8")
	fs.IntVar(&e.s.SpeculativeTokens, "speculative-tokens", 0, note+"speculative decoding: drafts per sequence and step, 0 off (vLLM's num_speculative_tokens)")
	fs.StringVar(&e.s.SpeculativeMethod, "speculative-method", "draft_model", note+"how drafts are made: draft_model (accepts 0.6 a token on text that copies nothing; a pass costs 0.1 of a decode step) or ngram (0.1; free)")
}

// check reports every engine flag out of its range; unlike the harness,
// which takes a zero setting for vLLM's default, a 0 given here is
// refused.
func (e engineFlags) check() error { return e.s.Check() }

// settings are the flags as the harness takes them (harness.OnlyGiven).
func (e engineFlags) settings() harness.EngineSettings { return e.s.OnlyGiven(e.fs) }
