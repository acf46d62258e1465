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
// Timer precision: Go's poller on Linux sleeps in whole milliseconds, so a
// timer of d fires about ⌈d⌉ms + 0.1–0.2 ms after it was set (measured on
// a 2-core VM, Go 1.26): sends run up to about 1 ms late, and at rates
// above 1000/s go out in millisecond batches. The lag each record carries
// shows it. With Config.Spin the dispatcher sleeps only until Spin before
// the instant and then yields the processor in a loop until it arrives,
// trading CPU for precision.
func (r *run) waitUntil(t *time.Timer, at time.Time) bool {
	spin := r.cfg.Spin
	if d := time.Until(at) - spin; d > 0 && !r.sleep(t, d) {
		return false
	}
	if spin <= 0 {
		return !r.halted()
	}
	return r.spin(t, at)
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
