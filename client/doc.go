// Package client sends requests to OpenAI-compatible servers and times
// every event of the response with the monotonic clock, as bytes arrive.
//
// Request.API picks the endpoint and its wire format (openai.APIs): chat
// and completions; OpenAI's Responses API, whose typed events end with
// response.completed rather than [DONE]; Anthropic's Messages API, sent
// with anthropic-version and the API key as x-api-key besides the bearer
// token; embeddings, a batch of inputs answered with one body of
// vectors; and rerank and score, a query and its documents answered with
// one body of scores (these three are never streamed and have no tokens
// to time). Every API's events are read in chat's terms by
// openai.DecodeAPI, so a Result means the same whatever the API.
//
// Times are taken where they happen, not after parsing: Sent just before
// the request's first bytes are written to an HTTP/1 connection (when it
// is handed to its connection over HTTP/2); then the body is read with
// one reused
// 16 KB buffer, each Read is stamped as it returns, the bytes go to an
// incremental SSE parser, and every event that read completed is stamped
// with that time before its JSON is decoded. On Linux a read's stamp is
// when its bytes reached the client's socket, the kernel's receive
// timestamp (internal/recvtime), so a reader the machine runs late, busy
// with other streams or the garbage collector, still times events when
// they came; elsewhere, and for paced reads (Request.ReadRate, Stall),
// it is the moment Read returned. Decoding only asks
// whether an event carries reasoning, answer text or a tool call, so a
// role-only first delta or a usage-only last chunk is never a token; the
// generated text itself is built only when Request.KeepText asks for it (a
// multi-turn session appending the reply to its conversation).
//
// A failed request is data, not a Go error: Result.ErrClass names one of
// the classes of trace.Err* ("http", "stream", "timeout", "connection",
// "cancelled", "too_large"; see Client.Do for the rules), Result.Cause says
// exactly what happened (refused, reset, closed; a connect, first-byte or
// idle timeout or the overall deadline; a status, an error event, malformed
// or truncated data), Result.Err says it for people without ever containing
// the API key, and the times observed before the failure are kept.
//
// Every request is bounded: Config.ConnectTimeout, FirstByteTimeout and
// IdleTimeout end a request stuck in one phase (a watch cancels its context
// with the phase as the cause), Config.Timeout bounds the whole, and
// Config.MaxResponseBytes (64 MiB by default) caps what one body may make
// the client read, so memory per request stays bounded whatever the server
// sends. A non-2xx answer's Retry-After is parsed into Result.RetryAfter
// for callers that retry; Do itself never retries a failure.
//
// Connections are pooled (HTTP/1.1 by default, HTTP/2 on request, h2c for
// http://) without compression, so bytes are seen as they arrive. Servers
// that close the connection after every response while advertising
// keep-alive (llama-server) would make net/http fail the next POST on that
// connection; Do re-sends such a request once on a fresh connection, and
// only when nothing at all was received.
package client
