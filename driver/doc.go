// Package driver sends the sessions of a trace to a server and writes one
// record per request as it finishes.
//
// Open-loop clients (concurrency 0 in the trace header) follow the trace's
// schedule: session i is due at start + AtUSᵢ, an absolute instant computed
// from data, never "an interval after the last send". One dispatcher waits
// for each instant on a single reused timer and launches every session on
// its own goroutine, so a slow request never delays the next send. Each
// record keeps the evidence that the schedule was honoured:
//
//	intended = AtUS                      (the schedule's instant)
//	queue    = slot acquired − slot asked (waiting at MaxConcurrency)
//	lag      = SentUS − IntendedUS        (queue + dispatch + client overhead)
//	latency from intended = lag + E2EUS   (no coordinated omission)
//
// A timer fires up to about 1 ms late on Linux (Go's poller sleeps in
// whole milliseconds), so on Linux the dispatcher's timer is backed by a
// timerfd in the poller, which wakes it at the instant without holding a
// processor while it waits, even with GOMAXPROCS=1; Config.Spin buys lags
// of tens of µs with CPU.
//
// Closed-loop clients (concurrency N > 0) ignore offsets: N workers per
// client each take the client's next session, in index order, as soon as
// their previous one finishes; the instant of taking it is its intended
// time.
//
// A run has three phases. Scheduling lasts until every open-loop session
// before Config.Duration has been launched and every closed-loop session
// taken (or Duration has passed). Draining waits up to Config.Drain for the
// requests in flight. Then the rest are cancelled and recorded with error
// class "cancelled": they were sent, so they are data. Cancelling the
// context given to Run is an interrupt, not an error: scheduling stops at
// once, requests waiting for a slot are recorded as dropped, requests in
// flight get Config.InterruptDrain to finish, and Run returns with
// RunEnd.Interrupted set.
//
// A failed request is recorded as it failed, with the client's class and
// cause (see package client), and is not sent again unless Config.Retry
// allows it: then requests that never left (no connection, or one that
// failed before the request was wholly written) and 429/503 answers are
// re-sent after a seeded, jittered exponential backoff that
// honours Retry-After up to a cap, and the one record written after the
// last attempt counts the re-sends in Retries (see RetryPolicy), apart
// from the client's re-sends on a dead keep-alive connection (Resends).
//
// Sessions with several turns send them one after another: turn k+1 is
// intended at the instant turn k finished. A failed or dropped turn ends its
// session; the later turns are not sent.
package driver
