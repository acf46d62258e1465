package cli

import (
	"github.com/spf13/pflag"

	"surge/harness"
	"surge/sim"
)

// engineFlags are the built-in engine's scheduler and memory settings,
// spelled as `vllm serve` spells them so that its users recognise them.
// surge serve, surge sim and surge run (without --target) share them.
type engineFlags struct {
	maxNumSeqs  int     // --max-num-seqs: sequences running at once
	maxBatched  int     // --max-num-batched-tokens: token budget per step
	noPrefix    bool    // --no-prefix-caching (alias --no-enable-prefix-caching)
	memUtil     float64 // --gpu-memory-utilization: fraction of HBM vLLM may use
	maxModelLen int     // --max-model-len: 0 means the model's context
}

// engineFlagNames returns the names of the flags register adds, the hidden
// vLLM alias included.
func engineFlagNames() []string {
	return []string{"max-num-seqs", "max-num-batched-tokens", "no-prefix-caching",
		"no-enable-prefix-caching", "gpu-memory-utilization", "max-model-len"}
}

// register adds the engine flags to fs with vLLM's defaults. note starts
// every usage string (surge run says they apply only without --target).
// --no-enable-prefix-caching, vLLM's spelling, is a hidden alias of
// --no-prefix-caching: both set the same field.
func (e *engineFlags) register(fs *pflag.FlagSet, note string) {
	fs.IntVar(&e.maxNumSeqs, "max-num-seqs", sim.DefaultMaxNumSeqs,
		note+"most sequences the engine runs in one step (vLLM's --max-num-seqs)")
	fs.IntVar(&e.maxBatched, "max-num-batched-tokens", sim.DefaultMaxNumBatchedTokens,
		note+"token budget of one step: prefill chunk tokens plus one per decoding sequence")
	fs.BoolVar(&e.noPrefix, "no-prefix-caching", false,
		note+"turn automatic prefix caching off (vLLM: --no-enable-prefix-caching)")
	fs.BoolVar(&e.noPrefix, "no-enable-prefix-caching", false, "vLLM's spelling of --no-prefix-caching")
	_ = fs.MarkHidden("no-enable-prefix-caching") // the flag exists: it cannot fail
	fs.Float64Var(&e.memUtil, "gpu-memory-utilization", sim.DefaultMemoryUtilization,
		note+"fraction of each GPU's memory for weights, activations and KV cache, in (0, 1]")
	fs.IntVar(&e.maxModelLen, "max-model-len", 0,
		note+"context limit in tokens, prompt plus output (default the model's context, capped at what the KV cache holds)")
}

// check reports every engine flag out of its range; unlike the harness,
// which takes a zero setting for vLLM's default, a 0 given here is
// refused.
func (e engineFlags) check() error { return e.settings().Check() }

// settings are the flags as the harness takes them.
func (e engineFlags) settings() harness.EngineSettings {
	return harness.EngineSettings{MaxNumSeqs: e.maxNumSeqs, MaxNumBatchedTokens: e.maxBatched,
		NoPrefixCaching: e.noPrefix, MemoryUtilization: e.memUtil, MaxModelLen: e.maxModelLen}
}
