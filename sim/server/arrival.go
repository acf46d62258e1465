package server

import (
	"context"
	"net"
	"net/http"
	"time"
)

// maxReceiveWait bounds how long before its handler a request may have
// arrived; a receive time further back (a wall clock stepped between the
// two readings) is ignored.
const maxReceiveWait = time.Minute

// receiver is a connection that knows when its bytes arrived: received
// returns the wall-clock time (Unix nanoseconds) of the earliest read since
// the last call that returned data with a receive time, and 0 if none did.
type receiver interface {
	received() int64
}

// connKey is the context key of a request's connection.
type connKey struct{}

// withConn is the http.Server's ConnContext: it keeps the connection in
// the context of the requests it carries.
func withConn(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// arrivalKey is the context key of a request's arrival time.
type arrivalKey struct{}

// stampArrival wraps next so that every request carries its arrival
// time (see arrivalOf), taken before anything else reads the connection's
// receive times.
func stampArrival(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := arrivalOf(r, time.Now())
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), arrivalKey{}, at)))
	})
}

// arrivedAt returns the arrival time stampArrival gave r, or now.
func arrivedAt(r *http.Request) time.Time {
	if at, ok := r.Context().Value(arrivalKey{}).(time.Time); ok {
		return at
	}
	return time.Now()
}

// arrivalOf returns when r arrived: when its first bytes reached the
// server's socket, if the connection records receive times (Linux: the
// kernel's timestamp), else now, the handler's start. Over loopback the
// kernel stamps a request's bytes as the client writes them, so the
// server's own latencies include the wait of its HTTP layer to read the
// request, as they would include any other queue in the server.
func arrivalOf(r *http.Request, now time.Time) time.Time {
	c, ok := r.Context().Value(connKey{}).(receiver)
	if !ok {
		return now
	}
	at := c.received()
	if at == 0 {
		return now
	}
	wait := time.Duration(now.UnixNano() - at)
	if wait <= 0 || wait > maxReceiveWait {
		return now
	}
	return now.Add(-wait) // keeps now's monotonic reading
}

// forgetReceived drops the receive times of r's body, so that the next
// request on the connection starts from its own first bytes.
func forgetReceived(r *http.Request) {
	if c, ok := r.Context().Value(connKey{}).(receiver); ok {
		c.received()
	}
}
