// Package trace holds surge's trace format: a header line followed by one
// JSON line per session, ordered by start time, holding everything needed to
// send the session verbatim.
//
// The workload hash is the SHA-256 of the session lines exactly as written
// (each line's JSON and its newline), excluding the header; two traces with
// the same workload hash send the same requests at the same offsets.
package trace

import (
	"encoding/json"
	"time"
)

// Format is the trace format version written in every header. Version 2
// added conversations (turns with parents, dependencies and waits, system
// prompts, planned replies) and the salt policy; readers take 1 and 2.
const Format = 2

// oldestFormat is the oldest version readers accept.
const oldestFormat = 1

// Header is the first line of a trace.
type Header struct {
	Format        int          `json:"surge_trace"`
	Name          string       `json:"name,omitempty"`
	SpecHash      string       `json:"spec_hash"`
	Seed          uint64       `json:"seed"`
	Tokenizer     string       `json:"tokenizer"`
	TokenizerHash string       `json:"tokenizer_hash"`
	ContentHash   string       `json:"content_hash"`
	WarmupUS      int64        `json:"warmup_us,omitempty"`
	Text          bool         `json:"text"` // sessions carry their prompt text
	Clients       []ClientInfo `json:"clients"`
	SLO           []SLO        `json:"slo,omitempty"` // the spec's objectives, for the run's report
	// Salt is "none" when runs must send the prompts unsalted; empty means
	// each run salts every conversation with a nonce of its own.
	Salt string `json:"salt,omitempty"`
	// FaultWindows are the storms and bursts the spec's faults put in the
	// run, in order of time.
	FaultWindows []FaultWindow `json:"fault_windows,omitempty"`
}

// SaltNone is Header.Salt for a trace whose runs send prompts unsalted.
const SaltNone = "none"

// ClientInfo describes one client stream of a trace.
type ClientInfo struct {
	Name  string `json:"name"`
	Model string `json:"model"`
	// Concurrency, when positive, makes the client closed loop: the driver
	// keeps this many of its sessions in flight and ignores their offsets.
	Concurrency int `json:"concurrency,omitempty"`
	// History is "pinned" when later turns carry the trace's planned
	// replies; empty (live) means the server's actual replies.
	History string `json:"history,omitempty"`
	// Headers are sent with every request of the client, their values'
	// placeholders replaced (HeaderValue): a tenant, a session's affinity
	// for a router. They never carry credentials.
	Headers map[string]string `json:"headers,omitempty"`
	// ExtraBody is a JSON object merged into the body of every request of
	// the client (a member of the same name replacing surge's own).
	ExtraBody json.RawMessage `json:"extra_body,omitempty"`
	// Options are the client's typed request options, a JSON object
	// (openai.Options: response_format, n, stop, logprobs,
	// top_logprobs), which every request sends in its API's shape.
	Options json.RawMessage `json:"options,omitempty"`
	// Dataset names the file the client's prompts were read from; nil
	// when they were synthesised.
	Dataset *Dataset `json:"dataset,omitempty"`
}

// Dataset identifies a file of prompts a client's sessions were made from.
type Dataset struct {
	Path   string `json:"path"`   // as the spec wrote it
	Format string `json:"format"` // sharegpt, jsonl, csv or parquet
	Hash   string `json:"hash"`   // "sha256:" and the hex digest of the file's bytes
	Fit    string `json:"fit"`    // how prompts met the input law: keep, trim, pad or exact
}

// HistoryPinned is ClientInfo.History for a client whose conversations
// carry the trace's planned replies.
const HistoryPinned = "pinned"

// Session is one unit of work: a single request, or the turns of a
// conversation, each sent once the turns it depends on have finished and
// its wait has passed.
type Session struct {
	Client string `json:"client"`
	Index  int    `json:"index"` // the session's index within its client
	AtUS   int64  `json:"at_us"` // start offset from the run start, in microseconds
	Model  string `json:"model"`
	API    string `json:"api"` // "chat", "completions", "responses", "messages", "embeddings", "rerank" or "score"
	// DeadlineUS is how long after its start, in microseconds, the
	// session (a batch job) should have completed, for the report; 0 means
	// no deadline.
	DeadlineUS int64 `json:"deadline_us,omitempty"`
	// Tools are the tool definitions every turn sends (agent sessions
	// with a tool set); nil sends none.
	Tools *ToolSet `json:"tools,omitempty"`
	Turns []Turn   `json:"turns"`
}

