package client

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

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
	CauseTooLarge         = "too_large"          // too_large: the body passed Config.MaxResponseBytes
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
	var pt *phaseTimeout
	if errors.As(context.Cause(ctx), &pt) || errors.As(err, &pt) {
		return trace.ErrTimeout, pt.cause
	}
	var ne net.Error
	switch {
	case ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded):
		return trace.ErrTimeout, CauseDeadline
	case errors.As(err, &ne) && ne.Timeout():
		if dialling(err) {
			return trace.ErrTimeout, CauseConnectTimeout
		}
		return trace.ErrTimeout, CauseDeadline
	case errors.Is(err, context.Canceled):
		return trace.ErrCancelled, CauseCancelled
	}
	return trace.ErrConnection, brokenCause(err)
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
