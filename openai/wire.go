package openai

// API names, as traces spell them, and the paths they are served at.
const (
	APIChat         = "chat"        // /v1/chat/completions with messages
	APICompletions  = "completions" // /v1/completions with a prompt
	ChatPath        = "/v1/chat/completions"
	CompletionsPath = "/v1/completions"
)

// Path returns the URL path serving api, and false for an unknown api. The
// empty api means chat.
func Path(api string) (string, bool) {
	switch api {
	case APIChat, "":
		return ChatPath, true
	case APICompletions:
		return CompletionsPath, true
	}
	return "", false
}

// Request is the body of a chat or completions request. Chat requests set
// Messages, completions requests set Prompt. Zero fields are omitted when
// encoded (servers such as llama-server reject explicit nulls). MinTokens
// and IgnoreEOS are vLLM and SGLang extensions.
type Request struct {
	Model         string         `json:"model,omitempty"`
	Messages      []Message      `json:"messages,omitempty"`
	Prompt        string         `json:"prompt,omitempty"`
	MaxTokens     int            `json:"max_tokens,omitempty"`
	MinTokens     int            `json:"min_tokens,omitempty"`
	IgnoreEOS     bool           `json:"ignore_eos,omitempty"`
	Temperature   *float64       `json:"temperature,omitempty"`
	TopP          *float64       `json:"top_p,omitempty"`
	Stream        bool           `json:"stream,omitempty"`
	StreamOptions *StreamOptions `json:"stream_options,omitempty"`
	// SurgeReasoningTokens asks surge's built-in engine to stream that
	// many reasoning tokens before the answer; other servers do not know
	// it, so it is sent only to that engine.
	SurgeReasoningTokens int `json:"surge_reasoning_tokens,omitempty"`
}

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// StreamOptions asks a streaming server for a final usage chunk.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// Chunk is one streamed event (object "chat.completion.chunk" or
// "text_completion"), or, with Message in place of Delta, a whole
// non-streamed response (object "chat.completion" or "text_completion").
// The final chunk of a stream with include_usage has no choices and a usage.
type Chunk struct {
	ID      string   `json:"id,omitempty"`
	Object  string   `json:"object,omitempty"`
	Created int64    `json:"created,omitempty"`
	Model   string   `json:"model,omitempty"`
	Choices []Choice `json:"choices"`
	Usage   *Usage   `json:"usage,omitempty"`
	Timings *Timings `json:"timings,omitempty"`
}

// Choice is one choice of a chunk or response: Delta when streamed, Message
// when not, Text for the completions API. FinishReason is null until the
// choice ends.
type Choice struct {
	Index        int     `json:"index"`
	Delta        *Delta  `json:"delta,omitempty"`
	Message      *Delta  `json:"message,omitempty"`
	Text         *string `json:"text,omitempty"`
	FinishReason *string `json:"finish_reason"`
}

// Delta is the message part a chat chunk adds, or a whole chat message.
// ReasoningContent is the vLLM and DeepSeek name for reasoning text,
// Reasoning the newer vLLM and OpenRouter one.
type Delta struct {
	Role             string     `json:"role,omitempty"`
	Content          *string    `json:"content,omitempty"`
	ReasoningContent string     `json:"reasoning_content,omitempty"`
	Reasoning        string     `json:"reasoning,omitempty"`
	Refusal          string     `json:"refusal,omitempty"`
	ToolCalls        []ToolCall `json:"tool_calls,omitempty"`
}

// ToolCall is a tool call, or in a stream the part of one a chunk adds.
type ToolCall struct {
	Index    int          `json:"index"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function FunctionCall `json:"function"`
}

// FunctionCall names the function of a tool call and carries (part of) its
// JSON arguments.
type FunctionCall struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
}

// Usage is the server's token count for a request.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Timings is llama-server's own measurement of a request, sent in its final
// chunk, in milliseconds: PromptMS runs from the start of the slot's prompt
// processing (after HTTP, tokenizing and queueing) through the sampling of
// the first token, PredictedMS from that sampling to the last token's.
// CacheN prompt tokens came from the cache, PromptN were processed.
type Timings struct {
	CacheN      int     `json:"cache_n,omitempty"`
	PromptN     int     `json:"prompt_n"`
	PromptMS    float64 `json:"prompt_ms"`
	PredictedN  int     `json:"predicted_n"`
	PredictedMS float64 `json:"predicted_ms"`
}

// SurgeTimings is the surge_timings member surge's own engine server adds
// to its final usage chunk and to whole responses: the queue time (arrival
// to first admission), the time to first token and the end-to-end time,
// each measured by the server from the request's arrival, in milliseconds.
type SurgeTimings struct {
	QueuedMS float64 `json:"queued_ms"`
	TTFTMS   float64 `json:"ttft_ms"`
	E2EMS    float64 `json:"e2e_ms"`
}

// ErrorResponse is the body of a failed request, and the data of an error
// event inside a stream.
type ErrorResponse struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail describes an error. Code is a number (vLLM, llama-server) or a
// string (OpenAI).
type ErrorDetail struct {
	Message string `json:"message"`
	Type    string `json:"type,omitempty"`
	Code    any    `json:"code,omitempty"`
}
