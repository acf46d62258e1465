package virtual

import (
	"slices"
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

// TestFlightSpeculativeStep: a step that brings three tokens at once
// records them as three chunks, the first after the gap since the last
// step and the others 0 after it, and the answer starts in the step that
// passes the reasoning.
func TestFlightSpeculativeStep(t *testing.T) {
	t.Parallel()
	f := flight{reason: 2}
	f.token(10*time.Millisecond, 1)
	f.token(13*time.Millisecond, 4)
	f.token(15*time.Millisecond, 5)
	if want := []int64{3000, 0, 0, 2000}; !slices.Equal(f.itl, want) {
		t.Errorf("gaps %v, want %v", f.itl, want)
	}
	if f.answer != 13*time.Millisecond || f.first != 10*time.Millisecond || f.got != 5 {
		t.Errorf("answer %v, first %v, got %d; want 13ms, 10ms, 5", f.answer, f.first, f.got)
	}
}
