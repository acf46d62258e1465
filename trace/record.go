package trace

import "time"

// RecordsFormat is the records format version written in every header.
// Version 2 keeps at most MaxITLGaps gaps in itl_us and counts the rest
// in itl_tail; version 1 kept every gap in itl_us.
const RecordsFormat = 2

// oldestRecordsFormat is the oldest records format version read.
const oldestRecordsFormat = 1

// RunHeader is the first line of a records file: what was run, where, and
// from which instant every offset counts.
type RunHeader struct {
	Format       int       `json:"surge_records"`
	Tool         string    `json:"tool,omitempty"` // surge version that ran it
	WorkloadHash string    `json:"workload_hash"`
	SpecHash     string    `json:"spec_hash,omitempty"`
	Seed         uint64    `json:"seed"`
	Tokenizer    string    `json:"tokenizer,omitempty"`
	Target       string    `json:"target"` // base URL, credentials removed
	API          string    `json:"api,omitempty"`
	Start        time.Time `json:"start"` // wall-clock time of the run's start instant
	WarmupUS     int64     `json:"warmup_us,omitempty"`
	SLO          []SLO     `json:"slo,omitempty"`
	// SLOConfidence is the confidence level the run's SLO verdicts are
	// judged at (a sweep's --confidence); 0 for the reports' default.
	SLOConfidence float64  `json:"slo_confidence,omitempty"`
	ClosedLoop    []string `json:"closed_loop,omitempty"` // clients with no schedule (concurrency)
	Salt          string   `json:"salt,omitempty"`        // text put before every conversation's first message
	// PrefixReuse is the prefix-cache reuse the workload implies, for
	// reports to set beside the hit rate the server reports.
	PrefixReuse *Reuse `json:"prefix_reuse,omitempty"`
	// FaultWindows are the trace's storms and bursts, for the fault
	// report.
	FaultWindows []FaultWindow `json:"fault_windows,omitempty"`
	// Shard is the part of the workload this run sent (nil: all of it);
	// WorkloadHash is then the whole workload's.
	Shard *Shard `json:"shard,omitempty"`
	// Engine names the built-in engine a run without a target drove, as
	// MODEL@GPUxTP with the settings that differ from vLLM's defaults as
	// a query, "Llama-3.1-8B@H100-SXMx1?max-num-seqs=64"; with several
	// (one per served model) "served=engine" joined by commas. Empty for
	// an outside server. surge sim's target is the same name after sim://.
	Engine string `json:"engine,omitempty"`
}

// SLO is a latency objective carried from the spec into the records, so a
// report of the records alone can judge goodput.
type SLO struct {
	Metric     string  `json:"metric"`     // ttft, ttfo, itl, tpot, e2e
	Percentile float64 `json:"percentile"` // 50, 90, 95, 99, 99.9; 0 means mean
	BoundUS    int64   `json:"bound_us"`
}

// RunEnd is the last line of a complete records file. A file without one
// comes from a run that died before it could write it.
type RunEnd struct {
	End         time.Time `json:"surge_end"`
	DurationUS  int64     `json:"duration_us"` // start instant to end of drain
	Interrupted bool      `json:"interrupted,omitempty"`
	// Aborted, when set, says why the run stopped itself early (too
	// many errors among its first requests); Interrupted is then set too.
	Aborted   string `json:"aborted,omitempty"`
	Scheduled int    `json:"scheduled"` // requests the run meant to send
	Sent      int    `json:"sent"`
	Dropped   int    `json:"dropped,omitempty"` // shed at the concurrency cap
	// ClientCPUUS is the CPU time (user and system) the surge process
	// used over the run, in µs: with the duration, how busy the client
	// was, so a saturated client shows in the evidence. 0 when unknown.
	ClientCPUUS int64 `json:"client_cpu_us,omitempty"`
	// ClientCPUs is how many CPUs the surge process could use at once
	// (GOMAXPROCS) over the run; 0 when unknown.
	ClientCPUs int `json:"client_cpus,omitempty"`
}

