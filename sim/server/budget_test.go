package server

import (
	"context"
	"runtime"
	"testing"
)

// TestBudget: acquisitions that fit are granted at once, others wait in
// arrival order, a request larger than the budget takes all of it, and a
// waiter whose context ends leaves the queue without taking anything.
func TestBudget(t *testing.T) {
	t.Parallel()
	b := newBudget(100)
	ctx := context.Background()
	if n, err := b.acquire(ctx, 60); n != 60 || err != nil {
		t.Fatalf("acquire 60: %d, %v", n, err)
	}
	// 50 does not fit beside 60: it waits until ctx ends.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if n, err := b.acquire(cancelled, 50); n != 0 || err == nil {
		t.Fatalf("acquire 50 beside 60 with an ended context: %d, %v; want 0 and an error", n, err)
	}
	if got := b.inUse(); got != 60 {
		t.Fatalf("in use after a cancelled wait: %d, want 60", got)
	}
	// Two waiters queue in order: 500 (clamped to 100) and then 10.
	granted := make(chan int64, 2)
	go func() { n, _ := b.acquire(ctx, 500); granted <- n }()
	waitWaiters(t, b, 1)
	go func() { n, _ := b.acquire(ctx, 10); granted <- n }()
	waitWaiters(t, b, 2)
	if idle := b.release(60); idle {
		t.Fatal("release 60: idle although the first waiter now holds the budget")
	}
	if n := <-granted; n != 100 {
		t.Fatalf("first waiter got %d, want the whole budget, 100", n)
	}
	select {
	case n := <-granted:
		t.Fatalf("second waiter got %d while the first holds the whole budget", n)
	default:
	}
	if idle := b.release(100); idle {
		t.Fatal("release 100: idle although the second waiter now holds 10")
	}
	if n := <-granted; n != 10 {
		t.Fatalf("second waiter got %d, want 10", n)
	}
	if idle := b.release(10); !idle {
		t.Fatal("release 10: not idle")
	}
}

// waitWaiters waits until b has n waiters queued.
func waitWaiters(t *testing.T, b *budget, n int) {
	t.Helper()
	for {
		b.mu.Lock()
		got := len(b.waiters)
		b.mu.Unlock()
		if got == n {
			return
		}
		runtime.Gosched()
	}
}
