package openai

import "encoding/json"

// API names, as traces and specs spell them, and the paths they are
// served at.
const (
	APIChat         = "chat"        // /v1/chat/completions with messages
	APICompletions  = "completions" // /v1/completions with a prompt
	APIResponses    = "responses"   // /v1/responses, OpenAI's Responses API, with input messages
	APIMessages     = "messages"    // /v1/messages, Anthropic's Messages API
	APIEmbeddings   = "embeddings"  // /v1/embeddings with a batch of inputs
	APIRerank       = "rerank"      // /v1/rerank, a query and the documents to rank by it
	APIScore        = "score"       // /v1/score, vLLM's: a text scored against each of a list
	ChatPath        = "/v1/chat/completions"
	CompletionsPath = "/v1/completions"
	ResponsesPath   = "/v1/responses"
	MessagesPath    = "/v1/messages"
	EmbeddingsPath  = "/v1/embeddings"
	RerankPath      = "/v1/rerank"
	ScorePath       = "/v1/score"
)

// AnthropicVersion is the anthropic-version header sent with every request
// to the messages API: the version whose stream events this package reads.
const AnthropicVersion = "2023-06-01"

// APIs returns the API names, in the order messages list them.
func APIs() []string {
	return []string{APIChat, APICompletions, APIResponses, APIMessages, APIEmbeddings, APIRerank, APIScore}
}

// Path returns the URL path serving api, and false for an unknown api. The
// empty api means chat.
func Path(api string) (string, bool) {
	switch api {
	case APIChat, "":
		return ChatPath, true
	case APICompletions:
		return CompletionsPath, true
	case APIResponses:
		return ResponsesPath, true
	case APIMessages:
		return MessagesPath, true
	case APIEmbeddings:
		return EmbeddingsPath, true
	case APIRerank:
		return RerankPath, true
	case APIScore:
		return ScorePath, true
	}
	return "", false
}

// Aliases returns the other paths servers answer api at, besides Path's:
// vLLM serves rerank at /rerank and /v2/rerank (Cohere's v2) too, and
// score at /score.
func Aliases(api string) []string {
	switch api {
	case APIRerank:
		return []string{"/rerank", "/v2/rerank"}
	case APIScore:
		return []string{"/score"}
	}
	return nil
}

// Pools reports whether api answers with one body computed from its
// texts' prefill alone, with no tokens generated, timed or streamed:
// embeddings, rerank and score.
func Pools(api string) bool {
	return api == APIEmbeddings || api == APIRerank || api == APIScore
}

// Scores reports whether api scores documents against a query: rerank
// and score.
func Scores(api string) bool { return api == APIRerank || api == APIScore }

// Conversational reports whether api sends a list of role-tagged messages,
// so that a turn can carry a system prompt and the conversation so far:
// chat, responses and messages do; completions, embeddings, rerank and
// score send text.
// The empty api means chat.
func Conversational(api string) bool {
	return api == "" || api == APIChat || api == APIResponses || api == APIMessages
}

// Streams reports whether api answers as an event stream when asked to:
// every API but the pooling ones (Pools), whose answer is one body of
// vectors or scores with no tokens to time.
func Streams(api string) bool { return !Pools(api) }

// Request is the body of a chat or completions request as a client sends
// it (ServerRequest is the same body as a server reads it). Chat requests
// set Messages, completions requests set Prompt. Zero fields are omitted
// when encoded (servers such as llama-server reject explicit nulls), so
// Seed is a pointer: a seed of 0 is sent. MinTokens and IgnoreEOS are vLLM
// and SGLang extensions.
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
	Seed          *int           `json:"seed,omitempty"`
	// Logprobs asks for the log-probability of each output token, in
	// choices[].logprobs.
	Logprobs bool `json:"logprobs,omitempty"`
	// Tools are the functions a chat request defines, ToolChoice and
	// ParallelToolCalls how the model may call them.
	Tools             []ChatTool `json:"tools,omitempty"`
	ToolChoice        string     `json:"tool_choice,omitempty"`
	ParallelToolCalls *bool      `json:"parallel_tool_calls,omitempty"`
	// SurgeReasoningTokens asks surge's built-in engine to stream that
	// many reasoning tokens before the answer; other servers do not know
	// it, so it is sent only to that engine.
	SurgeReasoningTokens int `json:"surge_reasoning_tokens,omitempty"`
}

