// Package virtual runs a workload through replicas of the sim engine in
// virtual time: no sleeping, no network, no goroutines. It produces the same
// records `surge run` writes for a real server, thousands of times faster
// than real time, for capacity planning.
//
// # Event loop
//
// Run is a discrete-event simulation. Its events are request arrivals
// (open-loop sessions at their trace offsets; closed-loop sessions and later
// turns when the request before them finishes) and, for each replica, the
// end of the step it is running. At every iteration the earliest event is
// taken; at equal times a step's results are delivered first, then arrivals
// are routed, then idle replicas with work start a step. A replica steps
// its engine at time t and holds the step's events until t+Duration, when
// they are delivered: records are written and follow-up requests arrive.
// Requests that arrive during a step join the next one, as in vLLM.
//
// # Records
//
// A request is measured as the driver measures a streaming request to a
// server with no network between them, one token per SSE chunk:
//
//	IntendedUS = SentUS = arrival
//	TTFTUS = FirstByteUS = TTFOUS = t(first token) − arrival
//	ITLUS[i] = round(t(token i+1) − arrival) − round(t(token i) − arrival)
//	E2EUS = t(last token) − arrival
//	Chunks = ServerOutputTokens = output tokens, ServerInputTokens = prompt tokens
//	CachedTokens = prompt tokens found in the prefix cache at admission
//
// all rounded to whole microseconds. A prompt longer than the context gets
// a record with error class "http", status 400 and vLLM's message, as a
// vLLM server would answer. When ctx is cancelled, each request still in
// flight gets a record of error class "cancelled" holding the tokens it
// had received (E2EUS ends at the last of them, or at the interrupt when
// there was none), as the driver records streams cut off by Ctrl-C.
//
// # Output length
//
// Every request generates its turn's OutputTokens (at least 1). With
// ignore_eos or min_tokens the server is asked for exactly that many; without
// them the trace's sampled length stands for the natural length at which the
// model would stop, so it is used as well. MaxTokens caps it, and so does
// the context (MaxModelLen − prompt), with finish reason "length".
//
// # Prefix caching
//
// Traces carry prompt text, not token IDs, so block hashes are taken over
// text: the prompt bytes are cut into consecutive slices of B bytes, where
//
//	B = 16 · (Σ prompt bytes / Σ input tokens)   over the whole workload,
//
// about one 16-token KV block, and block b's hash chains over everything
// before it (CRC-64 of bytes [0, (b+1)·B)). Identical prompt prefixes
// therefore produce identical hashes whatever follows them, and a prompt
// yields at most ⌊InputTokens/16⌋ hashes, one per full block.
package virtual
