package driver

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"surge/trace"
)

func TestWarmup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		reason   string
		cfg      time.Duration
		headerUS int64
		want     []bool // for sessions at 0, 999, 1000 and 1500 ms
	}{
		{"config", "records intended before the warmup are marked, the boundary itself is not", time.Second, 0, []bool{true, true, false, false}},
		{"config wins", "a configured warmup replaces the trace's", time.Second, 5_000_000, []bool{true, true, false, false}},
		{"from the trace", "zero takes the trace header's warmup", 0, 1_500_000, []bool{true, true, true, false}},
		{"none", "a negative warmup marks nothing even when the trace has one", -1, 1_500_000, []bool{false, false, false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				h, ss := openTrace([]int64{0, 999, 1000, 1500}, repeat(4, 1))
				h.WarmupUS = tt.headerUS
				_, out := runBubble(t, t.Context(), mustNew(t, Config{Client: &fake{}, Warmup: tt.cfg}, h, ss), nil)
				recs := out.byKey()
				for i, want := range tt.want {
					if got := recs[key("o", i)].Warmup; got != want {
						t.Errorf("%s: session %d warmup %v, want %v", tt.reason, i, got, want)
					}
				}
			})
		})
	}
}

func TestDurationOpenLoop(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		// One session a second for 10 s, each 1.5 s long; stop at 5 s.
		at := []int64{0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000}
		h, ss := openTrace(at, repeat(10, 1500))
		f := &fake{}
		end, out := runBubble(t, t.Context(), mustNew(t, Config{Client: f, Duration: 5 * time.Second}, h, ss), f)
		// Sessions before 5 s (not the one at 5 s) are sent; the last,
		// sent at 4 s, finishes in the drain at 5.5 s.
		if len(out.recs) != 5 || end.Sent != 5 || end.Scheduled != 5 || end.DurationUS != 5_500_000 || end.Interrupted {
			t.Errorf("stopping at 5 s: %d records, end %+v; want the 5 sessions before 5 s, ending at 5.5 s", len(out.recs), end)
		}
		for _, r := range out.recs {
			if !r.OK() {
				t.Errorf("requests in flight when scheduling stops finish in the drain: %+v", r)
			}
		}
	})
}

func TestDurationClosedLoop(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		h := trace.Header{Text: true, Clients: []trace.ClientInfo{{Name: "c", Model: "m", Concurrency: 1}}}
		var ss []*trace.Session
		for i := range 10 {
			ss = append(ss, session("c", i, 0, 1000))
		}
		end, out := runBubble(t, t.Context(), mustNew(t, Config{Client: &fake{}, Duration: 3500 * time.Millisecond}, h, ss), nil)
		// Taken at 0, 1, 2 and 3 s; the one due at 4 s is past the duration.
		if len(out.recs) != 4 || end.Sent != 4 || end.Scheduled != 4 || end.DurationUS != 4_000_000 {
			t.Errorf("closed loop stopping at 3.5 s: %d records, end %+v; want 4 sent and scheduled, ending at 4 s", len(out.recs), end)
		}
	})
}

func TestDrainDeadline(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		reason string
		cap    int
		want   map[int]string // session → error class
		e2eUS  map[int]int64
		queue  map[int]int64
	}{
		{"in flight", "a request still running when the drain ends is cancelled and recorded; one that ends in time is not",
			0, map[int]string{0: trace.ErrCancelled, 1: "", 2: trace.ErrCancelled}, map[int]int64{0: 1_000_000, 1: 500_000, 2: 1_000_000}, nil},
		{"queued", "a request still waiting for a slot when the drain ends is dropped with its wait",
			1, map[int]string{0: trace.ErrCancelled, 1: trace.ErrDropped, 2: trace.ErrDropped}, map[int]int64{0: 1_000_000}, map[int]int64{1: 1_000_000, 2: 1_000_000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				h, ss := openTrace([]int64{0, 0, 0}, []int{100_000, 500, 100_000})
				f := &fake{}
				cfg := Config{Client: f, Drain: time.Second, MaxConcurrency: tt.cap}
				end, out := runBubble(t, t.Context(), mustNew(t, cfg, h, ss), f)
				recs := out.byKey()
				for i, class := range tt.want {
					r := recs[key("o", i)]
					if r.ErrorClass != class || r.E2EUS != tt.e2eUS[i] || r.QueueUS != tt.queue[i] {
						t.Errorf("%s: session %d: class %q e2e %d queue %d; want %q, %d, %d", tt.reason, i, r.ErrorClass, r.E2EUS, r.QueueUS, class, tt.e2eUS[i], tt.queue[i])
					}
					// Not the client's "context canceled": the drain, and what sets it.
					if want := "the drain period expired: the request was still in flight 1s after the schedule ended (set by --drain)"; class == trace.ErrCancelled && !strings.Contains(r.Error, want) {
						t.Errorf("%s: session %d: error %q, want it to say %q", tt.reason, i, r.Error, want)
					}
				}
				if end.DurationUS != 1_000_000 || end.Interrupted || len(out.recs) != 3 {
					t.Errorf("%s: end %+v, %d records; want the run to end with the 1 s drain, not interrupted", tt.reason, end, len(out.recs))
				}
			})
		})
	}
}

