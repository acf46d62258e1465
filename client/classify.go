package client

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"surge/trace"
)

// Causes of Result.Cause: what exactly went wrong, finer than the class
// (given first). For the classes "timeout", "connection" and "too_large",
// Result.Err starts with the cause and a colon, so that records, which keep
// only the text, keep the cause too.
const (
	CauseInvalid          = "invalid"            // http: the request could not be built; nothing sent
	CauseStatus           = "status"             // http: non-2xx status
	CauseErrorEvent       = "error_event"        // stream: the server sent an error inside a 2xx response
	CauseMalformed        = "malformed"          // stream: data that is not valid JSON
	CauseTruncated        = "truncated"          // stream: ended cleanly without [DONE] or a finish_reason
	CauseConnectTimeout   = "connect_timeout"    // timeout: no connection within Config.ConnectTimeout (or the dialler's 30 s)
	CauseFirstByteTimeout = "first_byte_timeout" // timeout: no response within Config.FirstByteTimeout of the connection
	CauseIdleTimeout      = "idle_timeout"       // timeout: the body went quiet for Config.IdleTimeout
	CauseDeadline         = "deadline"           // timeout: Config.Timeout or the ctx deadline passed
	CauseRefused          = "refused"            // connection: nothing accepted the connection
	CauseReset            = "reset"              // connection: reset by the peer (or a broken pipe)
	CauseClosed           = "closed"             // connection: closed before the response was complete
	CauseNetwork          = "network"            // connection: any other failure (DNS, TLS, protocol)
	CauseTooLarge         = "too_large"          // too_large: the body passed Config.MaxResponseBytes, or a stream's line or event Config.MaxEventBytes
	CauseCancelled        = "cancelled"          // cancelled: ctx was cancelled by the caller
)

// classify names the class and cause of a transport error: the caller's
// cancellation first, then a phase timeout of the watch, a deadline or a
// network timeout, else a refused, reset, closed or otherwise broken
// connection. caller is the context given to Do; ctx the request's own,
// under Config.Timeout and the watch.
func classify(caller, ctx context.Context, err error) (class, cause string) {
	if errors.Is(caller.Err(), context.Canceled) {
		return trace.ErrCancelled, CauseCancelled
	}
	if cause, ok := timeoutCause(ctx, err, time.Now()); ok {
		return trace.ErrTimeout, cause
	}
	if errors.Is(err, context.Canceled) {
		return trace.ErrCancelled, CauseCancelled
	}
	return trace.ErrConnection, brokenCause(err)
}

// timeoutCause names the timeout that ended a request whose context is ctx
// with err, if one did; now is when it ended. Several timers can fire
// together (the watch's connect phase and the dialer's own timeout are the
// same duration; the request's deadline bounds the dial too), and
// whichever the transport saw first, one rule names the timeout:
//
//  1. a phase of the watch that fired: its cause;
//  2. at or past the request's deadline (Config.Timeout or the caller's):
//     deadline;
//  3. a timeout while dialling: connect_timeout;
//  4. any other timeout: deadline.
func timeoutCause(ctx context.Context, err error, now time.Time) (string, bool) {
	var pt *phaseTimeout
	if errors.As(context.Cause(ctx), &pt) || errors.As(err, &pt) {
		return pt.cause, true
	}
	if dl, ok := ctx.Deadline(); ok && !now.Before(dl) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return CauseDeadline, true
	}
	var ne net.Error
	if !errors.Is(err, context.DeadlineExceeded) && !(errors.As(err, &ne) && ne.Timeout()) {
		return "", false
	}
	if dialling(err) {
		return CauseConnectTimeout, true
	}
	return CauseDeadline, true
}

// reason is what to tell people about err: the phase timeout that caused
// it, when one did (the transport then reports only "context canceled").
func reason(ctx context.Context, err error) error {
	var pt *phaseTimeout
	if errors.As(context.Cause(ctx), &pt) {
		return pt
	}
	return err
}

// dialling reports whether err came from dialling a connection.
func dialling(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// brokenCause names how a connection failed.
func brokenCause(err error) string {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return CauseRefused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNABORTED):
		return CauseReset
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), closedText(err):
		return CauseClosed
	}
	return CauseNetwork
}

// closedText recognises net/http's unexported errors for a connection the
// server closed before answering ("server closed idle connection", "EOF"
// wrapped as text by the transport).
func closedText(err error) bool {
	s := err.Error()
	return strings.Contains(s, "server closed") || strings.Contains(s, "EOF") || strings.Contains(s, "connection closed")
}

// fail sets res's class, cause and message; for the classes that carry
// no status or server text, the message starts with the cause.
func (res *Result) fail(class, cause, msg string) {
	res.ErrClass, res.Cause = class, cause
	switch class {
	case trace.ErrTimeout, trace.ErrConnection, trace.ErrTooLarge:
		msg = cause + ": " + msg
	}
	res.Err = msg
}