// Turn is one request of a session.
//
// A turn with no Parent starts a conversation: its messages are the system
// prompt, if any, and the user message Prompt. A turn with a Parent
// continues that turn's conversation: its messages are the parent's, the
// parent's reply (the server's, or Reply when the client's history is
// pinned) and its own Prompt. A turn is sent once its parent and every
// turn in After have finished, plus WaitUS; a turn with neither is sent at
// the session's start.
type Turn struct {
	Parent *int  `json:"parent,omitempty"`  // index of the turn whose conversation this one continues
	After  []int `json:"after,omitempty"`   // other turns that must finish first
	WaitUS int64 `json:"wait_us,omitempty"` // think or tool time after those, in microseconds
	// ToolCalls is the number of parallel tool calls whose results this
	// turn's prompt carries: its wait is their latency, not think time.
	ToolCalls int `json:"tool_calls,omitempty"`
	// SystemID is the system prompt's 1-based index in its client's pool
	// (0: none), so that turns sharing one can be told apart without text.
	SystemID     int    `json:"system_id,omitempty"`
	SystemTokens int    `json:"system_tokens,omitempty"`
	System       string `json:"system,omitempty"`

	InputTokens  int `json:"input_tokens"`  // exact length of the whole prompt (all messages) for the trace's tokenizer, with pinned history
	OutputTokens int `json:"output_tokens"` // sampled output length: reasoning and answer
	// ReasoningTokens is how many of OutputTokens are reasoning (thinking)
	// before the answer; 0 for none.
	ReasoningTokens int      `json:"reasoning_tokens,omitempty"`
	MaxTokens       int      `json:"max_tokens,omitempty"`
	MinTokens       int      `json:"min_tokens,omitempty"`
	IgnoreEOS       bool     `json:"ignore_eos,omitempty"`
	Temperature     *float64 `json:"temperature,omitempty"`
	TopP            *float64 `json:"top_p,omitempty"`
	// Copy is the planned fraction of the answer that repeats text of
	// the prompt verbatim, in [0, 1] (the content key copy): how
	// predictable it is to speculative decoding. 0 is none.
	Copy float64 `json:"copy,omitempty"`
	// DuplicateOf, when set, is the index of the client's earlier
	// session whose request this one repeats, whole or with a few of its
	// prompt's tokens changed (spec.Duplicates).
	DuplicateOf *int `json:"duplicate_of,omitempty"`
	// Style is the content style of the prompt's synthetic text, and
	// Language its language when not English ("en"); both are empty for
	// an imported trace's turns.
	Style    string `json:"style,omitempty"`
	Language string `json:"language,omitempty"`
	// Category is the request's category as an imported trace named it
	// (a task type or use case, importers.Columns.Category), at most 64
	// bytes, for fit's query mix; empty for generated turns.
	Category string `json:"category,omitempty"`
	Prompt   string `json:"prompt,omitempty"` // the new user message
	// Images are the images the new user message carries after its text;
	// a turn continuing a conversation also sends its ancestors' images,
	// in their messages. Their tokens are not in InputTokens, which counts
	// text alone.
	Images []Image `json:"images,omitempty"`
	// Inputs is the batch of texts an embeddings request embeds, in
	// place of Prompt; InputTokens is then their sum.
	Inputs []string `json:"inputs,omitempty"`
	// Documents are the texts a rerank or score request scores against
	// its query, Prompt; InputTokens is then the tokens of every query
	// and document pair: the query's once per document, plus theirs.
	Documents []string `json:"documents,omitempty"`
	// Blocks describes the prompt of an imported trace by content instead
	// of text: block i holds BlockTokens tokens of content Blocks[i], equal
	// ids meaning equal content across the whole trace, and the rest of
	// InputTokens after the blocks is content of this turn alone. Only a
	// turn starting a conversation has them.
	Blocks      Blocks `json:"blocks,omitempty"`
	BlockTokens int    `json:"block_tokens,omitempty"`
	// TailBlock, when set, names the content of the rest of the prompt
	// after Blocks, fewer than BlockTokens tokens: a last block cut short
	// by the prompt's end, equal ids meaning equal content as in Blocks.
	// Absent, that rest is content of this turn alone.
	TailBlock *uint64 `json:"tail_block,omitempty"`
	// Reply is the planned reply of OutputTokens tokens, which later turns
	// carry when their client's history is pinned.
	Reply string `json:"reply,omitempty"`
	// Fault is the fault the request carries on purpose; nil for none.
	Fault *Fault `json:"fault,omitempty"`
}

// Deps returns the turns t waits for: its parent and After.
func (t *Turn) Deps() []int {
	if t.Parent == nil {
		return t.After
	}
	return append([]int{*t.Parent}, t.After...)
}

// Wait is the turn's think or tool time.
func (t *Turn) Wait() time.Duration { return time.Duration(t.WaitUS) * time.Microsecond }

// At is the session's start offset.
func (s *Session) At() time.Duration { return time.Duration(s.AtUS) * time.Microsecond }
