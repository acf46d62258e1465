package driver

import (
	"context"
	"testing"
	"time"

	"surge/trace"
)

// TestStrikeSparesLaterRequests strikes a storm late, as a loaded machine
// fires its timer: the requests meant for after its instant are in flight
// too, and are not cancelled, so every request it cancels is one the
// records attribute to it (intended_us ≤ at_us).
func TestStrikeSparesLaterRequests(t *testing.T) {
	w := trace.FaultWindow{Kind: trace.FaultStorm, Client: "c", AtUS: 2_000_000, Fraction: 1}
	s := newStorms([]trace.FaultWindow{w})
	tests := []struct {
		intended time.Duration
		stormed  bool
	}{
		{1900 * time.Millisecond, true},
		{2000 * time.Millisecond, true},
		{2000*time.Millisecond + 400*time.Nanosecond, true}, // 2,000,000 µs to the record
		{2001 * time.Millisecond, false},
		{2500 * time.Millisecond, false},
	}
	untrack := make([]func() bool, len(tests))
	for i, tt := range tests {
		sess := &trace.Session{Client: "c", Index: i, Turns: []trace.Turn{{}}}
		_, untrack[i] = s.track(context.Background(), &attempt{session: sess, intended: tt.intended})
	}
	s.strike(w)
	for i, tt := range tests {
		if got := untrack[i](); got != tt.stormed {
			t.Errorf("request intended at %v: stormed %v, want %v", tt.intended, got, tt.stormed)
		}
	}
}
