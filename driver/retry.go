package driver

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"time"

	"surge/client"
	"surge/trace"
)

// Defaults of a RetryPolicy whose delays are left at zero.
const (
	DefaultBackoff    = 100 * time.Millisecond
	DefaultMaxBackoff = 10 * time.Second
)

// RetryPolicy says when the driver sends a failed request again. Its zero
// value never retries: a failure is data, recorded as it happened.
//
// Only requests the server cannot have acted on are retried: those that
// never left (no connection within the connect timeout, a refused
// connection, or a connection that failed before the request was wholly
// written: client.Result.Written is false), and the statuses that ask the
// client to come back, 429 Too Many Requests and 503 Service Unavailable.
// A connection reset or closed after the request was written is not: the
// server may have received it and started the work. Other timeouts, other
// statuses, stream errors and cancellations never are.
//
// Before re-send k (k = 1, 2, …, Max) the driver waits
//
//	exp   = min(MaxBackoff, Backoff·2^(k−1))
//	delay = exp·(1+u)/2,    u ~ U[0,1)         ("equal jitter": [exp/2, exp))
//	delay = min(MaxBackoff, max(delay, Retry-After))  when the answer had one
//
// so a server's Retry-After is honoured up to MaxBackoff. u comes from a
// PCG generator seeded with (Seed, client, session, turn): the same
// request waits the same delays in every run with the same seed, whatever
// order the goroutines run in.
//
// One record is written per request, after its last attempt: its times,
// status and error are that attempt's, Record.Retries counts the re-sends
// of this policy (Record.Resends, apart, the client's own re-sends on a
// dead keep-alive connection, over every attempt), and the waits show in the schedule lag, sent_us − intended_us, so latency from
// the intended instant includes them. A concurrency slot stays held while
// the request waits to be re-sent. An interrupt (or the end of the drain)
// ends the waiting: the last attempt's failure is recorded.
type RetryPolicy struct {
	Max        int           // re-sends allowed after the first attempt (0: none)
	Backoff    time.Duration // base delay (0: DefaultBackoff)
	MaxBackoff time.Duration // cap on every delay, Retry-After included (0: DefaultMaxBackoff)
	Seed       uint64        // seeds the jitter
}

// withDefaults fills in the zero delays.
func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.Backoff == 0 {
		p.Backoff = DefaultBackoff
	}
	if p.MaxBackoff == 0 {
		p.MaxBackoff = DefaultMaxBackoff
	}
	return p
}

// Check reports every impossible value of p (a zero field takes its
// default); errors name the command line's flags.
func (p RetryPolicy) Check() error {
	var errs []error
	if p.Max < 0 {
		errs = append(errs, fmt.Errorf("--retries %d: want 0 or more", p.Max))
	}
	if p.Backoff < 0 || p.MaxBackoff < 0 {
		errs = append(errs, fmt.Errorf("--retry-backoff %v, --retry-max-backoff %v: want 0 (the default) or more", p.Backoff, p.MaxBackoff))
	}
	if d := p.withDefaults(); d.Backoff > 0 && d.MaxBackoff > 0 && d.Backoff > d.MaxBackoff {
		errs = append(errs, fmt.Errorf("--retry-backoff %v is longer than --retry-max-backoff %v", d.Backoff, d.MaxBackoff))
	}
	return errors.Join(errs...)
}

// retryable reports whether res failed in a way the policy retries: see
// RetryPolicy.
func retryable(res *client.Result) bool {
	switch res.ErrClass {
	case trace.ErrConnection:
		return neverLeft(res)
	case trace.ErrTimeout:
		return res.Cause == client.CauseConnectTimeout && neverLeft(res)
	case trace.ErrHTTP:
		return res.Status == 429 || res.Status == 503
	}
	return false
}

// neverLeft reports whether res's request was never wholly written, so
// that no server can have received it.
func neverLeft(res *client.Result) bool {
	return !res.Written && res.Status == 0 && res.FirstByte.IsZero()
}

// delay is the wait before re-send k (1-based) after a failure that asked
// for retryAfter (0: nothing asked); see RetryPolicy for the formula. p
// has its defaults.
func (p RetryPolicy) delay(k int, retryAfter time.Duration, rng *rand.Rand) time.Duration {
	exp := p.MaxBackoff
	if shift := k - 1; shift < 62 && p.Backoff <= p.MaxBackoff>>shift {
		exp = p.Backoff << shift
	}
	d := exp/2 + time.Duration(rng.Float64()*float64(exp/2))
	return min(p.MaxBackoff, max(d, retryAfter))
}

// rand returns the jitter source of one request, turn of session s.
func (p RetryPolicy) rand(s *trace.Session, turn int) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%d\x00%d", s.Client, s.Index, turn)
	return rand.New(rand.NewPCG(p.Seed, h.Sum64()))
}

// do sends req for a with ctx, re-sending it as the retry policy allows, and
// returns the last attempt's result. a.called and a.returned frame the last
// attempt; a.retries counts the policy's re-sends, a.resends the client's
// re-sends on a dead connection over every attempt: the one place either
// is counted.
func (r *run) do(ctx context.Context, a *attempt, req *client.Request) *client.Result {
	p := r.cfg.Retry
	var rng *rand.Rand
	for k := 1; ; k++ {
		a.called = time.Now()
		res := r.classify(r.cfg.Client.Do(ctx, req))
		a.returned = time.Now()
		a.retries, a.resends = k-1, a.resends+res.Resends
		if k > p.Max || !retryable(res) {
			return res
		}
		if rng == nil {
			rng = p.rand(a.session, a.turn)
		}
		if !r.pause(ctx, p.delay(k, res.RetryAfter, rng)) {
			return res
		}
	}
}

// pause waits d before a re-send, reporting false if the run halts or ctx
// (the request's) is cancelled first.
func (r *run) pause(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return !r.halted()
	case <-r.halt:
		return false
	case <-ctx.Done(): // the run's requests, or this one (a storm, a timed cancel)
		return false
	}
}