// Record is one request actually sent (or dropped), written as soon as it
// finished. Offsets count from the run's start instant; latencies from the
// moment the request was written to the connection. All times are whole
// microseconds from the monotonic clock.
type Record struct {
	Client  string `json:"client"`
	Session int    `json:"session"` // session index within the client
	Turn    int    `json:"turn"`
	Model   string `json:"model,omitempty"`
	Warmup  bool   `json:"warmup,omitempty"` // intended within the warmup window
	// Style and Language are the turn's (trace.Turn), so that figures can
	// be broken down by the kind of prompt.
	Style    string `json:"style,omitempty"`
	Language string `json:"language,omitempty"`
	// Fault is the kind of fault the request carried on purpose (its
	// turn's, or "storm" for one a storm cancelled); empty for none.
	Fault string `json:"fault,omitempty"`

	// WaitUS is the think or tool time the turn waited after its
	// dependencies (the trace's wait_us); ToolCalls says it was tool time,
	// the latency of that many parallel tool calls.
	WaitUS    int64 `json:"wait_us,omitempty"`
	ToolCalls int   `json:"tool_calls,omitempty"`
	// DeadlineUS is the session's completion deadline (a batch job's),
	// from its start, the trace's deadline_us; 0 for none.
	DeadlineUS int64 `json:"deadline_us,omitempty"`

	IntendedUS int64 `json:"intended_us"`        // when the schedule meant to send it
	QueueUS    int64 `json:"queue_us,omitempty"` // waiting for a concurrency slot
	SentUS     int64 `json:"sent_us"`            // request written

	FirstByteUS int64 `json:"first_byte_us,omitempty"`
	TTFTUS      int64 `json:"ttft_us,omitempty"` // first token of any kind
	TTFOUS      int64 `json:"ttfo_us,omitempty"` // first answer token (after reasoning)
	E2EUS       int64 `json:"e2e_us"`            // last byte
	ITLUS       Gaps  `json:"itl_us,omitempty"`  // gaps between token-bearing chunks, the first MaxITLGaps
	// ITLTail counts the gaps after the first MaxITLGaps (nil: there
	// were none); GapCounts yields both.
	ITLTail *GapTail `json:"itl_tail,omitempty"`

	InputTokens        int `json:"input_tokens"`                   // requested: the trace's count
	ClientInputTokens  int `json:"client_input_tokens"`            // counted by surge in the text sent
	ServerInputTokens  int `json:"server_input_tokens,omitempty"`  // usage.prompt_tokens
	OutputTokens       int `json:"output_tokens"`                  // requested
	ReasoningTokens    int `json:"reasoning_tokens,omitempty"`     // requested: how many of OutputTokens are reasoning
	ServerOutputTokens int `json:"server_output_tokens,omitempty"` // usage.completion_tokens
	Chunks             int `json:"chunks"`                         // token-bearing stream events
	// Choices is the number of choices a request for several asked for
	// (n; 0 for one), MaxTokens the cap it sent each, and ChoiceTokens
	// the token-bearing events of each choice by index, when it was
	// streamed: its output tokens with one token per event. Chunks and
	// the server's counts hold every choice's.
	Choices      int   `json:"choices,omitempty"`
	MaxTokens    int   `json:"max_tokens,omitempty"`
	ChoiceTokens []int `json:"choice_tokens,omitempty"`
	CachedTokens int   `json:"cached_tokens,omitempty"` // usage.prompt_tokens_details.cached_tokens (llama-server: timings.cache_n)
	// UsageDropped says which of the server's counts were dropped as
	// impossible (negative, more cached than prompt tokens, more
	// completion tokens than the bytes received could hold), and why;
	// the server_* count is then absent. Empty when none was.
	UsageDropped string `json:"usage_dropped,omitempty"`
	// NotStreamed is true when the response came whole, not as an event
	// stream (--no-stream): TTFT, TTFO, ITL and TPOT do not exist for it.
	NotStreamed bool `json:"not_streamed,omitempty"`
	// ToolSchemaTokens is the tokens of the tool definitions the request
	// sent, surge's count of their JSON (ToolSet.Tokens): not part of
	// InputTokens or ClientInputTokens, while ServerInputTokens holds
	// them as the server's template renders them. 0 when none was sent.
	ToolSchemaTokens int `json:"tool_schema_tokens,omitempty"`
	// ImageTokens is the tokens of the images the request sent (its own
	// turn's and, continuing a conversation, its ancestors'), by the
	// trace's counts (Image.Tokens): not part of InputTokens or
	// ClientInputTokens, while ServerInputTokens holds them as the
	// server counts them. 0 when none was sent.
	ImageTokens int `json:"image_tokens,omitempty"`
	// Images is how many images the request sent.
	Images int `json:"images,omitempty"`
	// TTFTCUS is the time to the first event carrying a tool call (its
	// start or arguments); ServerToolCalls the tool calls the reply made;
	// ToolCallChunks the token-bearing events (of Chunks) that carried
	// them, their names and argument tokens. All 0 when the reply called
	// no tool.
	TTFTCUS         int64 `json:"ttftc_us,omitempty"`
	ServerToolCalls int   `json:"server_tool_calls,omitempty"`
	ToolCallChunks  int   `json:"tool_call_chunks,omitempty"`
	// Inputs is the number of texts an embeddings request embedded; 0
	// for every other API. Such a request generates no tokens and is
	// never streamed: only its latency, its inputs and their tokens are
	// measured.
	Inputs int `json:"inputs,omitempty"`
	// Documents is the number of documents a rerank or score request
	// scored against its query; 0 for every other API. Like an
	// embeddings request, such a request generates no tokens and is never
	// streamed: only its latency, its documents and the tokens of its
	// query and document pairs are measured.
	Documents int `json:"documents,omitempty"`

	// The server's own timings, when it reports them (surge's engine
	// server: surge_timings; llama-server: timings), in µs. They count from
	// the request's arrival at the server, not from SentUS; see
	// docs/records.md for what each server measures.
	ServerQueueUS int64 `json:"server_queue_us,omitempty"`
	ServerTTFTUS  int64 `json:"server_ttft_us,omitempty"`
	ServerE2EUS   int64 `json:"server_e2e_us,omitempty"`

	Status int `json:"status,omitempty"` // HTTP status
	// Resends counts re-sends on a fresh connection because a reused one
	// had died before the request reached the server (no answer came):
	// the client's own, never an error. Retries counts re-sends under the
	// retry policy (--retries) after a failed attempt: a 429 or 503
	// answer, or a connection that failed before any response. Records
	// written before resends existed counted both in retries.
	Resends      int    `json:"resends,omitempty"`
	Retries      int    `json:"retries,omitempty"`
	FinishReason string `json:"finish_reason,omitempty"`
	ErrorClass   string `json:"error_class,omitempty"` // see the Err constants
	Error        string `json:"error,omitempty"`

	// packed holds ITLUS's npacked gaps after Pack, compactly.
	packed  []byte
	npacked int32
}

