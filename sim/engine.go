package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// Coster gives the duration of one engine step; *CostModel implements it.
type Coster interface {
	StepTime(b Batch) time.Duration
}

// Engine defaults, applied to zero fields of EngineConfig.
const (
	// DefaultMaxNumBatchedTokens is vLLM V1's token budget per step with
	// chunked prefill on an online server.
	DefaultMaxNumBatchedTokens = 8192
	// DefaultMaxNumSeqs is vLLM's max_num_seqs.
	DefaultMaxNumSeqs = 256
	// DefaultBlockSize is vLLM's KV cache block size in tokens.
	DefaultBlockSize = 16
	// DefaultNumBlocks is the KV cache size used when the caller gives none:
	// 8192 blocks, 131072 tokens at the default block size. Callers should
	// compute NumBlocks from the hardware instead.
	DefaultNumBlocks = 8192
)

// EngineConfig configures an Engine. Its zero value is valid: zero fields
// take the defaults above, MaxModelLen defaults to the whole KV cache
// (NumBlocks×BlockSize tokens), and prefix caching is off.
type EngineConfig struct {
	MaxNumBatchedTokens int  // token budget per step: prefill chunk tokens + 1 per decode
	MaxNumSeqs          int  // running sequences at most
	BlockSize           int  // tokens per KV cache block
	NumBlocks           int  // KV cache capacity in blocks
	MaxModelLen         int  // context limit: prompt + output tokens at most
	EnablePrefixCaching bool // reuse cached full prompt blocks across requests
	// WindowBlocks is the most blocks a sequence's sliding-window layers
	// hold, besides the blocks of its full-attention layers (which a
	// block's size is counted in), as vLLM's hybrid KV cache manager keeps
	// a window's blocks and frees those the window has passed; 0 for a
	// model without sliding-window layers (see Hardware.WindowBlocks).
	WindowBlocks int
	Policy       Policy
	Speculative  Speculative // speculative decoding; the zero value is off
}

// withDefaults returns cfg with zero fields set to their defaults, or an
// error listing every negative field.
func (cfg EngineConfig) withDefaults() (EngineConfig, error) {
	var errs []error
	for _, f := range []struct {
		name string
		v    *int
		def  int
	}{
		{"max num batched tokens", &cfg.MaxNumBatchedTokens, DefaultMaxNumBatchedTokens},
		{"max num seqs", &cfg.MaxNumSeqs, DefaultMaxNumSeqs},
		{"block size", &cfg.BlockSize, DefaultBlockSize},
		{"num blocks", &cfg.NumBlocks, DefaultNumBlocks},
		{"max model len", &cfg.MaxModelLen, 0},
		{"window blocks", &cfg.WindowBlocks, 0},
	} {
		switch {
		case *f.v < 0:
			errs = append(errs, fmt.Errorf("%s is %d, must not be negative", f.name, *f.v))
		case *f.v == 0:
			*f.v = f.def
		}
	}
	if cfg.MaxModelLen == 0 {
		cfg.MaxModelLen = cfg.NumBlocks * cfg.BlockSize
	}
	if cfg.Policy != VLLM && cfg.Policy != NoEvict && cfg.Policy != SGLang {
		errs = append(errs, fmt.Errorf("unknown policy %v", cfg.Policy))
	}
	sp, err := cfg.Speculative.withDefaults()
	cfg.Speculative = sp
	return cfg, errors.Join(append(errs, err)...)
}

// Request is one generation request as the engine sees it.
type Request struct {
	ID      uint64
	Arrival time.Duration // when it entered, on the caller's clock; for queue time
	// PromptLen is the number of prompt tokens, at least 1.
	PromptLen int
	// BlockHashes holds the chained hash of each full block of BlockSize
	// prompt tokens: equal prefixes give equal hashes, so requests share
	// them through the prefix cache. Nil shares nothing; whatever the
	// hashes, with prefix caching on a preempted request resumes from the
	// full blocks it computed that are still cached, output included, as
	// in vLLM. Hashes past the last full prompt block are ignored.
	BlockHashes []uint64
	// OutputLen is the number of tokens to generate, at least 1.
	OutputLen int
	// Priority orders waiting requests: lower first, FCFS within a priority.
	Priority int
	// Copy is the fraction of the output that repeats the prompt, in
	// [0, 1]: how predictable it is to speculative decoding's drafts
	// (Speculative.AcceptProb). 0 copies nothing.
	Copy float64
}

