package client

import (
	"net/http"
	"time"

	"surge/openai"
	"surge/trace"
)

// Request is one request to send.
type Request struct {
	// API is the endpoint (see openai.APIs): "chat"
	// (/v1/chat/completions, the default), "completions"
	// (/v1/completions), "responses" (/v1/responses), "messages"
	// (/v1/messages, which needs MaxTokens), "embeddings"
	// (/v1/embeddings), "rerank" (/v1/rerank) or "score" (/v1/score);
	// the last three are never streamed.
	API       string
	Model     string
	Prompt    string // the user message (chat), the prompt (completions) or the query (rerank, score)
	MaxTokens int    // 0: not sent
	MinTokens int    // 0: not sent (vLLM/SGLang extension)
	IgnoreEOS bool   // false: not sent (vLLM/SGLang extension)
	// ReasoningTokens, when positive, is sent as surge_reasoning_tokens:
	// the reasoning surge's built-in engine streams before the answer.
	// Other servers do not know the field; send it only to that engine.
	ReasoningTokens int
	Temperature     *float64
	TopP            *float64
	Stream          bool // stream with SSE and stream_options.include_usage

	// Messages, when non-empty, is the conversation sent to the chat,
	// responses or messages API, in order, in place of a single user
	// message made of Prompt, which is then not sent; a leading system
	// message is the messages API's system prompt. Do fails a request
	// of another API that has Messages (ErrClass "http", Status 0)
	// without sending it. A message's Images are sent after its text as
	// content parts of the API's shape.
	Messages []openai.Message
	// Tools, when non-empty, are the functions a chat, responses or
	// messages request defines, each wrapped as its API wants them;
	// ToolChoice ("auto", "required" or "none"; empty: not sent) and
	// ParallelToolCalls say how the model may call them. Do fails a
	// request of another API with tools without sending it.
	Tools             []openai.Tool
	ToolChoice        string
	ParallelToolCalls bool
	// Inputs, when non-empty, is the batch of texts an embeddings request
	// embeds, in place of Prompt alone; other APIs refuse it.
	Inputs []string
	// Documents are the texts a rerank or score request scores against
	// Prompt, its query (score's text_1); those APIs need at least one,
	// and the others refuse them.
	Documents []string
	// Extra is a JSON object whose members are merged into the body
	// (openai.MergeObject: a member of the same name replaces the
	// client's own); Do fails a request whose Extra is not an object.
	Extra []byte
	// Options are typed options sent in the API's shape
	// (openai.AppendOptions), before Extra is merged; Do fails a request
	// with an option its API has no member for (Options.Check). nil:
	// none.
	Options *openai.Options
	// Header holds headers of this request alone, added to the client's
	// (Config.Header and its own, which they do not override): a
	// session's affinity header, a tenant's.
	Header http.Header
	// KeepText keeps the generated text in Result.Text and
	// Result.Reasoning, and the tool calls in Result.Calls; without it no
	// text is built.
	KeepText bool

	// Faults injected on purpose (a workload's faults block). Malformed
	// sends the body cut in half, so it is not valid JSON; NewConn sends
	// the request on a connection of its own, closed after the response.
	Malformed, NewConn bool
	// CancelAfterTokens, when positive, gives up on a stream once that
	// many token events arrived: the request ends with class "cancelled"
	// and the connection is closed.
	CancelAfterTokens int
	// ReadRate, when positive, reads the response at that many bytes per
	// second; Stall stops reading for that long after the first token
	// event. Both end early if ctx ends.
	ReadRate int
	Stall    time.Duration
}

