package driver

import (
	"time"

	"golang.org/x/sys/unix"
)

// kernelSleep sleeps d in the kernel (nanosleep), resuming after signals,
// whose timers have microsecond resolution where Go's poller has
// milliseconds. The goroutine's thread blocks; the runtime hands its
// processor to other goroutines that need it.
func kernelSleep(d time.Duration) {
	ts := unix.NsecToTimespec(d.Nanoseconds())
	for {
		var left unix.Timespec
		if err := unix.Nanosleep(&ts, &left); err != unix.EINTR {
			return
		}
		ts = left
	}
}
