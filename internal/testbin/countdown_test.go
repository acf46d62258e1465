package testbin

import (
	"context"
	"errors"
	"testing"
)

// TestCountdown answers nil left times, then context.Canceled.
func TestCountdown(t *testing.T) {
	t.Parallel()
	for _, left := range []int64{0, 1, 3} {
		c := NewCountdown(context.Background(), left)
		for i := range left + 2 {
			if err := c.Err(); (err == nil) != (i < left) || err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("left %d, call %d: %v", left, i+1, err)
			}
		}
	}
}
