package driver

import (
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestAlarm checks the dispatcher's alarm: set arms the timerfd for the
// time asked, a ring is read at once by the alarm's own goroutine (so that
// it ends the garbage collector's idle marking, which yields to network
// events only), and close ends that goroutine. Not parallel, so the
// goroutines counted are this test's.
func TestAlarm(t *testing.T) {
	before := runtime.NumGoroutine()
	a := newAlarm()
	if a == nil {
		t.Fatal("newAlarm returned nil on a real clock")
	}
	a.set(time.Hour)
	var cur unix.ItimerSpec
	if err := unix.TimerfdGettime(a.fd, &cur); err != nil {
		t.Fatal(err)
	}
	if left := time.Duration(cur.Value.Nano()); left <= 59*time.Minute || left > time.Hour {
		t.Errorf("armed for %v, want just under 1h", left)
	}
	a.set(time.Millisecond)
	// A ring nobody read would leave the timerfd readable for ever once
	// it has rung (disarmed, as a one-shot timer is after ringing).
	rangAndRead := func() bool {
		if err := unix.TimerfdGettime(a.fd, &cur); err != nil {
			t.Fatal(err)
		}
		return cur.Value.Nano() == 0 && !readable(t, a.fd)
	}
	if !eventually(rangAndRead) {
		t.Error("the alarm rang and nobody read it")
	}
	a.close()
	if !eventually(func() bool { return runtime.NumGoroutine() <= before }) {
		t.Errorf("%d goroutines before newAlarm, %d after close", before, runtime.NumGoroutine())
	}
}

// readable reports whether fd has data to read, without reading it.
func readable(t *testing.T, fd int) bool {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	if _, err := unix.Poll(fds, 0); err != nil && err != unix.EINTR {
		t.Fatal(err)
	}
	return fds[0].Revents&unix.POLLIN != 0
}

// eventually reports whether ok becomes true within 10 s.
func eventually(ok func() bool) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if ok() {
			return true
		}
	}
	return ok()
}