func TestInterrupt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		reason  string
		cap     int
		tookMS  int
		classes []string // of sessions 0, 1, 2
		queueMS []int64
	}{
		{"long requests", "requests in flight get the interrupt drain, then are cancelled and recorded",
			0, 100_000, []string{trace.ErrCancelled, trace.ErrCancelled, trace.ErrCancelled}, []int64{0, 0, 0}},
		{"some finish in the drain", "requests that end within the interrupt drain are ordinary records",
			0, 3000, []string{"", "", trace.ErrCancelled}, []int64{0, 0, 0}},
		{"queued", "requests waiting for a slot are dropped at once, with their wait",
			1, 100_000, []string{trace.ErrCancelled, trace.ErrDropped, trace.ErrDropped}, []int64{0, 1500, 500}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				at := make([]int64, 100) // one a second for 100 s
				for i := range at {
					at[i] = int64(i) * 1000
				}
				h, ss := openTrace(at, repeat(100, tt.tookMS))
				f := &fake{}
				ctx, cancel := context.WithCancel(t.Context())
				time.AfterFunc(2500*time.Millisecond, cancel)
				start := time.Now()
				cfg := Config{Client: f, InterruptDrain: 2 * time.Second, MaxConcurrency: tt.cap}
				end, out := runBubble(t, ctx, mustNew(t, cfg, h, ss), f)
				// Run returns at the interrupt (2.5 s) plus its drain (2 s).
				if got := end.End.Sub(start); got != 4500*time.Millisecond || !end.Interrupted || end.DurationUS != 4_500_000 {
					t.Errorf("%s: returned %v after the start, end %+v; want 4.5 s and interrupted", tt.reason, got, end)
				}
				recs := out.byKey()
				for i, class := range tt.classes {
					r := recs[key("o", i)]
					if r.ErrorClass != class || r.QueueUS != ms(tt.queueMS[i]) {
						t.Errorf("%s: session %d class %q queue %dus, want %q, %dus", tt.reason, i, r.ErrorClass, r.QueueUS, class, ms(tt.queueMS[i]))
					}
					if want := "interrupted, and the request was still in flight when the interrupt drain of 2s ended"; class == trace.ErrCancelled && r.QueueUS == 0 && !strings.Contains(r.Error, want) {
						t.Errorf("%s: session %d: error %q, want it to say %q", tt.reason, i, r.Error, want)
					}
				}
				if len(out.recs) != 3 || end.Scheduled != 100 || end.Sent+end.Dropped != 3 {
					t.Errorf("%s: %d records, end %+v; want the 3 sessions due before the interrupt, 100 scheduled", tt.reason, len(out.recs), end)
				}
			})
		})
	}
}

func TestInterruptDuringDrain(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		h, ss := openTrace([]int64{0}, []int{100_000})
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(10*time.Second, cancel)
		end, out := runBubble(t, ctx, mustNew(t, Config{Client: &fake{}, InterruptDrain: 2 * time.Second}, h, ss), nil)
		if end.DurationUS != 12_000_000 || !end.Interrupted || out.recs[0].ErrorClass != trace.ErrCancelled {
			t.Errorf("an interrupt in the 60 s drain shortens it to the 2 s interrupt drain: end %+v, record %+v", end, out.recs[0])
		}
	})
}

func TestInterruptBeforeStart(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		h, ss := openTrace([]int64{0}, []int{1})
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(time.Second, cancel)
		f := &fake{}
		d := mustNew(t, Config{Client: f}, h, ss)
		out := &sink{}
		end, err := d.Run(ctx, time.Now().Add(time.Minute), out)
		if err != nil || !end.Interrupted || end.Sent != 0 || end.DurationUS != 0 || len(out.recs) != 0 || len(f.reqs) != 0 {
			t.Errorf("cancelled while waiting for the start: nothing is sent; got end %+v, err %v, %d records", end, err, len(out.recs))
		}
	})
}

func TestSinkFailure(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		at := make([]int64, 1000)
		for i := range at {
			at[i] = int64(i)
		}
		h, ss := openTrace(at, repeat(1000, 0))
		d := mustNew(t, Config{Client: &fake{}}, h, ss)
		out := &sink{fail: 3}
		start := time.Now()
		end, err := d.Run(t.Context(), start, out)
		if err == nil || end.Sent != 4 || time.Since(start) != 3*time.Millisecond {
			t.Errorf("a failing sink stops the run at once with its error: err %v, end %+v after %v", err, end, time.Since(start))
		}
	})
}

func TestRunTwiceAtOnce(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		h, ss := openTrace([]int64{0}, []int{1000})
		d := mustNew(t, Config{Client: &fake{}}, h, ss)
		done := make(chan struct{})
		go func() {
			defer close(done)
			if _, err := d.Run(t.Context(), time.Now(), &sink{}); err != nil {
				t.Error(err)
			}
		}()
		time.Sleep(time.Millisecond)
		if _, err := d.Run(t.Context(), time.Now(), &sink{}); err == nil {
			t.Error("a second Run while the first is going on must be refused")
		}
		<-done
		// Once the first is over, the driver can run again.
		end, err := d.Run(t.Context(), time.Now(), &sink{})
		if err != nil || end.Sent != 1 {
			t.Errorf("second run: end %+v, err %v", end, err)
		}
	})
}
