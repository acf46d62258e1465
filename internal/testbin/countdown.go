package testbin

import (
	"context"
	"sync/atomic"
)

// Countdown is a context whose Err turns to context.Canceled once it has
// been asked Left times: it interrupts a run at a chosen check of its
// context, the same one on every machine however loaded, where a timer
// would not. Done and the rest are its parent's.
type Countdown struct {
	context.Context
	left atomic.Int64
}

// NewCountdown returns a Countdown of parent whose first left calls of
// Err return nil.
func NewCountdown(parent context.Context, left int64) *Countdown {
	c := &Countdown{Context: parent}
	c.left.Store(left)
	return c
}

// Err reports context.Canceled once the countdown has run out.
func (c *Countdown) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}
