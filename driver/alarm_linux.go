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
// milliseconds and would wake up to 1 ms late. Nobody reads the timerfd,
// and no goroutine or thread sleeps on it, so it holds no processor
// (unlike a nanosleep, which keeps its P until sysmon takes it back: with
// GOMAXPROCS=1, 20 µs to 10 ms of nothing else running).
type alarm struct {
	f  *os.File // keeps the timerfd in the poller
	fd int
}

// newAlarm returns an alarm, or nil when the kernel refuses one; a nil
// alarm does nothing.
func newAlarm() *alarm {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nil
	}
	// A non-blocking descriptor given to os.NewFile joins the poller.
	return &alarm{f: os.NewFile(uintptr(fd), "surge-dispatch-alarm"), fd: fd}
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
