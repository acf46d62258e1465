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
// Server-Sent Events or whole JSON), GET /v1/models, GET /health and
// GET /metrics (Prometheus, vLLM's metric names, label model_name).
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
// # surge_timings
//
// The final usage chunk of a stream (when stream_options.include_usage is
// set) and every whole response carry, besides "usage", an extra member
//
//	"surge_timings": {"queued_ms": q, "ttft_ms": t, "e2e_ms": e}
//
// measured by the server: queued_ms is the engine's queue time (arrival to
// first admission), ttft_ms the real time from the request's arrival at
// the handler to the handler's flush of its first token (for a whole,
// non-streamed response, to the moment it is written), and e2e_ms the time
// from arrival to the writing of its last bytes. Clients that do not know
// the member ignore it. (The vllm:* latency histograms are observed when
// the engine produces the tokens.)
package server
