package harness

import (
	"errors"
	"fmt"
	"strings"

	"surge/sim"
	"surge/sim/server"
)

// Defaults of the built-in engine a run starts when it has no target.
const (
	DefaultEngineModel = "Llama-3.1-8B"
	DefaultEngineGPU   = "H100-SXM"
)

// EngineSettings are the built-in engine's scheduler and memory settings,
// as `vllm serve` takes them; errors name each by vLLM's flag. Zero
// numbers take the defaults of Engine.
type EngineSettings struct {
	// Engine is the serving engine whose scheduling policy and defaults
	// the built-in engine follows (sim.ParsePolicy): vllm (also "") or
	// trtllm.
	Engine              string
	MaxNumSeqs          int // sequences running at once
	MaxNumBatchedTokens int // token budget per step
	NoPrefixCaching     bool
	// MemoryUtilization is vLLM's gpu_memory_utilization, the fraction
	// of HBM for weights, activations and KV cache; with Engine trtllm,
	// TensorRT-LLM's kv_cache_free_gpu_memory_fraction, the fraction of
	// what the weights and activations leave that the KV cache takes.
	MemoryUtilization float64
	MaxModelLen       int // context limit; 0 means the model's context
	// Dtype is the weights' precision (sim.ParsePrecision): bf16, fp16,
	// fp8, fp4 or mxfp4; auto (also "") means the checkpoint's
	// (sim.Model.Native: bf16 for most, fp8 for DeepSeek-V3, mxfp4 for
	// gpt-oss), as vLLM's --dtype auto loads it.
	Dtype string
	// KVCacheDtype is the KV cache's precision: auto (also ""), the
	// activations' (fp16 with fp16 weights, else bf16), or bf16, fp16, fp8.
	KVCacheDtype string
	// SpeculativeTokens is the drafts per decoding sequence and step
	// (vLLM's num_speculative_tokens); 0 turns speculative decoding off.
	// SpeculativeMethod is how they are drafted (sim.ParseSpecMethod):
	// draft_model (also "") or ngram.
	SpeculativeTokens int
	SpeculativeMethod string
}

// DefaultEngineSettings returns vLLM's defaults.
func DefaultEngineSettings() EngineSettings {
	return EngineSettings{MaxNumSeqs: sim.DefaultMaxNumSeqs, MaxNumBatchedTokens: sim.DefaultMaxNumBatchedTokens,
		MemoryUtilization: sim.DefaultMemoryUtilization}
}

// orDefaults fills the zero settings with the defaults of e's engine on
// tp GPUs.
func (e EngineSettings) orDefaults(tp int) EngineSettings {
	d := e.defaults(tp)
	if e.MaxNumSeqs == 0 {
		e.MaxNumSeqs = d.MaxNumSeqs
	}
	if e.MaxNumBatchedTokens == 0 {
		e.MaxNumBatchedTokens = d.MaxNumBatchedTokens
	}
	if e.MemoryUtilization == 0 {
		e.MemoryUtilization = d.MemoryUtilization
	}
	return e
}

// Check reports every setting out of its range. vLLM also refuses a
// token budget below max-num-seqs: each running sequence needs at least
// one token of the step's budget to decode.
func (e EngineSettings) Check() error {
	var errs []error
	if e.MaxNumSeqs < 1 {
		errs = append(errs, fmt.Errorf("--max-num-seqs %d: want 1 or more sequences", e.MaxNumSeqs))
	}
	switch {
	case e.MaxNumBatchedTokens < 1:
		errs = append(errs, fmt.Errorf("--max-num-batched-tokens %d: want 1 or more tokens", e.MaxNumBatchedTokens))
	case e.MaxNumBatchedTokens < e.MaxNumSeqs:
		errs = append(errs, fmt.Errorf("--max-num-batched-tokens %d is less than --max-num-seqs %d: each running sequence needs a token of the step's budget",
			e.MaxNumBatchedTokens, e.MaxNumSeqs))
	}
	// Negated so that NaN, for which every comparison is false, fails too.
	if !(e.MemoryUtilization > 0 && e.MemoryUtilization <= 1) {
		errs = append(errs, fmt.Errorf("--gpu-memory-utilization %g: want a fraction in (0, 1], e.g. 0.9", e.MemoryUtilization))
	}
	if e.MaxModelLen < 0 {
		errs = append(errs, fmt.Errorf("--max-model-len %d: want 1 or more tokens (or 0 for the model's context)", e.MaxModelLen))
	}
	_, _, err := e.precisions(sim.BF16)
	if _, perr := e.policy(); perr != nil {
		err = errors.Join(err, perr)
	}
	if _, serr := e.speculative(); serr != nil {
		err = errors.Join(err, serr)
	}
	return errors.Join(append(errs, err)...)
}

