// Package recvtime knows when a TCP connection's bytes reached its
// socket: on Linux, the kernel's receive timestamp of each read's data
// (SO_TIMESTAMPNS), read beside the data with recvmsg. A goroutine that
// reads late, because the machine was busy or the runtime had other work,
// still learns when its bytes arrived; the client stamps response events
// with it and the engine stamps request arrivals. Elsewhere, and on
// connections the kernel does not stamp, callers fall back to the moment
// of the read.
package recvtime

import (
	"net"
	"time"
)

// Receiver is a connection that knows when its bytes arrived: Received
// returns the wall-clock time (Unix nanoseconds) at which the data of its
// latest read reached the socket, or 0 if that read carried no time.
type Receiver interface {
	Received() int64
}

// Of returns the Receiver under c (looking through TLS and other
// wrappers that expose NetConn), or nil if c records no receive times.
func Of(c net.Conn) Receiver {
	r, _ := Find[Receiver](c)
	return r
}

// Find returns c, or the first connection under it (looking through TLS
// and other wrappers that expose NetConn), that is a T; ok is false when
// none is.
func Find[T any](c net.Conn) (t T, ok bool) {
	for c != nil {
		if t, ok = c.(T); ok {
			return t, true
		}
		w, isWrapper := c.(interface{ NetConn() net.Conn })
		if !isWrapper {
			break
		}
		c = w.NetConn()
	}
	return t, false
}

// At returns when the data of r's latest read arrived, given that it was
// read by now: the receive time if there is one no more than limit before
// now, else now. A receive time after now or further back than limit (the
// wall clock stepped between the two readings) is ignored. The time
// returned carries now's monotonic reading, so durations between such
// times are as exact as between readings of time.Now.
func At(r Receiver, now time.Time, limit time.Duration) time.Time {
	if r == nil {
		return now
	}
	at := r.Received()
	if at == 0 {
		return now
	}
	wait := time.Duration(now.UnixNano() - at)
	if wait <= 0 || wait > limit {
		return now
	}
	return now.Add(-wait)
}
