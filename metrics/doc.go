// Package metrics turns the records of a run into the figures a report
// shows: latency distributions with confidence intervals, throughput,
// goodput under SLOs, errors, a token audit, the prefix-cache hit rate
// the server reported (PrefixCache) and figures per session (Sessions).
// It does no I/O.
//
// Percentiles are exact: every raw value is kept and sorted (shards merge
// raw records, so merged percentiles stay exact). The p-th percentile of n
// sorted values x_(1) ≤ … ≤ x_(n) is the nearest rank x_(k), k = ⌈p/100·n⌉:
// always a value some request actually had. Its confidence interval is
// distribution-free, from order statistics: the number of values below the
// true percentile is Binomial(n, p/100), which gives ranks l and u with
// P(x_(l) ≤ ξ_p ≤ x_(u)) ≥ level (CIRanks). For small n no such ranks exist
// (p99 needs n ≥ 368 at 95%, p99.9 needs 3688); the interval is then
// absent and a warning says so.
//
// Which records count where is one rule, Population: records marked
// Warmup are excluded from everything but the concurrency sweep and the
// time series (a warmup request still in flight loads the server), and
// the summary counts them; records that carried an injected fault are
// reported in Faults only. Latencies are over successful requests (no
// error class); failures and drops are counted in Errors. TTFT, TTFO,
// ITL and TPOT leave out requests not streamed (Streamed), which have no
// token times. Definitions, in microseconds:
//
//	TTFT      TTFTUS: sent → first token of any kind; undefined (counted
//	          in Undefined) for a success without any token
//	TTFO      TTFOUS: sent → first answer token; only records with TTFOUS > 0
//	ITL       every gap of every successful request, pooled (not per-request
//	          means); a server that puts several tokens in one event makes
//	          one gap per event. No intervals: gaps of one request are
//	          correlated, so binomial intervals would be too narrow
//	TPOT      (E2E − TTFT) / (tokens − 1), tokens = usage.completion_tokens
//	          when the server reported it, else token-bearing chunks (which
//	          undercount a coalescing server); undefined below two tokens
//	E2E       E2EUS: sent → last byte
//	ttft+lag  TTFT, TTFO and E2E + max(lag, 0): latency from the
//	ttfo+lag  intended send time, which includes any queueing (no
//	e2e+lag   coordinated omission); an early send, only clock jitter,
//	          counts as on time (FromIntended)
//	lag       SentUS − IntendedUS over all sent requests, failures
//	          included; it includes the queue time
//	queue     QueueUS over all sent requests: waiting for a concurrency slot
//
// The measurement window runs from the earliest intended or sent time of a
// measured record to the latest completion (SentUS + E2EUS) of a measured
// sent one; request and token rates divide counts of successful requests
// by it (see Window and Throughput). The send and scheduled rates leave
// out closed-loop clients (Options.ClosedLoop), whose intended times are
// no schedule. Goodput counts successful requests
// that meet every SLO bound on their own (see Goodput); each SLO also gets
// a verdict on the scope's percentile (SLOCheck). SLOs on TTFT, TTFO and
// E2E are judged, both per request and on the percentile, on ttft+lag,
// ttfo+lag and e2e+lag: a server that answers fast once a request is
// sent, while requests queue behind the schedule, does not pass them.
// TPOT and ITL SLOs are judged on TPOT and ITL, which queueing does not
// change.
//
// Requests sharing a client and session index form a session (a chat, an
// agent episode, a batch job). When some measured session has more than
// one request, each scope also describes its sessions (see Sessions):
// how many completed or failed, and per complete session its duration
// (first intended send → last completion), requests, LLM time (Σ E2E,
// and the union of in-flight time), tool and think time (Σ waits of its
// later turns, by ToolCalls) and peak context; and TTFT, TTFO and ITL of
// opening turns apart from later turns, which a prefix cache speeds up.
package metrics