// Error classes of a failed request. A record with an error class is
// counted but excluded from latency figures.
const (
	ErrHTTP       = "http"       // non-2xx status
	ErrStream     = "stream"     // error event or malformed data inside a 2xx stream
	ErrTimeout    = "timeout"    // per-request deadline passed
	ErrConnection = "connection" // could not connect, or the connection broke
	ErrCancelled  = "cancelled"  // cancelled by surge (interrupt, or end of drain)
	ErrDropped    = "dropped"    // never sent: shed at the concurrency cap
	ErrTooLarge   = "too_large"  // the response passed the per-request byte cap; reading stopped there
)

// Sink receives the records of a run, one Write per request as it
// finishes (a live run's driver and a simulation alike); *RecordWriter is
// one. Writers call Write from one goroutine at a time and reuse nothing
// they pass, so a sink may keep the records.
type Sink interface {
	Write(r *Record) error
}

var _ Sink = (*RecordWriter)(nil)

// OK reports whether the request succeeded.
func (r *Record) OK() bool { return r.ErrorClass == "" }

// Embeddings reports whether the request was to the embeddings API.
func (r *Record) Embeddings() bool { return r.Inputs > 0 }

// Scored reports whether the request was to the rerank or score API.
func (r *Record) Scored() bool { return r.Documents > 0 }

// Pooled reports whether the request generated no tokens, its answer one
// body computed from its prompt alone: an embeddings, rerank or score
// request.
func (r *Record) Pooled() bool { return r.Embeddings() || r.Scored() }
