package openai

import (
	"encoding/json"
	"strconv"
	"strings"
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
	dst = appendMessagesMessages(dst, open, r.Messages)
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

// appendMessagesMessages appends the messages member unless msgs is
// empty: each message as a role and content, except that an assistant's
// tool calls are tool_use blocks after its text (a text block only when
// it has text), and a run of tool results is one user message of
// tool_result blocks.
func appendMessagesMessages(dst []byte, open int, msgs []Message) []byte {
	if len(msgs) == 0 {
		return dst
	}
	dst = append(appendKey(dst, open, "messages"), '[')
	for i := 0; i < len(msgs); i++ {
		if i > 0 {
			dst = append(dst, ',')
		}
		m := &msgs[i]
		switch {
		case m.Role == RoleTool:
			dst = append(dst, `{"role":"user","content":[`...)
			for j := i; j < len(msgs) && msgs[j].Role == RoleTool; j++ {
				if j > i {
					dst = append(dst, ',')
				}
				dst = appendString(append(dst, `{"type":"tool_result","tool_use_id":`...), msgs[j].CallID)
				dst = append(appendString(append(dst, `,"content":`...), msgs[j].Content), '}')
				i = j
			}
			dst = append(dst, "]}"...)
		case len(m.Calls) > 0:
			dst = appendString(append(dst, `{"role":`...), m.Role)
			dst = appendToolUses(append(dst, `,"content":[`...), m)
			dst = append(dst, "]}"...)
		default:
			dst = appendString(append(dst, `{"role":`...), m.Role)
			dst = append(appendContent(append(dst, `,"content":`...), m, messagesShape), '}')
		}
	}
	return append(dst, ']')
}

// appendToolUses appends the content blocks of an assistant message with
// tool calls: a text block when it has text, then a tool_use block per
// call, whose input is its arguments, or {} when they are not a JSON
// object.
func appendToolUses(dst []byte, m *Message) []byte {
	if m.Content != "" {
		dst = append(appendString(append(dst, `{"type":"text","text":`...), m.Content), "},"...)
	}
	for j, c := range m.Calls {
		if j > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(append(dst, `{"type":"tool_use","id":`...), c.ID)
		dst = appendString(append(dst, `,"name":`...), c.Name)
		dst = append(appendInput(append(dst, `,"input":`...), c.Arguments), '}')
	}
	return dst
}

// appendInput appends arguments as a tool_use input: as they are when
// they are a JSON object, else {}.
func appendInput(dst []byte, arguments string) []byte {
	if a := strings.TrimSpace(arguments); strings.HasPrefix(a, "{") && json.Valid([]byte(a)) {
		return append(dst, a...)
	}
	return append(dst, "{}"...)
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
	// Tools are the functions the request defines, kept raw.
	Tools json.RawMessage `json:"tools"`
	// StopSequences end the answer; OutputConfig holds its format
	// (output_config.format), kept raw.
	StopSequences []string        `json:"stop_sequences"`
	OutputConfig  json.RawMessage `json:"output_config"`
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