// precisions reads Dtype and KVCacheDtype, weights defaulting to native.
func (e EngineSettings) precisions(native sim.Precision) (weights, kv sim.Precision, err error) {
	var errs []error
	weights = native
	if e.Dtype != "" && !strings.EqualFold(e.Dtype, "auto") {
		if weights, err = sim.ParsePrecision(e.Dtype); err != nil {
			errs = append(errs, fmt.Errorf("--dtype: %w (or auto)", err))
		}
	}
	kv = weights.Activations()
	if e.KVCacheDtype != "" && !strings.EqualFold(e.KVCacheDtype, "auto") {
		if kv, err = sim.ParsePrecision(e.KVCacheDtype); err != nil {
			errs = append(errs, fmt.Errorf("--kv-cache-dtype: %w (or auto)", err))
		}
	}
	return weights, kv, errors.Join(errs...)
}

// Hardware returns hw with the weight and KV cache precisions of the
// settings, or an error when hw's GPU cannot run them (naming the flag
// and what would work).
func (e EngineSettings) Hardware(hw sim.Hardware) (sim.Hardware, error) {
	w, kv, err := e.precisions(hw.Model.Native)
	if err != nil {
		return hw, err
	}
	hw.Weights, hw.KV = w, kv
	if err := hw.CheckPrecision(); err != nil {
		flag := "--kv-cache-dtype " + kv.String()
		weightsOnly := hw
		weightsOnly.KV = sim.BF16
		if weightsOnly.CheckPrecision() != nil {
			flag = "--dtype " + w.String() // the weights are at fault
		}
		return hw, fmt.Errorf("%s: %w", flag, err)
	}
	return hw, nil
}

// Resolve checks the settings and resolves them on hw, in the settings'
// precisions (Hardware), into the engine's whole configuration, as vLLM
// sizes its engine at start-up:
//
//	NumBlocks   = hw.KVBlocks(MemoryUtilization)
//	MaxModelLen = MaxModelLen, or min(model context, NumBlocks·16)
//
// A MaxModelLen over the model's context or over the KV cache is
// refused, as vLLM refuses to start with it.
func (e EngineSettings) Resolve(hw sim.Hardware) (sim.EngineConfig, error) {
	_, ec, err := e.resolve(hw)
	return ec, err
}

