package spec

import (
	"time"

	"surge/arrival"
	"surge/dist"
)

// Version is the spec format version this package reads.
const Version = 1

// Spec is a workload described statistically.
type Spec struct {
	Version   int
	Name      string
	Seed      uint64
	Tokenizer string // built-in name (o200k_base, cl100k_base) or path to tokenizer.json
	Corpus    string // optional path to a plain-text or JSONL corpus
	Duration  time.Duration
	Requests  int
	Warmup    time.Duration
	Rate      float64 // optional total rate (per second) split across clients by weight; Parse folds each share into Client.Arrival.Rate
	Clients   []Client
	SLO       []SLO
}

// Client is an independent stream of sessions: a tenant, an app, a model.
type Client struct {
	Name        string
	Model       string
	API         string  // "chat" (default) or "completions"
	Weight      float64 // share of Spec.Rate, or of Spec.Requests in closed loop
	Concurrency int     // closed loop: keep this many sessions in flight; no schedule
	// Arrival is the open-loop arrival stream. After Parse, Arrival.Rate is
	// the client's own rate or its weighted share of Spec.Rate, and 0 when
	// stages or a ramp give the rate. A closed-loop client has the zero
	// Config (empty Process).
	Arrival  arrival.Config
	Input    dist.Dist // prompt length in tokens
	Output   dist.Dist // output length in tokens
	Prompt   string    // content style: mixed (default), question, instruction, summarize, code
	Sampling Sampling
}

// Sampling holds the generation settings sent with each request.
type Sampling struct {
	Temperature *float64
	TopP        *float64
	// MaxTokens is "output" (the sampled output length, the default), "none",
	// or a fixed number written as its decimal string.
	MaxTokens string
	// ExactOutput asks the server for exactly the sampled output length:
	// ignore_eos and min_tokens equal to max_tokens (vLLM, SGLang extensions).
	ExactOutput bool
}

// SLO is one service-level objective: a percentile of a latency metric and
// its bound.
type SLO struct {
	Metric     string  // ttft, ttfo, itl, tpot, e2e
	Percentile float64 // 50, 90, 95, 99, 99.9; 0 means mean
	Bound      time.Duration
}