// ErrKVCapacity is wrapped by Add's error for a request that could not fit
// in the whole KV cache even alone, so it could never finish.
var ErrKVCapacity = errors.New("request needs more KV cache blocks than the engine has")

// ContextLengthError reports a request longer than the model's context.
// Its message is vLLM's, word for word, so a server can return it as the
// body of its 400 response.
type ContextLengthError struct {
	MaxModelLen int
	PromptLen   int
	MaxTokens   int // tokens requested for the completion
}

// Error returns vLLM's message (capitalised, unlike our other errors,
// because clients match on it).
func (e *ContextLengthError) Error() string {
	return fmt.Sprintf("This model's maximum context length is %d tokens. "+
		"However, you requested %d tokens (%d in the messages, %d in the completion). "+
		"Please reduce the length of the messages or completion.",
		e.MaxModelLen, e.PromptLen+e.MaxTokens, e.PromptLen, e.MaxTokens)
}

// CheckContext returns a *ContextLengthError when promptLen+maxTokens
// exceeds maxModelLen, as vLLM validates a request, and nil otherwise.
func CheckContext(maxModelLen, promptLen, maxTokens int) error {
	if promptLen+maxTokens > maxModelLen {
		return &ContextLengthError{MaxModelLen: maxModelLen, PromptLen: promptLen, MaxTokens: maxTokens}
	}
	return nil
}

// Engine is a continuous-batching LLM server modelled after vLLM V1's
// scheduler: iteration-level scheduling under a token budget with chunked
// prefill, a paged KV cache with prefix caching, and preemption by
// recompute. It is a pure state machine with no clock and no goroutines:
// the caller advances time by calling Step. It is not safe for concurrent
// use; a real-time server guards it with a mutex.
type Engine struct {
	cfg     EngineConfig
	cost    Coster
	kv      *kvCache
	seqs    map[uint64]*seq // every request running or waiting, by ID
	running []*seq          // in admission order
	waiting waitQueue
	added   uint64 // requests ever added; FCFS tie-break
	stats   Stats
	rng     *rand.Rand // speculative decoding's acceptance trials
	ratio   float64    // SGLang's new-token ratio (see scheduleSGLang)

	// Scratch reused by every Step, so a steady state allocates nothing.
	budget int
	sched  []scheduled
	batch  Batch
	draft  Batch // the drafting sequences' decodes, priced for the draft passes
	events []Event
}

// NewEngine returns an idle engine, or an error if cfg is invalid or cost is nil.
func NewEngine(cfg EngineConfig, cost Coster) (*Engine, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("engine config: %w", err)
	}
	if cost == nil {
		return nil, errors.New("engine config: nil coster")
	}
	return &Engine{
		cfg:   cfg,
		cost:  cost,
		kv:    newKVCache(cfg.NumBlocks, cfg.BlockSize, cfg.EnablePrefixCaching),
		seqs:  make(map[uint64]*seq),
		rng:   rand.New(rand.NewPCG(cfg.Speculative.Seed, specStream)),
		ratio: sglangInitRatio,
	}, nil
}

// Config returns the engine's configuration with defaults applied.
func (e *Engine) Config() EngineConfig { return e.cfg }