// resolve is Resolve, also returning hw in the settings' precisions.
func (e EngineSettings) resolve(hw sim.Hardware) (sim.Hardware, sim.EngineConfig, error) {
	e = e.orDefaults(hw.TP)
	if err := e.Check(); err != nil {
		return hw, sim.EngineConfig{}, err
	}
	hw, err := e.Hardware(hw)
	if err != nil {
		return hw, sim.EngineConfig{}, err
	}
	policy, _ := e.policy() // Check read it
	blocks, fitU := hw.KVBlocks(e.MemoryUtilization), e.MemoryUtilization
	if policy == sim.NoEvict {
		blocks, fitU = hw.KVBlocksOfFree(e.MemoryUtilization), 1
	}
	if blocks <= 0 {
		err := hw.FitError(fitU)
		if e.MemoryUtilization != sim.DefaultMemoryUtilization {
			err = fmt.Errorf("--gpu-memory-utilization %g: %w", e.MemoryUtilization, err)
		}
		return hw, sim.EngineConfig{}, err
	}
	kvTokens := (blocks - hw.WindowBlocks()) * sim.BlockTokens
	mml, ctx := e.MaxModelLen, hw.MaxContext()
	switch {
	case mml == 0 && ctx > 0:
		mml = min(ctx, kvTokens)
	case mml == 0:
		mml = kvTokens
	case ctx > 0 && mml > ctx:
		return hw, sim.EngineConfig{}, fmt.Errorf("--max-model-len %d: %s accepts at most %d tokens", mml, hw.Model.Name, ctx)
	case mml > kvTokens:
		return hw, sim.EngineConfig{}, fmt.Errorf("--max-model-len %d: the KV cache holds only %d tokens at --gpu-memory-utilization %g; lower --max-model-len or raise the utilization",
			mml, kvTokens, e.MemoryUtilization)
	}
	sp, _ := e.speculative() // Check read it
	return hw, sim.EngineConfig{
		Speculative:         sp,
		Policy:              policy,
		MaxNumBatchedTokens: e.MaxNumBatchedTokens,
		MaxNumSeqs:          e.MaxNumSeqs,
		BlockSize:           sim.BlockTokens,
		NumBlocks:           blocks,
		WindowBlocks:        hw.WindowBlocks(),
		MaxModelLen:         mml,
		EnablePrefixCaching: !e.NoPrefixCaching,
	}, nil
}

// Server is the configuration of a server simulating hw with these
// settings, without the tokenizer and served name.
func (e EngineSettings) Server(hw sim.Hardware) (server.Config, error) {
	hw, ec, err := e.resolve(hw)
	if err != nil {
		return server.Config{}, err
	}
	return server.Config{Hardware: hw, Engine: ec, MemoryUtilization: e.MemoryUtilization, DisablePrefixCaching: e.NoPrefixCaching}, nil
}

// Query names the engine when it is not vLLM and the settings that differ
// from its engine's defaults (zero settings take them), as URL query
// parameters in a fixed order (e.g. "max-num-seqs=1&prefix-caching=off"),
// or "" when there are none, so that a target's name says what engine
// produced its records. The weights' precision is named unless it is
// BF16 and the checkpoint's. hw is the hardware e runs on: its model's
// checkpoint and its TP degree, which some defaults depend on.
func (e EngineSettings) Query(hw sim.Hardware) string {
	var q []string
	e, d := e.orDefaults(hw.TP), e.defaults(hw.TP)
	native := hw.Model.Native
	if p, err := e.policy(); err == nil && p != sim.VLLM {
		q = append(q, "engine="+p.String())
	}
	if e.MaxNumSeqs != d.MaxNumSeqs {
		q = append(q, fmt.Sprintf("max-num-seqs=%d", e.MaxNumSeqs))
	}
	if e.MaxNumBatchedTokens != d.MaxNumBatchedTokens {
		q = append(q, fmt.Sprintf("max-num-batched-tokens=%d", e.MaxNumBatchedTokens))
	}
	if e.NoPrefixCaching {
		q = append(q, "prefix-caching=off")
	}
	if e.MemoryUtilization != d.MemoryUtilization {
		q = append(q, fmt.Sprintf("gpu-memory-utilization=%g", e.MemoryUtilization))
	}
	if e.MaxModelLen != 0 {
		q = append(q, fmt.Sprintf("max-model-len=%d", e.MaxModelLen))
	}
	q = append(q, e.specQuery()...)
	if w, kv, err := e.precisions(native); err == nil {
		if w != sim.BF16 || native != sim.BF16 {
			q = append(q, "dtype="+w.String())
		}
		if kv != w.Activations() {
			q = append(q, "kv-cache-dtype="+kv.String())
		}
	}
	return strings.Join(q, "&")
}
