package client

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"surge/trace"
)

// TestTimeoutCauses: one rule names every timeout, whichever of the timers
// that fire together is seen first. A dial that timed out is
// connect_timeout whether the watch's connect phase fired first (the
// transport then returns the context's error) or the dialer's own timeout
// did (an i/o timeout that also matches context.DeadlineExceeded); a
// timeout at or past the request's deadline is deadline. Before, the
// dialer's timeout was recorded as deadline.
func TestTimeoutCauses(t *testing.T) {
	t.Parallel()
	_, dialErr := (&net.Dialer{Deadline: time.Now().Add(-time.Second)}).Dial("tcp", "127.0.0.1:1")
	if dialErr == nil {
		t.Fatal("a dial past its deadline succeeded")
	}
	background := context.Background()
	phase, w := newWatch(background, limits{})
	defer w.stop()
	w.fire(CauseConnectTimeout, time.Second, "no connection")()
	past, cancel := context.WithDeadline(background, time.Now().Add(-time.Millisecond))
	defer cancel()
	tests := []struct {
		ctx    context.Context
		err    error
		class  string
		cause  string
		reason string
	}{
		{background, dialErr, trace.ErrTimeout, CauseConnectTimeout, "the dialer's timeout fired first"},
		{phase, context.Canceled, trace.ErrTimeout, CauseConnectTimeout, "the watch's connect phase fired first"},
		{phase, dialErr, trace.ErrTimeout, CauseConnectTimeout, "both fired"},
		{past, dialErr, trace.ErrTimeout, CauseDeadline, "the request's deadline passed while dialling"},
		{past, context.DeadlineExceeded, trace.ErrTimeout, CauseDeadline, "the request's deadline"},
		{background, &net.OpError{Op: "read", Err: dialErr.(*net.OpError).Err}, trace.ErrTimeout, CauseDeadline, "another network timeout"},
		{background, errors.New("boom"), trace.ErrConnection, CauseNetwork, "not a timeout"},
	}
	for _, tt := range tests {
		class, cause := classify(background, tt.ctx, tt.err)
		if class != tt.class || cause != tt.cause {
			t.Errorf("%s: classify(%v) = %s/%s, want %s/%s", tt.reason, tt.err, class, cause, tt.class, tt.cause)
		}
	}
}