// Add queues r to be scheduled by the next Step. It rejects a duplicate ID,
// empty prompt or output, a request over MaxModelLen (a *ContextLengthError)
// and one that needs more KV blocks than the cache has (ErrKVCapacity).
// The engine keeps r's BlockHashes; the caller must not change them.
func (e *Engine) Add(r *Request) error {
	if err := e.validate(r); err != nil {
		return fmt.Errorf("adding request %d: %w", r.ID, err)
	}
	s := &seq{req: *r, order: e.added, heapIdx: noHeap}
	// The last output token is sampled, never computed, so the KV cache
	// holds at most PromptLen+OutputLen-1 tokens; reserve room for them all.
	s.blocks = make([]int32, 0, e.kv.blocksFor(r.PromptLen+r.OutputLen-1))
	e.added++
	e.seqs[r.ID] = s
	e.waiting.push(s)
	return nil
}

func (e *Engine) validate(r *Request) error {
	switch {
	case r.PromptLen < 1:
		return fmt.Errorf("prompt length %d, need at least 1 token", r.PromptLen)
	case r.OutputLen < 1:
		return fmt.Errorf("output length %d, need at least 1 token", r.OutputLen)
	case !(r.Copy >= 0 && r.Copy <= 1):
		return fmt.Errorf("copy fraction %g, want a fraction in [0, 1]", r.Copy)
	case e.seqs[r.ID] != nil:
		return errors.New("id already in the engine")
	}
	if err := CheckContext(e.cfg.MaxModelLen, r.PromptLen, r.OutputLen); err != nil {
		return err
	}
	if need := e.blocksOf(r.PromptLen + r.OutputLen - 1); need > e.cfg.NumBlocks {
		return fmt.Errorf("%w: %d blocks needed, %d in the cache", ErrKVCapacity, need, e.cfg.NumBlocks)
	}
	return nil
}

// Abort removes request id, running or waiting, and frees its KV blocks;
// its full prompt blocks stay in the prefix cache. Unknown ids are ignored.
// It must not be called during Step.
func (e *Engine) Abort(id uint64) {
	s := e.seqs[id]
	if s == nil {
		return
	}
	if s.heapIdx != noHeap {
		e.waiting.remove(s)
	} else {
		e.removeRunning(s)
	}
	e.release(s)
	e.kv.forget(s.prev, s.owner())
	s.prev = s.prev[:0]
	delete(e.seqs, id)
}

// Idle reports whether nothing is running or waiting.
func (e *Engine) Idle() bool { return len(e.seqs) == 0 }

// Stats are the engine's gauges and counters, named after vLLM's metrics.
type Stats struct {
	Running int // vllm:num_requests_running
	Waiting int // vllm:num_requests_waiting
	// KVUsage is the fraction of KV blocks referenced by requests, in [0, 1]
	// (vllm:kv_cache_usage_perc); cached blocks no request uses count as free.
	KVUsage float64
	// PrefixCacheQueries and PrefixCacheHits count tokens: each admission
	// of a request with prefix caching on queries its whole sequence and
	// hits its cached leading blocks (vllm:prefix_cache_queries, _hits).
	PrefixCacheQueries int64
	PrefixCacheHits    int64
	Preemptions        int64 // vllm:num_preemptions
	PromptTokens       int64 // vllm:prompt_tokens, counted at first token
	GenerationTokens   int64 // vllm:generation_tokens
	Finished           int64 // requests that generated all their tokens
	// SpecDrafts counts sequence-steps that drafted, SpecDraftTokens the
	// tokens drafted and SpecAccepted those accepted; SpecAcceptedPerPos[i]
	// counts acceptances at draft position i (vllm:spec_decode_num_drafts,
	// _num_draft_tokens, _num_accepted_tokens, _num_accepted_tokens_per_pos).
	SpecDrafts         int64
	SpecDraftTokens    int64
	SpecAccepted       int64
	SpecAcceptedPerPos [MaxSpeculativeTokens]int64
}

// Stats returns the current gauges and counters.
func (e *Engine) Stats() Stats {
	st := e.stats
	st.Running = len(e.running)
	st.Waiting = e.waiting.Len()
	st.KVUsage = float64(e.kv.used()) / float64(e.cfg.NumBlocks)
	return st
}
