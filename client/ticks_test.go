package client

import (
	"context"
	"net/http"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"surge/trace"
)

func TestTicksTimes(t *testing.T) {
	t.Parallel()
	t0 := time.Now()
	t1, t2 := time.Now(), time.Now() // real readings: wall and monotonic read apart
	tests := []struct {
		in     []time.Time
		reason string
	}{
		{nil, "no token event: nil"},
		{[]time.Time{t0}, "one event: the instant itself"},
		{[]time.Time{t0, t0, t0.Add(5 * time.Millisecond)}, "events of one read share its instant"},
		{[]time.Time{t0, t0.Add(time.Nanosecond), t0.Add(3 * time.Hour)}, "nanosecond and hour gaps are exact"},
		{[]time.Time{t0, t1, t2}, "separate clock readings keep their monotonic readings"},
	}
	for _, tt := range tests {
		var tk ticks
		for _, at := range tt.in {
			tk.add(at)
		}
		got := tk.times()
		if len(got) != len(tt.in) || (tt.in == nil) != (got == nil) {
			t.Errorf("%s: %d times (nil %v), want %d", tt.reason, len(got), got == nil, len(tt.in))
			continue
		}
		for i, at := range tt.in {
			if !got[i].Equal(at) || got[i].Sub(got[0]) != at.Sub(tt.in[0]) {
				t.Errorf("%s: time %d is %v, want %v", tt.reason, i, got[i], at)
			}
		}
		if len(got) > 0 && got[0] != tt.in[0] {
			t.Errorf("%s: first time %v, want exactly %v", tt.reason, got[0], tt.in[0])
		}
	}
}

// TestTicksBounded adds more token events than are kept one by one: the
// first trace.MaxITLGaps+1 times are kept exactly, and every later gap is
// counted in the tail, with the count and sum exact.
func TestTicksBounded(t *testing.T) {
	t.Parallel()
	t0 := time.Now()
	const extra = 5000
	var tk ticks
	n := trace.MaxITLGaps + 1 + extra
	for i := range n {
		tk.add(t0.Add(time.Duration(i) * 3 * time.Microsecond))
	}
	times := tk.times()
	if len(times) != trace.MaxITLGaps+1 || !times[len(times)-1].Equal(t0.Add(time.Duration(trace.MaxITLGaps)*3*time.Microsecond)) {
		t.Fatalf("%d times kept, want the first %d", len(times), trace.MaxITLGaps+1)
	}
	tail := tk.tail
	if tail == nil || tail.N != extra || tail.SumUS != 3*extra || len(tail.Gaps) != 1 || tail.Gaps[0] != [2]int64{3, extra} {
		t.Fatalf("tail %+v, want %d gaps of 3 µs", tail, extra)
	}
	if cap(tk.after) > 2*(trace.MaxITLGaps+1) {
		t.Errorf("offsets buffer of %d, want it to stop growing at %d", cap(tk.after), trace.MaxITLGaps+1)
	}
}

func TestTicksRelease(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cap    int
		kept   bool
		reason string
	}{
		{16, true, "a small buffer serves the next request"},
		{maxKeptTicks, true, "the largest kept"},
		{maxKeptTicks + 1, false, "a larger one is dropped, so an idle reader stays small"},
	}
	for _, tt := range tests {
		r := &reader{}
		tk := ticks{after: make([]time.Duration, 3, tt.cap)}
		tk.release(r)
		if kept := cap(r.ticks) == tt.cap; kept != tt.kept || len(r.ticks) != 0 || tk.after != nil {
			t.Errorf("%s: reader holds len %d cap %d, want kept %v and empty", tt.reason, len(r.ticks), cap(r.ticks), tt.kept)
		}
	}
}

// TestTokenTimesReused sends streams one after another on one client, so
// that their readers, and the tick buffers in them, are reused: each
// result has its own token times, one per token event, within its read.
func TestTokenTimesReused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tokens, cancelAfter int
		reason              string
	}{
		{40, 0, "a stream fills the buffer"},
		{3, 0, "a shorter one after it sees none of the first's times"},
		{50, 7, "a stream given up on keeps the times it read"},
		{0, 0, "a stream with no token event has none"},
	}
	var next atomic.Int64 // the row the server answers; requests go one at a time
	c, _ := serve(t, Config{MaxConns: 1}, func(w http.ResponseWriter, r *http.Request) {
		streamTokens(tests[next.Add(1)-1].tokens, 1, 0)(w, r)
	})
	for _, tt := range tests {
		req := chatReq()
		req.CancelAfterTokens = tt.cancelAfter
		res := c.Do(context.Background(), req)
		want := tt.tokens
		if tt.cancelAfter > 0 {
			want = tt.cancelAfter
		}
		got := res.TokenTimes
		if len(got) != want || res.Chunks != want || !slices.IsSortedFunc(got, time.Time.Compare) ||
			len(got) > 0 && (got[0] != res.FirstToken || got[len(got)-1].After(res.Last) || got[0].Before(res.FirstByte)) {
			t.Errorf("%s: %d token times for %d chunks, want %d within the read", tt.reason, len(got), res.Chunks, want)
		}
	}
}
