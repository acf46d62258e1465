package fit

import (
	"errors"
	"testing"

	"surge/trace"
)

// TestTrafficLimit writes sessions past a Traffic's limit: the sessions
// within it are kept, the one that would pass it is refused with
// ErrTooLarge, and so is every one after.
func TestTrafficLimit(t *testing.T) {
	tr := &Traffic{Limit: 5}
	two := &trace.Session{Client: "c", Turns: make([]trace.Turn, 2)}
	for i, want := range []error{nil, nil, ErrTooLarge, ErrTooLarge} {
		if err := tr.Write(two); !errors.Is(err, want) {
			t.Fatalf("session %d: %v, want %v", i, err, want)
		}
	}
	if n := len(tr.Samples["c"].In); n != 4 {
		t.Errorf("%d requests kept, want 4", n)
	}
}
