package client

import (
	"context"
	"fmt"
	"io"
	"time"
)

// limits are a client's per-request bounds besides Config.Timeout.
type limits struct {
	connect, firstByte, idle time.Duration // 0: none
	maxBytes                 int64         // bytes of a response body read at most; 0: no cap
}

// limitsOf resolves the bounds of cfg.
func limitsOf(cfg Config) limits {
	l := limits{connect: cfg.ConnectTimeout, firstByte: cfg.FirstByteTimeout, idle: cfg.IdleTimeout, maxBytes: cfg.MaxResponseBytes}
	switch {
	case l.maxBytes == 0:
		l.maxBytes = DefaultMaxResponseBytes
	case l.maxBytes < 0:
		l.maxBytes = 0
	}
	return l
}

// phaseTimeout is the cause a watch cancels a request with when one of
// its phases overran: cause is CauseConnectTimeout, CauseFirstByteTimeout
// or CauseIdleTimeout.
type phaseTimeout struct {
	cause string
	after time.Duration
	what  string // the phase, for people
}

func (e *phaseTimeout) Error() string {
	return fmt.Sprintf("%s after %v", e.what, e.after)
}

// Timeout marks the error as a timeout for net.Error checks.
func (e *phaseTimeout) Timeout() bool { return true }

// watch enforces the phase timeouts of one request by cancelling its
// context with a phaseTimeout cause. Its timers are armed and stopped from
// the httptrace hooks (transport goroutines) and from Do; time.Timer's
// Reset and Stop are safe for that. Each timer guards one phase, so no
// shared state says which phase is current:
//
//	connect:    start of Do            → GotConn
//	first byte: GotConn                → GotFirstResponseByte
//	idle:       response headers       → each body read, re-armed after it
type watch struct {
	l         limits
	cancel    context.CancelCauseFunc
	connect   *time.Timer // nil without a connect timeout
	firstByte *time.Timer // nil without a first-byte timeout
	idle      *time.Timer // nil until the body is read, or without an idle timeout
}

// newWatch returns ctx bound to a watch over l's phases, with the connect
// phase already running. stop must be called when the request is over.
func newWatch(ctx context.Context, l limits) (context.Context, *watch) {
	ctx, cancel := context.WithCancelCause(ctx)
	w := &watch{l: l, cancel: cancel}
	if l.connect > 0 {
		w.connect = time.AfterFunc(l.connect, w.fire(CauseConnectTimeout, l.connect, "no connection"))
	}
	if l.firstByte > 0 {
		w.firstByte = time.AfterFunc(time.Hour, w.fire(CauseFirstByteTimeout, l.firstByte, "no response"))
		w.firstByte.Stop()
	}
	return ctx, w
}

// fire returns the function that ends the request for overrunning a phase.
func (w *watch) fire(cause string, after time.Duration, what string) func() {
	err := &phaseTimeout{cause: cause, after: after, what: what}
	return func() { w.cancel(err) }
}

// redial re-arms the connect phase for a second attempt.
func (w *watch) redial() {
	if w.connect != nil {
		w.connect.Reset(w.l.connect)
	}
}

// connected ends the connect phase and starts the first-byte phase.
func (w *watch) connected() {
	if w.connect != nil {
		w.connect.Stop()
	}
	if w.firstByte != nil {
		w.firstByte.Reset(w.l.firstByte)
	}
}

// responded ends the first-byte phase.
func (w *watch) responded() {
	if w.firstByte != nil {
		w.firstByte.Stop()
	}
}

// body wraps a response body so that every read re-arms the idle phase,
// which starts now. Without an idle timeout it returns body itself.
func (w *watch) body(body io.Reader) io.Reader {
	if w.l.idle <= 0 {
		return body
	}
	w.idle = time.AfterFunc(w.l.idle, w.fire(CauseIdleTimeout, w.l.idle, "no data"))
	return &idleReader{r: body, t: w.idle, d: w.l.idle}
}

// stop stops every timer and releases the context.
func (w *watch) stop() {
	for _, t := range []*time.Timer{w.connect, w.firstByte, w.idle} {
		if t != nil {
			t.Stop()
		}
	}
	w.cancel(nil)
}

// idleReader re-arms an idle timer after every read.
type idleReader struct {
	r io.Reader
	t *time.Timer
	d time.Duration
}

// Read implements io.Reader.
func (b *idleReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.t.Reset(b.d)
	return n, err
}
