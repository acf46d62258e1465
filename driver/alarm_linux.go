package driver

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// alarm is a timerfd in Go's network poller. Armed for an instant, it
// wakes a poller sleeping in epoll_wait then, with the kernel's
// microsecond timer resolution, so that the runtime timer due at that
// instant runs on time: the poller's own timeout is in whole
// milliseconds and would wake up to 1 ms late. A goroutine of its own
// reads the rings, so that they also end the garbage collector's idle
// marking, which gives the processor back to network events but not to
// timers (18 ms late sends at 1,000 req/s with GOMAXPROCS=1 otherwise).
// No thread sleeps in the kernel for it, so it holds no processor,
// unlike a nanosleep, which keeps its P until sysmon takes it back: with
// GOMAXPROCS=1, 20 µs to 10 ms of nothing else running.
type alarm struct {
	f  *os.File // keeps the timerfd in the poller
	fd int
}

// newAlarm returns an alarm, or nil when the kernel refuses one or the
// clock is a fake one; a nil alarm does nothing.
func newAlarm() *alarm {
	if !realClock() {
		return nil
	}
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nil
	}
	// A non-blocking descriptor given to os.NewFile joins the poller.
	a := &alarm{f: os.NewFile(uintptr(fd), "surge-dispatch-alarm"), fd: fd}
	go a.listen()
	return a
}

// realClock reports whether time moves across a real sleep. In a
// testing/synctest bubble it stands still (it moves only when every
// goroutine of the bubble is blocked), and a goroutine blocked reading
// the alarm would keep it from ever moving.
func realClock() bool {
	before := time.Now()
	ts := unix.NsecToTimespec(int64(time.Microsecond))
	_ = unix.Nanosleep(&ts, nil)
	return !time.Now().Equal(before)
}

// listen reads a's rings until a is closed.
func (a *alarm) listen() {
	var b [8]byte
	for {
		if _, err := a.f.Read(b[:]); err != nil {
			return
		}
	}
}

// set arms a to ring d from now, replacing any earlier setting. Call it
// after resetting the timer it backs, never before: ringing before the
// timer is due would send the poller back to sleep for a whole
// millisecond.
func (a *alarm) set(d time.Duration) {
	if a == nil || d <= 0 {
		return
	}
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(d.Nanoseconds())}
	// A failure leaves the timer alone to wake the dispatcher, later.
	_ = unix.TimerfdSettime(a.fd, 0, &spec, nil)
}

// close releases a.
func (a *alarm) close() {
	if a != nil {
		a.f.Close()
	}
}
