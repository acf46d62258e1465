package driver

import (
	"errors"
	"fmt"
	"time"
)

// errRunEnded cancels what is left in flight when a run ends otherwise
// than by a drain's expiry (the sink failed, or every request was done).
var errRunEnded = errors.New("cancelled: the run ended with the request in flight")

// drainExpired is why the requests still in flight when a drain ended were
// cancelled: the drain after the schedule (Config.Drain, surge's --drain),
// or the shorter one after an interrupt (Config.InterruptDrain).
type drainExpired struct {
	interrupt bool
	drain     time.Duration
}

func (e *drainExpired) Error() string {
	if e.interrupt {
		return fmt.Sprintf("cancelled: interrupted, and the request was still in flight when the interrupt drain of %v ended", e.drain)
	}
	return fmt.Sprintf("cancelled: the drain period expired: the request was still in flight %v after the schedule ended (set by --drain)", e.drain)
}
