package driver

import (
	"runtime"
	"time"
)

// stillSpins is how many yields with no clock movement reveal a fake
// clock; a real one moves between any two readings.
const stillSpins = 64

// preciseWindow is how long before a send instant the dispatcher stops
// waiting on its timer and sleeps in the kernel instead (see waitUntil).
const preciseWindow = 2 * time.Millisecond

// minKernelSleep is the shortest wait slept in the kernel. Each such sleep
// costs a system call and a hand-over of the processor; sends closer
// together than this (over 4,000/s) wait on the timer and go out in
// millisecond batches, which is cheaper when the client is busiest.
const minKernelSleep = 250 * time.Microsecond

// waitUntil waits until at, reporting false if the run halts first.
//
// Timer precision: Go's poller on Linux sleeps in whole milliseconds, so a
// timer of d fires about ⌈d⌉ms + 0.1–0.2 ms after it was set (measured on
// a 2-core VM, Go 1.26): sends would run up to about 1 ms late, and at
// rates above 1000/s go out in millisecond batches. So the dispatcher
// waits on its timer only until preciseWindow before the instant, then
// sleeps the rest in the kernel (preciseSleep: nanosleep on Linux, whose
// timers have microsecond resolution); the runtime hands the sleeping
// thread's processor to other goroutines within about 20 µs when they
// need it. With Config.Spin it instead sleeps until Spin before the
// instant and then yields the processor in a loop until it arrives,
// trading CPU for precision.
func (r *run) waitUntil(t *time.Timer, at time.Time) bool {
	spin := r.cfg.Spin
	if spin <= 0 {
		spin = preciseWindow
	}
	if d := time.Until(at) - spin; d > 0 && !r.sleep(t, d) {
		return false
	}
	if r.cfg.Spin <= 0 {
		return r.preciseSleep(t, at)
	}
	return r.spin(t, at)
}

// preciseSleep sleeps in the kernel until at (at most preciseWindow
// away, at least minKernelSleep), then, if the clock did not get there (a
// fake clock, a kernel sleep cut short, or too short a wait), on the timer
// for what is left. A clock that did not
// move at all across a kernel sleep is a fake one (testing/synctest,
// where time moves only when every goroutine is blocked): the run then
// waits on timers only.
func (r *run) preciseSleep(t *time.Timer, at time.Time) bool {
	if before := time.Now(); !r.fakeClock && at.Sub(before) >= minKernelSleep {
		kernelSleep(at.Sub(before))
		r.fakeClock = time.Now().Equal(before)
	}
	if d := time.Until(at); d > 0 {
		return r.sleep(t, d)
	}
	return !r.halted()
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
	select {
	case <-t.C:
		return true
	case <-r.halt:
		t.Stop()
		return false
	}
}
