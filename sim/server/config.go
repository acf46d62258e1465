package server

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"surge/content"
	"surge/sim"
)

// Defaults applied to zero fields of Config.
const (
	// DefaultMaxBodyBytes caps a request body; larger bodies get 413. It
	// is 16 MiB: a prompt of the longest context in the catalog (131,072
	// tokens) is under 1 MiB of text, and decoding and tokenizing a body
	// costs about 70 times its size at its peak.
	DefaultMaxBodyBytes = 16 << 20
	// DefaultBodyTimeout is how long a client has to send a request's body
	// once its headers are in; after it the server answers 408 and closes
	// the connection.
	DefaultBodyTimeout = time.Minute
	// DefaultOutputMedian is the median natural output length in tokens.
	DefaultOutputMedian = 200
	// DefaultOutputSigma is the lognormal σ of natural output lengths.
	DefaultOutputSigma = 0.8
	// DefaultToolCallShare is the share of requests defining tools
	// whose answer calls one: most steps of an agent call a tool.
	DefaultToolCallShare = 0.8
)

// Config configures a Server. Hardware is required; every other zero
// field takes a default.
type Config struct {
	// Model is the served model name clients must send; empty means
	// Hardware.Model.Name.
	Model string
	// Hardware is the model and GPUs the cost model simulates.
	Hardware sim.Hardware
	// Engine configures the scheduler. Zero NumBlocks means the hardware's
	// KV capacity, Hardware.KVBlocks(MemoryUtilization); zero MaxModelLen
	// means min(the model's context, the KV cache). Prefix caching is on
	// unless DisablePrefixCaching is set, as in vLLM V1.
	Engine               sim.EngineConfig
	MemoryUtilization    float64 // ≤ 0 means sim.DefaultMemoryUtilization
	DisablePrefixCaching bool
	// CostParams are the step-time model's parameters; zero means
	// sim.DefaultCostParams.
	CostParams sim.CostParams
	// Coster, when set, replaces the cost model built from Hardware and
	// CostParams (tests use a fixed step time).
	Coster sim.Coster
	// Tokenizer counts prompt tokens; nil means o200k_base.
	Tokenizer content.Tokenizer
	// MaxBodyBytes caps request bodies; ≤ 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// MaxDecodeBytes bounds the bytes of request bodies decoded and
	// tokenized at once, which cost about 70 times their size at the peak;
	// ≤ 0 means MaxBodyBytes. Requests beyond it wait their turn, and after
	// a while get 503 with Retry-After.
	MaxDecodeBytes int64
	// BodyTimeout bounds the reading of a request's body; ≤ 0 means
	// DefaultBodyTimeout.
	BodyTimeout time.Duration
	// OutputMedian and OutputSigma shape natural output lengths; zero
	// means DefaultOutputMedian and DefaultOutputSigma.
	OutputMedian int
	OutputSigma  float64
	// ToolCallShare is the share of chat, responses and messages
	// requests defining tools whose answer is a call of the first tool
	// rather than text (a chat tool_calls delta, a Responses function_call
	// item, a Messages tool_use block); zero means DefaultToolCallShare, a
	// negative share none.
	ToolCallShare float64
	// Faults makes the server misbehave on purpose (see the package doc);
	// the zero value injects none. FaultSeed seeds the draws, so the same
	// seed and order of requests inject the same faults. FaultLog, when
	// set, gets one line per injected fault.
	Faults    Faults
	FaultSeed uint64
	FaultLog  io.Writer
}

// Server is a simulated OpenAI-compatible inference server. Its engine
// loop runs inside Serve (or Run); Handler serves HTTP.
type Server struct {
	cfg     Config
	eng     *sim.Engine
	engCfg  sim.EngineConfig
	tok     content.Tokenizer
	metrics *metrics
	faults  *injector
	start   time.Time
	created int64   // unix seconds for response "created"
	vectors vectors // the embeddings vector, encoded

	mu      sync.Mutex // guards the fields below
	inbox   []*stream  // submitted, not yet added to the engine
	aborts  []uint64   // ids whose clients went away
	nextID  uint64
	stats   sim.Stats // the engine's stats after the last step
	running bool      // Run has started
	stopped bool      // Run has returned; submissions are refused
	wake    chan struct{}
	// restarted is closed, and replaced, by each simulated restart.
	restarted chan struct{}

	carried sim.Stats // counters of engines replaced by restarts; the loop's

	held         *budget       // bodies being read or waiting to be decoded
	decoding     *budget       // bodies being decoded and tokenized
	queueWait    time.Duration // the longest wait for either budget
	returnMemory atomic.Bool   // a large body was decoded since memory was last returned
}

