package virtual

import (
	"testing"
	"time"
)

// TestUS: us rounds as Duration.Round(time.Microsecond) does.
func TestUS(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d      time.Duration
		reason string
	}{
		{0, "zero"},
		{499, "below half: down"},
		{500, "a half: away from zero"},
		{1499, "below half past a whole microsecond"},
		{1500, "a half past a whole microsecond"},
		{-499, "negative, below half: toward zero"},
		{-500, "negative half: away from zero"},
		{-1501, "negative past a half"},
		{100*time.Hour + 1500, "long runs"},
	}
	for _, tt := range tests {
		if got, want := us(tt.d), int64(tt.d.Round(time.Microsecond)/time.Microsecond); got != want {
			t.Errorf("%s: us(%d) = %d, want %d", tt.reason, tt.d, got, want)
		}
	}
}
