// Package trace holds surge's trace format: a header line followed by one
// JSON line per session, ordered by start time, holding everything needed to
// send the session verbatim.
//
// The workload hash is the SHA-256 of the session lines exactly as written
// (each line's JSON and its newline), excluding the header; two traces with
// the same workload hash send the same requests at the same offsets.
package trace

import "time"

// Format is the trace format version written in every header.
const Format = 1

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
}

// ClientInfo describes one client stream of a trace.
type ClientInfo struct {
	Name  string `json:"name"`
	Model string `json:"model"`
	// Concurrency, when positive, makes the client closed loop: the driver
	// keeps this many of its sessions in flight and ignores their offsets.
	Concurrency int `json:"concurrency,omitempty"`
}

// Session is one unit of work: for now a single request; later formats add
// multi-turn and agent sessions as more turns with dependencies.
type Session struct {
	Client string `json:"client"`
	Index  int    `json:"index"` // the session's index within its client
	AtUS   int64  `json:"at_us"` // start offset from the run start, in microseconds
	Model  string `json:"model"`
	API    string `json:"api"` // "chat" or "completions"
	Turns  []Turn `json:"turns"`
}

// Turn is one request of a session.
type Turn struct {
	InputTokens  int      `json:"input_tokens"`  // exact prompt length for the trace's tokenizer
	OutputTokens int      `json:"output_tokens"` // sampled output length
	MaxTokens    int      `json:"max_tokens,omitempty"`
	MinTokens    int      `json:"min_tokens,omitempty"`
	IgnoreEOS    bool     `json:"ignore_eos,omitempty"`
	Temperature  *float64 `json:"temperature,omitempty"`
	TopP         *float64 `json:"top_p,omitempty"`
	Style        string   `json:"style,omitempty"`
	Prompt       string   `json:"prompt,omitempty"`
}

// At is the session's start offset.
func (s *Session) At() time.Duration { return time.Duration(s.AtUS) * time.Microsecond }
