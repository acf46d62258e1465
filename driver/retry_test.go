package driver

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"surge/client"
	"surge/trace"
)

func TestRetryable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		res    client.Result
		want   bool
		reason string
	}{
		{client.Result{ErrClass: trace.ErrConnection, Cause: client.CauseRefused}, true, "refused: nothing reached the server"},
		{client.Result{ErrClass: trace.ErrConnection, Cause: client.CauseReset}, true, "reset while the request was written"},
		{client.Result{ErrClass: trace.ErrConnection, Cause: client.CauseReset, Sent: time.Now()}, true, "reset while the request was written: handed to a connection, not written whole"},
		{client.Result{ErrClass: trace.ErrConnection, Cause: client.CauseReset, Sent: time.Now(), Written: true}, false, "reset after the request was written: the server may have it"},
		{client.Result{ErrClass: trace.ErrConnection, Cause: client.CauseClosed, Sent: time.Now(), Written: true}, false, "closed after the request was written"},
		{client.Result{ErrClass: trace.ErrTimeout, Cause: client.CauseConnectTimeout}, true, "no connection: nothing left"},
		{client.Result{ErrClass: trace.ErrTimeout, Cause: client.CauseFirstByteTimeout, Sent: time.Now(), Written: true}, false, "the server had it and said nothing"},
		{client.Result{ErrClass: trace.ErrConnection, Status: 200, FirstByte: time.Now()}, false, "broken mid-stream: the server did work"},
		{client.Result{ErrClass: trace.ErrHTTP, Status: 429}, true, "too many requests"},
		{client.Result{ErrClass: trace.ErrHTTP, Status: 503}, true, "unavailable"},
		{client.Result{ErrClass: trace.ErrHTTP, Status: 500}, false, "a server error is data"},
		{client.Result{ErrClass: trace.ErrTimeout, Cause: client.CauseDeadline}, false, "other timeouts are never retried"},
		{client.Result{ErrClass: trace.ErrStream}, false, "stream errors are never retried"},
		{client.Result{ErrClass: trace.ErrCancelled}, false, "cancelled by surge"},
		{client.Result{Status: 200}, false, "success"},
	}
	for _, tt := range tests {
		if got := retryable(&tt.res); got != tt.want {
			t.Errorf("%s: retryable = %v", tt.reason, got)
		}
	}
}

func TestRetryDelay(t *testing.T) {
	t.Parallel()
	p := RetryPolicy{Backoff: 100 * time.Millisecond, MaxBackoff: time.Second}.withDefaults()
	s := &trace.Session{Client: "c", Index: 3}
	tests := []struct {
		k          int
		retryAfter time.Duration
		lo, hi     time.Duration // delay in [lo, hi)
		reason     string
	}{
		{1, 0, 50 * time.Millisecond, 100 * time.Millisecond, "first re-send: [Backoff/2, Backoff)"},
		{3, 0, 200 * time.Millisecond, 400 * time.Millisecond, "doubles: Backoff·2²"},
		{5, 0, 500 * time.Millisecond, time.Second, "capped at MaxBackoff before jitter"},
		{80, 0, 500 * time.Millisecond, time.Second, "a huge attempt number does not overflow"},
		{1, 700 * time.Millisecond, 700 * time.Millisecond, 700*time.Millisecond + 1, "Retry-After longer than the backoff is honoured"},
		{1, time.Hour, time.Second, time.Second + 1, "Retry-After beyond the cap waits the cap"},
	}
	for _, tt := range tests {
		rng := p.rand(s, 0)
		for range 100 {
			if d := p.delay(tt.k, tt.retryAfter, rng); d < tt.lo || d >= tt.hi {
				t.Errorf("%s: delay(%d, %v) = %v, want in [%v, %v)", tt.reason, tt.k, tt.retryAfter, d, tt.lo, tt.hi)
				break
			}
		}
	}
	a, b, other := p.rand(s, 0), p.rand(s, 0), p.rand(s, 1)
	da, db, do := p.delay(1, 0, a), p.delay(1, 0, b), p.delay(1, 0, other)
	if da != db || da == do {
		t.Errorf("jitter %v, %v for the same request, %v for another: want equal, then different", da, db, do)
	}
}