// New builds a Server from cfg, loading the default tokenizer if needed.
func New(cfg Config) (*Server, error) {
	if cfg.Hardware.Model.Layers == 0 && cfg.Coster == nil {
		return nil, errors.New("server config: no hardware model")
	}
	if cfg.Model == "" {
		cfg.Model = cfg.Hardware.Model.Name
	}
	if cfg.Model == "" {
		return nil, errors.New("server config: no served model name")
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.MaxDecodeBytes <= 0 {
		cfg.MaxDecodeBytes = cfg.MaxBodyBytes
	}
	if cfg.BodyTimeout <= 0 {
		cfg.BodyTimeout = DefaultBodyTimeout
	}
	if cfg.OutputMedian <= 0 {
		cfg.OutputMedian = DefaultOutputMedian
	}
	if cfg.OutputSigma <= 0 {
		cfg.OutputSigma = DefaultOutputSigma
	}
	if cfg.ToolCallShare == 0 {
		cfg.ToolCallShare = DefaultToolCallShare
	}
	if err := cfg.Faults.Validate(); err != nil {
		return nil, fmt.Errorf("server config: %w", err)
	}
	if cfg.Tokenizer == nil {
		tok, err := content.Builtin("o200k_base")
		if err != nil {
			return nil, fmt.Errorf("server config: %w", err)
		}
		cfg.Tokenizer = tok
	}
	eng, err := newEngine(cfg)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, eng: eng, engCfg: eng.Config(), tok: cfg.Tokenizer,
		start: time.Now(), wake: make(chan struct{}, 1), restarted: make(chan struct{}),
		held: newBudget(heldLimit(cfg.MaxBodyBytes)), decoding: newBudget(cfg.MaxDecodeBytes),
		queueWait: defaultQueueWait}
	s.created = s.start.Unix()
	s.vectors = newVectors()
	s.metrics = newMetrics(cfg.Model, s.engCfg.Speculative.Tokens, s.Stats)
	s.faults = newInjector(cfg, s.start, s.metrics)
	return s, nil
}

// newEngine builds the engine and its coster from cfg.
func newEngine(cfg Config) (*sim.Engine, error) {
	ec := cfg.Engine
	ec.EnablePrefixCaching = !cfg.DisablePrefixCaching
	if ec.NumBlocks == 0 && cfg.Hardware.Model.Layers > 0 {
		ec.NumBlocks = cfg.Hardware.KVBlocks(cfg.MemoryUtilization)
		if ec.NumBlocks == 0 {
			return nil, fmt.Errorf("server config: %w", cfg.Hardware.FitError(cfg.MemoryUtilization))
		}
	}
	if ec.MaxModelLen == 0 && cfg.Hardware.MaxContext() > 0 {
		bs := ec.BlockSize
		if bs == 0 {
			bs = sim.DefaultBlockSize
		}
		blocks := ec.NumBlocks
		if blocks == 0 {
			blocks = sim.DefaultNumBlocks
		}
		ec.MaxModelLen = min(cfg.Hardware.MaxContext(), blocks*bs)
	}
	coster := cfg.Coster
	if coster == nil {
		coster = sim.NewCostModel(cfg.Hardware, cfg.CostParams)
	}
	eng, err := sim.NewEngine(ec, coster)
	if err != nil {
		return nil, fmt.Errorf("server config: %w", err)
	}
	return eng, nil
}

// Model returns the served model name.
func (s *Server) Model() string { return s.cfg.Model }

// EngineConfig returns the engine's configuration with defaults applied:
// KV capacity in NumBlocks×BlockSize tokens and the context limit.
func (s *Server) EngineConfig() sim.EngineConfig { return s.engCfg }

// Stats returns the engine's gauges and counters as of the last step.
func (s *Server) Stats() sim.Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}
