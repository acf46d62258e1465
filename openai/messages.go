package openai

import (
	"encoding/json"
	"strconv"
)

// MessagesRequest is the body of a request to Anthropic's Messages API
// (/v1/messages) as a client sends it. The system prompt is a member of
// its own, not a message; Messages alternate user and assistant turns.
// MaxTokens is required by the API, so it is always written. MinTokens
// and IgnoreEOS are vLLM's extensions (Anthropic's own API refuses
// members it does not know), SurgeReasoningTokens the built-in engine's.
// Other zero fields are omitted.
type MessagesRequest struct {
	Model       string    `json:"model,omitempty"`
	System      string    `json:"system,omitempty"`
	Messages    []Message `json:"messages,omitempty"`
	MaxTokens   int       `json:"max_tokens"`
	MinTokens   int       `json:"min_tokens,omitempty"`
	IgnoreEOS   bool      `json:"ignore_eos,omitempty"`
	Temperature *float64  `json:"temperature,omitempty"`
	TopP        *float64  `json:"top_p,omitempty"`
	Stream      bool      `json:"stream,omitempty"`
	// Tools and ToolChoice are Anthropic's (MessagesChoice translates
	// OpenAI's choice and parallel_tool_calls).
	Tools      []MessagesTool      `json:"tools,omitempty"`
	ToolChoice *MessagesToolChoice `json:"tool_choice,omitempty"`

	SurgeReasoningTokens int `json:"surge_reasoning_tokens,omitempty"`
}

// AppendJSON appends r encoded as JSON to dst, byte for byte what
// encoding/json writes for r with HTML escaping off, in one pass, as
// Request.AppendJSON does.
func (r *MessagesRequest) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	open := len(dst)
	if r.Model != "" {
		dst = appendString(appendKey(dst, open, "model"), r.Model)
	}
	if r.System != "" {
		dst = appendString(appendKey(dst, open, "system"), r.System)
	}
	dst = appendMessages(dst, open, "messages", r.Messages)
	dst = strconv.AppendInt(appendKey(dst, open, "max_tokens"), int64(r.MaxTokens), 10)
	dst = appendInt(dst, open, "min_tokens", r.MinTokens)
	dst = appendTrue(dst, open, "ignore_eos", r.IgnoreEOS)
	dst = appendFloat(dst, open, "temperature", r.Temperature)
	dst = appendFloat(dst, open, "top_p", r.TopP)
	dst = appendTrue(dst, open, "stream", r.Stream)
	dst = appendMessagesTools(dst, open, r.Tools, r.ToolChoice)
	dst = appendInt(dst, open, "surge_reasoning_tokens", r.SurgeReasoningTokens)
	return append(dst, '}')
}

// MessagesServerRequest is the body of a Messages API request as a server
// reads it: System is a string or an array of text blocks, and each
// message's content a string or an array of content blocks, kept raw.
type MessagesServerRequest struct {
	Model                string          `json:"model"`
	System               json.RawMessage `json:"system"`
	Messages             []ServerMessage `json:"messages"`
	MaxTokens            *int            `json:"max_tokens"`
	MinTokens            *int            `json:"min_tokens"`
	IgnoreEOS            bool            `json:"ignore_eos"`
	Stream               bool            `json:"stream"`
	SurgeReasoningTokens *int            `json:"surge_reasoning_tokens"`
}

// MessagesResponse is a whole Messages API response, and the message
// member of the stream's message_start event (with no content yet and a
// null stop reason). StopReason is "end_turn", "max_tokens",
// "stop_sequence" or "tool_use".
type MessagesResponse struct {
	ID           string         `json:"id"`
	Type         string         `json:"type"`
	Role         string         `json:"role"`
	Content      []ContentBlock `json:"content"`
	Model        string         `json:"model"`
	StopReason   *string        `json:"stop_reason"`
	StopSequence *string        `json:"stop_sequence"`
	Usage        MessagesUsage  `json:"usage"`
	SurgeTimings *SurgeTimings  `json:"surge_timings,omitempty"`
}

// ContentBlock is one block of a Messages API content: "text" with Text,
// "thinking" with Thinking (and its Signature), or "tool_use" with an ID,
// a Name and its JSON Input.
type ContentBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text,omitempty"`
	Thinking  *string         `json:"thinking,omitempty"`
	Signature *string         `json:"signature,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
}

// MessagesUsage is a Messages API usage. InputTokens counts only the
// prompt tokens neither read from nor written to the prompt cache; the
// whole prompt is the sum of the three input counts.
type MessagesUsage struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	OutputTokens             int `json:"output_tokens"`
}
