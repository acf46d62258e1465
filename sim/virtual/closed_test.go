package virtual

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"surge/trace"
)

// inFlight returns the most requests in flight at once, and the number in
// flight just after each record's send, from the records' send and end times.
func inFlight(recs []trace.Record) (most int, atSend []int) {
	for _, r := range recs {
		n := 0
		for _, o := range recs {
			if o.SentUS <= r.SentUS && r.SentUS < o.SentUS+o.E2EUS {
				n++
			}
		}
		atSend = append(atSend, n)
		most = max(most, n)
	}
	return most, atSend
}

// TestClosedLoopKeepsNInFlight runs 9 sessions of a client with
// concurrency 3: offsets are ignored, three are in flight from time 0, and
// each later session starts the instant an earlier one ends, in index order.
func TestClosedLoopKeepsNInFlight(t *testing.T) {
	t.Parallel()
	var ss []*trace.Session
	for i := range 9 {
		// Varied lengths and far-off offsets that a closed loop must ignore.
		ss = append(ss, session(i, time.Hour, 32+16*i, 2+(i*7)%5))
	}
	recs, end := mustRun(t, Config{Cost: stepCost(time.Millisecond)}, header(3), ss)
	if len(recs) != 9 || end.Sent != 9 || end.DurationUS > 100_000 {
		t.Fatalf("%d records, end %+v", len(recs), end)
	}
	ends := make(map[int64]int)
	for _, r := range recs {
		ends[r.SentUS+r.E2EUS]++
	}
	bySend := slices.Clone(recs)
	slices.SortStableFunc(bySend, func(a, b trace.Record) int { return int(a.SentUS - b.SentUS) })
	for i, r := range bySend {
		switch {
		case i < 3 && r.SentUS != 0:
			t.Errorf("session %d sent at %d µs, want one of the first three at 0", r.Session, r.SentUS)
		case i >= 3 && ends[r.SentUS] == 0:
			t.Errorf("session %d sent at %d µs, when no request ended", r.Session, r.SentUS)
		case r.Session != i:
			t.Errorf("send order %d is session %d, want index order", i, r.Session)
		}
	}
	if most, _ := inFlight(recs); most != 3 {
		t.Errorf("at most %d in flight, want 3", most)
	}
}

// failSink fails every write.
type failSink struct{}

func (failSink) Write(*trace.Record) error { return errors.New("disk full") }

func TestSinkErrorStopsTheRun(t *testing.T) {
	t.Parallel()
	_, err := Run(context.Background(), Config{Cost: stepCost(time.Millisecond)}, header(0), []*trace.Session{session(0, 0, 16, 2)}, failSink{})
	if err == nil || err.Error() != "writing record: disk full" {
		t.Errorf("error %v, want the sink's, wrapped", err)
	}
}