// Message is one chat message. An assistant message may carry the tool
// calls of its reply, and a message of role "tool" is the result of the
// call CallID; each API's encoder writes them in its own shape (see
// appendChatMessages, appendResponsesInput, appendMessagesMessages), not
// as encoding/json would. Images, when present, follow a message's text
// as content parts, in each API's shape too.
type Message struct {
	Role    string  `json:"role"`
	Content string  `json:"content"`
	Calls   []Call  `json:"-"`
	CallID  string  `json:"-"`
	Images  []Image `json:"-"`
}

// RoleTool is the role of a message holding a tool call's result.
const RoleTool = "tool"

// ServerRequest is the body of a chat or completions request as a server
// reads it: the members whose type varies stay raw (Prompt: a string, an
// array of strings or of token IDs; a message's content), and the numbers a
// server must tell absent from zero are pointers. MaxCompletionTokens is
// the newer name of max_tokens; N asks for several choices;
// SurgeReasoningTokens is the built-in engine's extension (see Request).
type ServerRequest struct {
	Model                string          `json:"model"`
	Messages             []ServerMessage `json:"messages"`
	Prompt               json.RawMessage `json:"prompt"`
	MaxTokens            *int            `json:"max_tokens"`
	MaxCompletionTokens  *int            `json:"max_completion_tokens"`
	MinTokens            *int            `json:"min_tokens"`
	IgnoreEOS            bool            `json:"ignore_eos"`
	Stream               bool            `json:"stream"`
	StreamOptions        *StreamOptions  `json:"stream_options"`
	N                    *int            `json:"n"`
	SurgeReasoningTokens *int            `json:"surge_reasoning_tokens"`
	// Tools are the functions the request defines, kept raw: a server
	// reads their names and renders them into the prompt.
	Tools json.RawMessage `json:"tools"`
	// ResponseFormat, Stop (a string or an array of them) and Logprobs (a
	// boolean in chat, a count in completions) are kept raw; TopLogprobs
	// is chat's count of alternatives.
	ResponseFormat json.RawMessage `json:"response_format"`
	Stop           json.RawMessage `json:"stop"`
	Logprobs       json.RawMessage `json:"logprobs"`
	TopLogprobs    *int            `json:"top_logprobs"`
}

// ServerMessage is one chat message as a server reads it: Content is a
// string, an array of ContentPart (or, in the Messages API, of content
// blocks) or null; ToolCalls an assistant's tool calls, raw.
type ServerMessage struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	ToolCalls json.RawMessage `json:"tool_calls"`
}

// ContentPart is one part of an array content; Text is set for type "text".
type ContentPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
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
	// SurgeTimings is surge's own engine server's measurement, in its
	// final usage chunk and whole responses.
	SurgeTimings *SurgeTimings `json:"surge_timings,omitempty"`
}

// Choice is one choice of a chunk or response: Delta when streamed, Message
// when not, Text for the completions API. FinishReason is null until the
// choice ends; Logprobs is null unless they were asked for.
type Choice struct {
	Index        int       `json:"index"`
	Delta        *Delta    `json:"delta,omitempty"`
	Message      *Delta    `json:"message,omitempty"`
	Text         *string   `json:"text,omitempty"`
	Logprobs     *Logprobs `json:"logprobs"`
	FinishReason *string   `json:"finish_reason"`
}

// Logprobs is a chat choice's log-probabilities: one per output token.
type Logprobs struct {
	Content []TokenLogprob `json:"content"`
}

// TokenLogprob is one output token and its log-probability.
type TokenLogprob struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
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

// UsageDetails is a usage with vLLM's and OpenAI's prompt_tokens_details,
// as surge's engine server writes it.
type UsageDetails struct {
	Usage
	PromptTokensDetails PromptTokensDetails `json:"prompt_tokens_details"`
}

// PromptTokensDetails details a usage's prompt tokens: how many came from
// the prefix cache.
type PromptTokensDetails struct {
	CachedTokens int `json:"cached_tokens"`
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
// string (OpenAI); Param names the offending parameter, null for none.
type ErrorDetail struct {
	Message string  `json:"message"`
	Type    string  `json:"type,omitempty"`
	Param   *string `json:"param"`
	Code    any     `json:"code,omitempty"`
}

// ObjectError is the body of a failed request as vLLM writes it: the
// error's members at the top level, with object "error" and the status as
// code.
type ObjectError struct {
	Object  string  `json:"object"`
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    int     `json:"code"`
}
