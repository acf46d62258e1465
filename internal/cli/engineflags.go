package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"surge/sim"
	"surge/sim/server"
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

// check reports every engine flag out of its range. vLLM also refuses a
// token budget below max-num-seqs: each running sequence needs at least
// one token of the step's budget to decode.
func (e engineFlags) check() error {
	var errs []error
	if e.maxNumSeqs < 1 {
		errs = append(errs, fmt.Errorf("--max-num-seqs %d: want 1 or more sequences", e.maxNumSeqs))
	}
	switch {
	case e.maxBatched < 1:
		errs = append(errs, fmt.Errorf("--max-num-batched-tokens %d: want 1 or more tokens", e.maxBatched))
	case e.maxBatched < e.maxNumSeqs:
		errs = append(errs, fmt.Errorf("--max-num-batched-tokens %d is less than --max-num-seqs %d: each running sequence needs a token of the step's budget",
			e.maxBatched, e.maxNumSeqs))
	}
	// Negated so that NaN, for which every comparison is false, fails too.
	if !(e.memUtil > 0 && e.memUtil <= 1) {
		errs = append(errs, fmt.Errorf("--gpu-memory-utilization %g: want a fraction in (0, 1], e.g. 0.9", e.memUtil))
	}
	if e.maxModelLen < 0 {
		errs = append(errs, fmt.Errorf("--max-model-len %d: want 1 or more tokens (or 0 for the model's context)", e.maxModelLen))
	}
	return errors.Join(errs...)
}

// engineConfig checks the flags and resolves them on hw into the engine's
// whole configuration, as vLLM sizes its engine at start-up:
//
//	NumBlocks   = hw.KVBlocks(--gpu-memory-utilization)
//	MaxModelLen = --max-model-len, or min(model context, NumBlocks·16)
//
// A --max-model-len over the model's context or over the KV cache is
// refused, as vLLM refuses to start with it.
func (e engineFlags) engineConfig(hw sim.Hardware) (sim.EngineConfig, error) {
	if err := e.check(); err != nil {
		return sim.EngineConfig{}, err
	}
	blocks := hw.KVBlocks(e.memUtil)
	if blocks <= 0 {
		return sim.EngineConfig{}, fmt.Errorf("--gpu-memory-utilization %g: %s leaves no memory for the KV cache on %d×%s",
			e.memUtil, hw.Model.Name, max(hw.TP, 1), hw.GPU.Name)
	}
	kvTokens := blocks * sim.BlockTokens
	mml, ctx := e.maxModelLen, hw.MaxContext()
	switch {
	case mml == 0 && ctx > 0:
		mml = min(ctx, kvTokens)
	case mml == 0:
		mml = kvTokens
	case ctx > 0 && mml > ctx:
		return sim.EngineConfig{}, fmt.Errorf("--max-model-len %d: %s accepts at most %d tokens", mml, hw.Model.Name, ctx)
	case mml > kvTokens:
		return sim.EngineConfig{}, fmt.Errorf("--max-model-len %d: the KV cache holds only %d tokens at --gpu-memory-utilization %g; lower --max-model-len or raise the utilization",
			mml, kvTokens, e.memUtil)
	}
	return sim.EngineConfig{
		MaxNumBatchedTokens: e.maxBatched,
		MaxNumSeqs:          e.maxNumSeqs,
		BlockSize:           sim.BlockTokens,
		NumBlocks:           blocks,
		MaxModelLen:         mml,
		EnablePrefixCaching: !e.noPrefix,
	}, nil
}

// engineServer is the configuration of a server simulating hw with the
// engine flags e, without the tokenizer and served name.
func engineServer(e engineFlags, hw sim.Hardware) (server.Config, error) {
	ec, err := e.engineConfig(hw)
	if err != nil {
		return server.Config{}, err
	}
	return server.Config{Hardware: hw, Engine: ec, MemoryUtilization: e.memUtil, DisablePrefixCaching: e.noPrefix}, nil
}

// query names the settings that differ from vLLM's defaults, as URL query
// parameters in a fixed order (e.g. "max-num-seqs=1&prefix-caching=off"),
// or "" when there are none; surge sim adds it to its target name so the
// records say what engine produced them.
func (e engineFlags) query() string {
	var q []string
	if e.maxNumSeqs != sim.DefaultMaxNumSeqs {
		q = append(q, fmt.Sprintf("max-num-seqs=%d", e.maxNumSeqs))
	}
	if e.maxBatched != sim.DefaultMaxNumBatchedTokens {
		q = append(q, fmt.Sprintf("max-num-batched-tokens=%d", e.maxBatched))
	}
	if e.noPrefix {
		q = append(q, "prefix-caching=off")
	}
	if e.memUtil != sim.DefaultMemoryUtilization {
		q = append(q, fmt.Sprintf("gpu-memory-utilization=%g", e.memUtil))
	}
	if e.maxModelLen != 0 {
		q = append(q, fmt.Sprintf("max-model-len=%d", e.maxModelLen))
	}
	return strings.Join(q, "&")
}

// describe summarises the resolved engine for a start-up line.
func describe(ec sim.EngineConfig) string {
	prefix := "on"
	if !ec.EnablePrefixCaching {
		prefix = "off"
	}
	return fmt.Sprintf("KV cache %d tokens (%d blocks of %d), max context %d, max %d seqs and %d tokens per step, prefix caching %s",
		ec.NumBlocks*ec.BlockSize, ec.NumBlocks, ec.BlockSize, ec.MaxModelLen, ec.MaxNumSeqs, ec.MaxNumBatchedTokens, prefix)
}