// Result is what happened to one request. Times are monotonic clock
// readings (time.Now); a zero time means the event did not happen.
type Result struct {
	Sent        time.Time // just before the request's first write (HTTP/1; over HTTP/2 when handed to its connection), never after the first response byte
	Written     bool      // the last attempt's request was fully written to its connection
	FirstByte   time.Time // first byte of the response body
	FirstToken  time.Time // first token-bearing event (reasoning or content)
	FirstAnswer time.Time // first content (answer) token, after any reasoning
	// FirstToolCall is the first event carrying a tool call (its start or
	// arguments); zero when the reply called no tool.
	FirstToolCall time.Time
	Last          time.Time // last byte of the response
	// TokenTimes is the arrival of each token-bearing event, in order;
	// nil if none. Each carries its arrival's exact monotonic reading, so
	// Sub and Equal on them are exact; after the first, the wall clock is
	// derived from the first's, so compare them with Equal, not ==.
	//
	// At most trace.MaxITLGaps+1 times are kept: TokenTail counts the
	// gaps between the events after them (nil: there were no more), each
	// the difference of the events' offsets from the first time rounded
	// to whole microseconds, so within 1 µs of the true gap.
	TokenTimes []time.Time
	TokenTail  *trace.GapTail
	Chunks     int // token-bearing events
	// ChoiceTokens counts, for a streamed request for several choices
	// (Request.Options.N > 1), the token-bearing events of each choice,
	// by its index: each choice's output tokens with one token per
	// event. nil for one choice, and for a response that came whole,
	// whose choices carry no count of their own. TokenTimes then holds
	// choice 0's events alone; FirstToken is still the first of any
	// choice, and Chunks counts every choice's events.
	ChoiceTokens []int
	// ToolCalls counts the tool calls the reply made (openai.Info.ToolCalls
	// over its events); ToolChunks the token-bearing events that carried
	// a tool call, its name or arguments, of Chunks.
	ToolCalls, ToolChunks int
	// Embeddings counts the vectors of an embeddings response; Do fails
	// one with fewer or more vectors than inputs (class "stream").
	Embeddings int
	// Scores counts the scores of a rerank or score response; Do fails a
	// score response with other than one per document, and a rerank one
	// with none or more than documents (a top_n in Extra may ask for
	// fewer), class "stream".
	Scores int
	// Whole is true when the response came as one body rather than an
	// event stream (a request sent without streaming): its one "event"
	// is the whole answer, so it has no token times to measure.
	Whole bool

	Status           int // HTTP status; 0 if no response
	PromptTokens     int // usage.prompt_tokens, 0 if absent
	CompletionTokens int // usage.completion_tokens, 0 if absent
	// UsageDropped says which of the server's counts (PromptTokens,
	// CompletionTokens, CachedTokens) were dropped as impossible, and
	// why: negative, more cached than prompt tokens, more completion
	// tokens than the bytes received could hold. They are then 0, as if
	// absent. "" when none was.
	UsageDropped string
	FinishReason string
	// ErrClass is "" on success, else one of the trace.Err* classes:
	// "http", "stream", "timeout", "connection", "cancelled", "too_large".
	ErrClass string
	// Cause says exactly what went wrong, one of the Cause* constants
	// (see Client.Do); "" on success.
	Cause string
	Err   string // what went wrong, for people
	// RetryAfter is the wait a non-2xx response asked for in its
	// Retry-After header (seconds or an HTTP date); 0 if none.
	RetryAfter time.Duration

	// CachedTokens is usage.prompt_tokens_details.cached_tokens, or
	// llama-server's timings.cache_n when usage has none: prompt tokens
	// the server took from its prefix cache. 0 if absent.
	CachedTokens int
	// ServerQueue, ServerTTFT and ServerE2E are the server's own timings of
	// the request, 0 when it sends none. From surge's engine server
	// (surge_timings) they are its queue time, and the times from the
	// request's arrival at the handler to the delivery of its first and
	// last token. From llama-server (timings) ServerTTFT is prompt_ms,
	// measured from the start of the slot's prompt processing (after HTTP,
	// tokenizing and queueing, which it does not report: ServerQueue stays
	// 0) through the first token's sampling, and ServerE2E is
	// prompt_ms + predicted_ms, that start to the last token's sampling.
	ServerQueue, ServerTTFT, ServerE2E time.Duration

	// Text and Reasoning are the answer and the reasoning text of choice
	// 0 when Request.KeepText is set, from a stream or a whole response,
	// unescaped (see openai.DecodeText: content, refusal and completions
	// text are answer; tool calls are not text). A request that failed
	// after some text arrived keeps that text.
	Text, Reasoning string
	// Calls are the reply's tool calls, with the server's ids, names and
	// arguments, when Request.KeepText is set (see openai.DecodeCalls;
	// at most openai.MaxCalls calls and openai.MaxCallBytes bytes are
	// kept), for a later turn to send back with their results; nil when
	// it called none.
	Calls []openai.Call

	// Resends counts re-sends on a fresh connection after a reused one
	// turned out closed before any response byte arrived (servers such as
	// llama-server close after every response), so the request had not
	// reached the server. Not an error, and not a retry: Do never retries
	// a request the server answered.
	Resends int
}
