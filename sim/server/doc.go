// Package server serves the sim engine as an OpenAI-compatible HTTP server
// in real time, so surge's client and driver (or any other load generator)
// can be pointed at a simulated GPU.
//
// One goroutine owns the engine. It takes newly submitted requests, calls
// Step(now) with now the time since the server started, sleeps until the
// step's end, start+now+Duration, and then hands the step's events to the
// requests' handlers. When the engine is idle it blocks until a request
// arrives. Handlers never touch the engine: they submit and abort through
// an inbox the loop drains before every step.
//
// Endpoints: POST /v1/chat/completions and /v1/completions (streamed as
// Server-Sent Events or whole JSON), POST /v1/responses and /v1/messages
// (OpenAI's Responses API and Anthropic's Messages API, streamed as their
// typed events or whole), POST /v1/embeddings, POST /v1/rerank (also
// /rerank and /v2/rerank) and /v1/score (also /score), GET /v1/models,
// GET /health and GET /metrics (Prometheus, vLLM's metric names, label
// model_name).
//
// # The APIs
//
// A Responses API request's instructions and input messages are its
// prompt and max_output_tokens its cap. Its stream is response.created
// and response.in_progress, a reasoning item whose
// response.reasoning_text.delta events are the reasoning tokens (when
// there are any), a message item whose response.output_text.delta events
// are the answer tokens, the done events that close them with their whole
// text, and response.completed, or response.incomplete with reason
// max_output_tokens when the output reached the cap, holding the whole
// response, its usage (cached input tokens and reasoning tokens in their
// details) and surge_timings.
//
// A Messages API request's system prompt and messages (user and
// assistant, text blocks) are its prompt; max_tokens is required. Its
// stream is message_start (sent with the first token, once the prefix
// cache was looked up: input_tokens is the uncached part, cache_read_input_tokens
// the cached one), a thinking block of thinking_delta events for the
// reasoning tokens, a text block of text_delta events for the answer
// tokens, message_delta with the stop reason (max_tokens, stop_sequence or end_turn), the
// whole usage and surge_timings, and message_stop. Errors in a stream of
// either API are their error events.
//
// # Tools
//
// A chat, Responses or Messages request may define tools: their
// definitions, as sent, start the prompt, and Config.ToolCallShare of the
// replies (80% by default) call the first tool, its arguments
// {"input":"…"} made of the answer tokens: chat streams tool_calls deltas
// (the id and name with the first) and finishes with tool_calls; the
// Responses API a function_call item (added with the first token's
// arguments, then function_call_arguments deltas and the done events);
// the Messages API a tool_use block (its start is the first answer token,
// the name; then input_json_delta pieces) and stop_reason tool_use. The
// calls and results a conversation sends back are prompt too: chat
// assistant tool_calls and role tool messages, Responses function_call
// and function_call_output items, Messages tool_use and tool_result
// blocks.
//
// An embeddings request's inputs (strings, or arrays of token IDs) are
// costed as one prompt of all their tokens, with one output step standing
// for the pooling (a batch must fit the context, and is not prefix
// cached); the answer holds one fixed vector of EmbeddingDims per input,
// as numbers or base64, and the usage of the prompt tokens.
//
// A rerank request (a query and its documents, strings or objects with a
// text) and a score request (text_1 against each of text_2, or lists
// paired one to one, as vLLM pairs them) are costed as embeddings are,
// as one prompt of every pair's tokens, each pair a query then its
// document, not prefix cached. Each pair's score is a hash of its two
// texts in [0, 1), the same for the same pair by either API: rerank
// answers its results best first (top_n of them when asked, with their
// texts when return_documents is true), score one score per pair in
// order; both with the pairs' tokens as the usage's prompt and total.
//
// # Prompt and output
//
// The prompt is tokenized with the configured tokenizer (chat: the
// messages' contents concatenated, no template tokens). Its token IDs are
// hashed block by block, each full block of 16 tokens chained to the one
// before, for prefix caching. The output length is max_tokens when
// ignore_eos is set or min_tokens ≥ max_tokens; otherwise a natural length
// drawn from a lognormal (median 200 tokens) seeded by the prompt's hash,
// so the same prompt always gets the same length, clamped to
// [min_tokens, max_tokens]. Each output token is one word of a fixed list
// (" the", " model", …), each a single o200k_base token.
//
// # Request options
//
// n (chat and completions, 1 to 128) generates n choices of the same
// length and text: choice 0 enters the engine as the request, and the
// others, n sequences of their own, once its first token is out, when
// its prompt is computed and cached, so they share its prefill. Each
// choice streams in chunks of its own, with its index; the usage counts
// them all. A response format (response_format json_object or
// json_schema, the Responses API's text.format, the Messages API's
// output_config.format) makes the answer a JSON object: its members, the
// schema's top-level properties sorted (or "text"), share the answer's
// tokens in runs, the punctuation riding on the words so that the token
// count stays as planned. A stop string (stop, stop_sequences) found in
// the answer's words ends it before the token completing it, with
// finish_reason stop. Logprobs (chat's logprobs and top_logprobs,
// completions' logprobs N, the Responses API's include of
// message.output_text.logprobs) come with every token in the API's shape,
// made-up values decreasing over the alternatives.
//
// # Reasoning
//
// A request may carry the extension "surge_reasoning_tokens": n (surge's
// driver sends it to this engine only, from the workload's planned
// reasoning lengths). The first n output tokens (at most the output) are
// then reasoning, streamed as delta.reasoning_content the way vLLM's
// reasoning parsers stream a thinking model's output, and returned in
// message.reasoning_content of a whole chat response; the natural output
// length is n plus the answer's. Completions have no reasoning field:
// their text holds every token.
//
// # Speculative decoding
//
// With Config.Engine.Speculative on, a request's header Surge-Copy
// (openai.SurgeCopyHeader; surge's driver sends it to this engine only,
// from the workload's planned copy fraction) sets how likely its drafts
// are accepted (sim.Speculative); a value outside [0, 1] is a 400. A step
// that accepts several tokens streams each in its own chunk, written
// together. /metrics then also has vLLM's speculative decoding counters:
// vllm:spec_decode_num_drafts_total, _num_draft_tokens_total,
// _num_accepted_tokens_total and _num_accepted_tokens_per_pos_total by
// position.
//
// # surge_timings
//
// The final usage chunk of a stream (when stream_options.include_usage is
// set) and every whole response carry, besides "usage", an extra member
//
//	"surge_timings": {"queued_ms": q, "ttft_ms": t, "e2e_ms": e}
//
// measured by the server: queued_ms is the engine's queue time (arrival to
// first admission), ttft_ms the real time from the request's arrival to
// the handler's flush of its first token (for a whole, non-streamed
// response, to the moment it is written), and e2e_ms the time from arrival
// to the writing of its last bytes. A request arrives when it reached the
// server's socket: on Linux the kernel stamps every received segment
// (SO_TIMESTAMPNS) and the server reads the stamp with the bytes, taking
// that of the latest read before the handler starts (the end of the
// request's head, or all of it when written at once), so the wait of its
// HTTP layer to read a request counts as the server's, as any other
// queue in it would; elsewhere, for HTTP/2, or for a read the kernel did
// not stamp, a request arrives when its handler starts. Clients that do
// not know the member ignore it. (The vllm:* latency histograms are
// observed when the engine produces the tokens, from the same arrival.)
//
// # Faults
//
// Config.Faults makes the server misbehave on purpose, so that clients'
// retry logic and surge's own error handling can be tested without a
// broken real server. ParseFaults reads the syntax of `surge serve
// --faults`: comma-separated items, each a rule
//
//	KIND[=ARG][:PROB][@FROM-[TO][/EVERY]]
//
// or one of retry-after=DUR and restart=DOWN@AT. The rule kinds are
//
//	status=CODE        answer CODE (400–599) instead of serving
//	stall-headers=DUR  hold the request DUR before any byte of the response
//	stall-stream=DUR   pause a stream DUR after some of its chunks
//	reset              close the connection with a TCP RST, no response
//	reset-stream       close the connection after some chunks of a stream
//	broken-sse         write one malformed event (a chunk's JSON cut in
//	                   half) into a stream, which then goes on
//
// PROB is the chance per request, a fraction or a percentage (0.05, 5%;
// default 1). The window is of offsets from the server's start: @10s-20s is
// [10 s, 20 s), @10s- has no end, @10s-20s/1m repeats every minute; with
// none the rule always applies. Durations are Go's (500ms, 1m30s). Rules
// apply to valid completion requests only, after the body is read; stream
// kinds to streamed ones only, at a token u·(output−1) into the stream, u
// uniform. Each open rule draws independently; the stall comes first, and
// of status and reset the first listed to fire wins.
//
// retry-after=DUR sets the Retry-After of injected 429 and 503 answers in
// whole seconds rounded up (default 1s; 0 sends none).
//
// restart=DOWN@AT simulates an engine restart AT after the start: every
// request in flight is dropped, its connection closed without a proper end
// (streams cut mid-body, whole responses before their headers), and aborted
// in the engine, which is replaced by an empty one (KV and prefix cache
// freed; the counters on /metrics carry on). For DOWN every request but
// GET /metrics is refused with 503 and a Retry-After of the downtime left.
// Restarts must not overlap.
//
// For example:
//
//	status=429:0.1,status=503@10s-20s,retry-after=2s,stall-headers=3s:0.05,
//	stall-stream=5s:0.05,reset:0.02,reset-stream:2%,broken-sse:0.02,restart=5s@30s
//
// Draws come from a PCG seeded with Config.FaultSeed, so the same seed and
// the same order of requests inject the same faults. Each injected fault
// is counted in surge:faults_injected_total{kind} on /metrics, kind one of
// status_CODE, stall_headers, stall_stream, reset, reset_stream,
// broken_sse, restart, restart_cut (a request dropped by a restart) and
// restart_refused, and, with Config.FaultLog set, logged there as a line
// "fault t=OFFSET kind=KIND …".
//
// # Limits
//
// Serve binds what it is given (Start and `surge serve` bind loopback). It
// caps bodies at Config.MaxBodyBytes (16 MiB; 413) and headers at 64 KiB,
// and times out clients that take over 10 s to send their headers or
// Config.BodyTimeout (a minute) to send their body (408, and the
// connection closes, keep-alive or not); it sets no write timeout, which
// would cut long streams. Decoding and tokenizing a body costs about 70
// times its size at the peak, so at most Config.MaxDecodeBytes of bodies
// (MaxBodyBytes by default) are decoded at once, and at most 16 ×
// MaxBodyBytes are held while read or waiting; a request that finds no room
// within 10 s is answered 503 with Retry-After: 1. Once a body of 1 MiB or
// more has been decoded and none is being decoded, the heap it took is
// handed back to the operating system (debug.FreeOSMemory).
package server
