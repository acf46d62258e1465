package driver

import (
	"runtime"
	"time"
)

// stillSpins is how many yields with no clock movement reveal a fake
// clock; a real one moves between any two readings.
const stillSpins = 64

// waitUntil waits until at, reporting false if the run halts first.
//
// Timer precision: Go's poller on Linux sleeps in whole milliseconds, so
// on an idle process a timer of d fires about ⌈d⌉ms + 0.1–0.2 ms after it
// was set (measured on a 2-core VM, Go 1.26), and sends would leave up to
// about 1 ms late. So the dispatcher's timer is backed by al, which wakes
// the poller at the instant itself (a timerfd on Linux); the timer then
// fires within microseconds. Nothing sleeps in the kernel holding a
// processor: with GOMAXPROCS=1 (a container of one CPU) that would stop
// every reader of the responses, and the timer's goroutine, for as long
// as the runtime takes to notice (see BENCHMARKS.md, "One scheduler
// thread"). When the processor is busy, a fired timer's goroutine runs
// next, before the goroutines already waiting.
//
// An instant already past (the dispatcher fell behind) does not go out
// at once: the dispatcher first yields the processor, so that the
// sessions it launched before get their connections and write their
// requests. Launching every overdue session in one burst would leave all
// of them waiting for a connection at the same moment, each dialling a
// new one; with GOMAXPROCS=1 those dials cost more than the requests and
// the dispatcher never caught up (BENCHMARKS.md). The lag of the later
// sessions records the wait either way.
//
// With Config.Spin it instead sleeps until Spin before the instant and
// then yields the processor in a loop until it arrives, trading CPU for
// precision.
func (r *run) waitUntil(t *time.Timer, al *alarm, at time.Time) bool {
	d := time.Until(at)
	switch {
	case d <= 0:
		runtime.Gosched() // behind: the sessions launched before go first
		return !r.halted()
	case r.cfg.Spin > 0:
		if d > r.cfg.Spin && !r.sleep(t, d-r.cfg.Spin) {
			return false
		}
		return r.spin(t, at)
	}
	t.Reset(d)
	al.set(d) // after Reset: the alarm must not ring before the timer is due
	return r.wait(t)
}

// spin yields until at. Under a fake clock (testing/synctest, where time
// moves only when every goroutine is blocked) spinning would never end;
// a clock that stands still across stillSpins yields is such a clock, so
// spin then sleeps on the timer instead, which a fake clock honours
// exactly.
func (r *run) spin(t *time.Timer, at time.Time) bool {
	last, still := time.Now(), 0
	for {
		now := time.Now()
		switch {
		case !now.Before(at):
			return !r.halted()
		case r.halted():
			return false
		case now.Equal(last):
			if still++; still >= stillSpins {
				return r.sleep(t, at.Sub(now))
			}
		default:
			last, still = now, 0
		}
		runtime.Gosched()
	}
}

// sleep waits d on t, reporting false if the run halts first. Since Go
// 1.23, Reset on a stopped or fired timer leaves no stale tick in t.C.
func (r *run) sleep(t *time.Timer, d time.Duration) bool {
	t.Reset(d)
	return r.wait(t)
}

// wait waits for t, set by the caller, to fire, reporting false if the
// run halts first.
func (r *run) wait(t *time.Timer) bool {
	select {
	case <-t.C:
		return true
	case <-r.halt:
		t.Stop()
		return false
	}
}
