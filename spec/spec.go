package spec

import (
	"time"

	"surge/arrival"
	"surge/dist"
	"surge/openai"
)

// MaxInputs is the most texts one embeddings request embeds, OpenAI's
// limit; a larger sample of a client's inputs is clamped to it.
const MaxInputs = 2048

// MaxScored is the most documents one rerank or score request scores,
// Cohere's limit per request; a larger sample of a client's documents is
// clamped to it.
const MaxScored = 1000

// Version is the spec format version this package reads.
const Version = 1

// MaxLength is the longest prompt or output, in tokens, that a workload
// holds. A longer one is beyond the context of any served model and would
// make trace lines of tens of megabytes. Parse refuses a length distribution
// that never samples a length ≤ MaxLength (input: 2M); one whose tail goes
// past it is accepted, and the workload compiler clamps each sample to
// MaxLength.
const MaxLength = 1_000_000

// Spec is a workload described statistically.
type Spec struct {
	Version int
	Name    string
	Seed    uint64
	// Tokenizer is a built-in name (o200k_base, cl100k_base) or the path of
	// a tokenizer.json, and Corpus the optional path of a plain-text or
	// JSONL corpus. Paths are kept as written; the CLI reads them relative
	// to the spec file's folder.
	Tokenizer string
	Corpus    string
	Duration  time.Duration
	Requests  int
	Warmup    time.Duration
	Rate      float64 // optional total rate (per second) split across clients by weight; Parse folds each share into Client.Arrival.Rate
	Clients   []Client
	SLO       []SLO
	// Salt is SaltRun (the default): every run starts each conversation
	// with a nonce of its own, so a run never hits a server's prefix cache
	// warmed by an earlier run; or SaltNone, to measure a warm cache.
	Salt string
	// Warnings are values Parse accepted that are legal but absurd for a
	// measurement (a run of over a month, ten million requests, 10,000
	// requests a second), each with its position; they are not part of
	// the spec's canonical form.
	Warnings Errors
}

// Salt policies.
const (
	SaltRun  = "run"
	SaltNone = "none"
)

// Client is an independent stream of sessions: a tenant, an app, a model.
type Client struct {
	Name  string
	Model string
	API   string // "chat" (default), "completions", "responses", "messages", "embeddings", "rerank" or "score" (openai.APIs)
	// Weight is the client's share of Spec.Rate when it takes one, and its
	// share of Spec.Requests when the spec has closed-loop clients: a
	// closed-loop client gets Requests × Weight / Σ Weight sessions, rounded,
	// the sum taken over every client, open-loop ones included.
	Weight      float64
	Concurrency int // closed loop: keep this many sessions in flight; no schedule
	// Arrival is the open-loop arrival stream. After Parse, Arrival.Rate is
	// the client's own rate or its weighted share of Spec.Rate, and 0 when
	// stages or a ramp give the rate. A closed-loop client has the zero
	// Config (empty Process).
	Arrival arrival.Config
	Input   dist.Dist // prompt length in tokens; for embeddings, each input's; for rerank and score, the query's
	Output  dist.Dist // output (answer) length in tokens; nil for embeddings, rerank and score
	// Inputs is the number of texts an embeddings request embeds, each of
	// Input tokens (rounded, at least 1, at most MaxInputs); nil: one.
	Inputs dist.Dist
	// Documents is the number of documents a rerank or score request
	// scores against its query (rounded, at least 1, at most
	// MaxScored; nil: one), Document each one's length in tokens; both
	// nil for other APIs.
	Documents, Document dist.Dist
	// Reasoning is the length in tokens of the reasoning (thinking) a
	// reasoning model emits before its answer; nil for none.
	Reasoning dist.Dist
	// Correlation is the Spearman rank correlation between a request's
	// input and output lengths, drawn through a Gaussian copula; 0 draws
	// them independently.
	Correlation float64
	Prompt      string // content style: mixed (default) or another of content.Styles
	// Copy is the planned fraction of each answer that repeats its prompt
	// verbatim, in [0, 1] (trace.Turn.Copy); above 0 with neither Prompt
	// nor Content given, the prompts are of the copy style.
	Copy float64
	// Duplicates, when not nil, makes a share of the requests
	// near-duplicates of the client's earlier ones.
	Duplicates *Duplicates
	// Content, when not nil, draws each request's style from these
	// weights instead of using Prompt.
	Content []Weight
	// Language draws each request's language from these weights; nil
	// means English.
	Language []Weight
	Sampling Sampling
	Session  Session
	Prefix   *Prefix // shared system prompts; nil: none
	Faults   *Faults // faults injected on purpose; nil: none
	// Dataset, when not nil, sends prompts read from a file instead of
	// synthesised ones; Input is then nil under fit keep, and Output nil
	// when Dataset.Replies.
	Dataset *Dataset
	// Images are the images each request carries after its text; nil:
	// none.
	Images *Images
	// Headers are sent with every request, their values' placeholders
	// ({client}, {session}: trace.HeaderValue) replaced; never credentials.
	Headers map[string]string
	// ExtraBody is a JSON object merged into every request's body: its
	// members are added, or replace surge's own of the same name (not
	// the model, messages, prompt, input, system or stream).
	ExtraBody []byte
	// Options are the typed request options every request sends
	// (response_format, n, stop, logprobs, top_logprobs); nil: none.
	// SchemaFile, when set, names the JSON file, relative to the spec,
	// that holds Options.Format's schema, which compiling reads
	// (harness.Load) into Options.Format.Schema.
	Options    *openai.Options
	SchemaFile string
}

// Sampling holds the generation settings sent with each request.
type Sampling struct {
	Temperature *float64
	TopP        *float64
	// MaxTokens is the max_tokens policy: MaxTokensOutput (0, the default)
	// sends the sampled output length, MaxTokensNone (-1) sends none, n > 0
	// sends n.
	MaxTokens int
	// ExactOutput asks the server for exactly the sampled output length:
	// ignore_eos and min_tokens equal to max_tokens (vLLM, SGLang extensions).
	ExactOutput bool
}

// The max_tokens policies other than a fixed number, as Sampling.MaxTokens
// holds them.
const (
	// MaxTokensOutput sends max_tokens equal to the sampled output length
	// (max_tokens: output, the default).
	MaxTokensOutput = 0
	// MaxTokensNone sends no max_tokens (max_tokens: none): the server
	// stops at its own limit or the end of the answer.
	MaxTokensNone = -1
)

// SLO is one service-level objective: a percentile of a latency metric and
// its bound.
type SLO struct {
	Metric     string  // ttft, ttfo, itl, tpot, e2e
	Percentile float64 // 50, 90, 95, 99, 99.9; 0 means mean
	Bound      time.Duration
}
