package server

import (
	"context"
	"sync"
)

// budget is a FIFO semaphore over bytes: it bounds the bytes of request
// bodies that are held, or decoded and tokenized, at once. A request
// larger than the whole budget takes all of it. The zero value is not
// usable; use newBudget.
type budget struct {
	limit int64

	mu      sync.Mutex // guards used and waiters
	used    int64
	waiters []*waiter // in arrival order
}

// waiter is a request queued for n bytes; ready closes when they are its.
type waiter struct {
	n     int64
	ready chan struct{}
}

func newBudget(limit int64) *budget { return &budget{limit: limit} }

// acquire takes n bytes of the budget (at most the whole of it), waiting
// in arrival order until they are free or ctx ends. It returns the bytes
// taken, to give to release, or ctx's error.
func (b *budget) acquire(ctx context.Context, n int64) (int64, error) {
	n = min(max(n, 0), b.limit)
	b.mu.Lock()
	if len(b.waiters) == 0 && b.used+n <= b.limit {
		b.used += n
		b.mu.Unlock()
		return n, nil
	}
	w := &waiter{n: n, ready: make(chan struct{})}
	b.waiters = append(b.waiters, w)
	b.mu.Unlock()
	select {
	case <-w.ready:
		return n, nil
	case <-ctx.Done():
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-w.ready: // granted as ctx ended: give the bytes back
		b.used -= n
	default:
		for i, o := range b.waiters {
			if o == w {
				b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
				break
			}
		}
	}
	b.grant()
	return 0, ctx.Err()
}

// release gives back n bytes taken by acquire and wakes the waiters that
// now fit, in order. It reports whether the budget is now wholly free.
func (b *budget) release(n int64) (idle bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
	b.grant()
	return b.used == 0
}

// grant hands bytes to the waiters at the head of the queue while they
// fit. b.mu must be held.
func (b *budget) grant() {
	for len(b.waiters) > 0 {
		w := b.waiters[0]
		if b.used+w.n > b.limit {
			return
		}
		b.used += w.n
		close(w.ready)
		b.waiters = b.waiters[1:]
	}
}

// inUse returns the bytes taken now.
func (b *budget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}