// TestRetriedRecord sends each request to a server that answers 503 twice
// before succeeding: the record is the last attempt's, counts 2 re-sends,
// and its lag is exactly the two seeded waits.
func TestRetriedRecord(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int64
		f := &fake{}
		doer := doerFunc(func(ctx context.Context, req *client.Request) *client.Result {
			if calls.Add(1)%3 != 0 {
				return &client.Result{Sent: time.Now(), Last: time.Now(), Status: 503, ErrClass: trace.ErrHTTP, Err: "HTTP 503"}
			}
			return f.Do(ctx, req)
		})
		p := RetryPolicy{Max: 5, Backoff: 100 * time.Millisecond, Seed: 7}
		h, ss := openTrace([]int64{0}, []int{10})
		end, out := runBubble(t, t.Context(), mustNew(t, Config{Client: doer, Retry: p}, h, ss), f)
		p = p.withDefaults()
		rng := p.rand(ss[0], 0)
		wait := p.delay(1, 0, rng) + p.delay(2, 0, rng)
		r := out.recs[0]
		if len(out.recs) != 1 || end.Sent != 1 || !r.OK() || r.Retries != 2 || r.SentUS-r.IntendedUS != us(wait) || r.E2EUS != 10_000 {
			t.Errorf("%d records, sent %d; record ok %v retries %d lag %dus e2e %dus; want one success, 2 retries, lag %dus, e2e 10ms",
				len(out.recs), end.Sent, r.OK(), r.Retries, r.SentUS-r.IntendedUS, r.E2EUS, us(wait))
		}
	})
}

// TestRetriesApartFromResends sends each request through a client that
// re-sends it once on a fresh connection at every attempt, to a server that
// answers 503 twice before succeeding: the record counts the policy's 2
// retries and, apart, the client's 3 re-sends, one per attempt.
func TestRetriesApartFromResends(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason           string
		policy           RetryPolicy
		retries, resends int
		ok               bool
	}{
		{"with a retry policy", RetryPolicy{Max: 5, Seed: 7}, 2, 3, true},
		{"without one", RetryPolicy{}, 0, 1, false},
	}
	for _, tt := range tests {
		synctest.Test(t, func(t *testing.T) {
			var calls atomic.Int64
			f := &fake{}
			doer := doerFunc(func(ctx context.Context, req *client.Request) *client.Result {
				if calls.Add(1)%3 != 0 {
					return &client.Result{Sent: time.Now(), Last: time.Now(), Status: 503, ErrClass: trace.ErrHTTP, Err: "HTTP 503", Resends: 1}
				}
				res := *f.Do(ctx, req)
				res.Resends = 1
				return &res
			})
			h, ss := openTrace([]int64{0}, []int{10})
			_, out := runBubble(t, t.Context(), mustNew(t, Config{Client: doer, Retry: tt.policy}, h, ss), f)
			r := out.recs[0]
			if len(out.recs) != 1 || r.OK() != tt.ok || r.Retries != tt.retries || r.Resends != tt.resends {
				t.Errorf("%s: %d records; ok %v, retries %d, resends %d; want one record, ok %v, %d retries, %d resends",
					tt.reason, len(out.recs), r.OK(), r.Retries, r.Resends, tt.ok, tt.retries, tt.resends)
			}
		})
	}
}

// TestRetryInterrupted interrupts a run while a request waits to be
// re-sent: the wait ends at once and the last failure is recorded.
func TestRetryInterrupted(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		doer := doerFunc(func(ctx context.Context, req *client.Request) *client.Result {
			return &client.Result{Sent: time.Now(), Last: time.Now(), Status: 429, ErrClass: trace.ErrHTTP, Err: "HTTP 429", RetryAfter: time.Minute}
		})
		h, ss := openTrace([]int64{0}, []int{0})
		d := mustNew(t, Config{Client: doer, Drain: 3 * time.Hour, Retry: RetryPolicy{Max: 3, MaxBackoff: time.Hour}}, h, ss)
		time.AfterFunc(90*time.Second, cancel) // during the second wait
		start := time.Now()
		end, out := runBubble(t, ctx, d, nil)
		r := out.recs[0]
		if !end.Interrupted || time.Since(start) > 2*time.Hour || r.Status != 429 || r.Retries != 1 {
			t.Errorf("interrupted %v; record status %d retries %d: want the 429 after 1 re-send", end.Interrupted, r.Status, r.Retries)
		}
		if el := time.Duration(end.DurationUS) * time.Microsecond; el != 90*time.Second {
			t.Errorf("run lasted %v, want 90s: the interrupt must end the wait", el)
		}
	})
}

func TestRetryPolicyValidate(t *testing.T) {
	t.Parallel()
	h, ss := openTrace([]int64{0}, []int{0})
	tests := []struct {
		p      RetryPolicy
		want   string
		reason string
	}{
		{RetryPolicy{Max: -1}, "--retries -1: want 0 or more", "negative count"},
		{RetryPolicy{Backoff: -time.Second}, "want 0 (the default) or more", "negative backoff"},
		{RetryPolicy{Backoff: time.Minute}, "is longer than --retry-max-backoff", "backoff beyond the default cap"},
	}
	for _, tt := range tests {
		_, err := New(Config{Client: &fake{}, Retry: tt.p}, h, ss)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: New error %v, want %q", tt.reason, err, tt.want)
		}
	}
	if _, err := New(Config{Client: &fake{}, Retry: RetryPolicy{Max: 3}}, h, ss); err != nil {
		t.Errorf("defaults: %v", err)
	}
}
