package client

import (
	"time"

	"surge/trace"
)

// firstTicks is the capacity a new reader's tick buffer starts with (512
// bytes): enough for a short stream without growing it.
const firstTicks = 64

// maxKeptTicks is the capacity above which a tick buffer is not kept in
// the pool for the next request: as many bytes as a text buffer.
const maxKeptTicks = maxKeptBuf / 8

// ticks collects the arrival times of a stream's token events while it is
// read, as offsets from the first on the monotonic clock: 8 bytes a token
// rather than a time.Time's 24, in a buffer the pooled reader keeps from
// one request to the next. A stream in flight thus holds a third of what
// its token times will take, and none of it is allocated for tokens that
// never come (a 500-token stream 200 tokens in: 2 KiB, not 11.7 KiB for
// max_tokens times up front). Result.TokenTimes is built once, at the
// right size, when reading ends.
//
// Only the first trace.MaxITLGaps+1 times are kept; the gaps after them
// are counted in tail as they come, so a stream of a million tiny events
// holds 128 KiB of times and a tail of at most some thousand values, not
// 8 MB growing with every event.
type ticks struct {
	first time.Time       // the first token event; zero before it
	after []time.Duration // now − first of every token event, in order
	// tail counts the gaps after the kept times: each gap is the
	// difference of the rounded µs offsets from first, lastUS the
	// latest's.
	tail   *trace.GapTail
	lastUS int64
}

// add records a token event read at now.
func (t *ticks) add(now time.Time) {
	if t.first.IsZero() {
		t.first = now
	}
	d := now.Sub(t.first)
	switch {
	case len(t.after) <= trace.MaxITLGaps:
		t.after = append(t.after, d)
		return
	case t.tail == nil:
		t.tail = &trace.GapTail{}
		t.lastUS = roundUS(t.after[len(t.after)-1])
	}
	cur := roundUS(d)
	t.tail.Add(cur - t.lastUS)
	t.lastUS = cur
}

// roundUS rounds d to the nearest whole microsecond, as the driver rounds
// offsets.
func roundUS(d time.Duration) int64 {
	return int64(d.Round(time.Microsecond) / time.Microsecond)
}

// times returns the recorded times, or nil if there are none. The first
// is the instant read; each other is first plus its offset, the same
// monotonic reading as the instant read (Time.Equal and Sub give what they
// would have given on it), with the wall clock derived from the first's.
func (t *ticks) times() []time.Time {
	if len(t.after) == 0 {
		return nil
	}
	out := make([]time.Time, len(t.after))
	for i, d := range t.after {
		out[i] = t.first.Add(d)
	}
	return out
}

// release hands the offsets buffer back to r for the next request, unless
// it grew large.
func (t *ticks) release(r *reader) {
	if cap(t.after) <= maxKeptTicks {
		r.ticks = t.after[:0]
	}
	t.after, t.tail = nil, nil
}
