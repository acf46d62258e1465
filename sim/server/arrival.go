package server

import (
	"context"
	"net"
	"net/http"
	"time"

	"surge/internal/recvtime"
)

// maxReceiveWait bounds how long before its handler a request may have
// arrived; a receive time further back (a wall clock stepped between the
// two readings) is ignored.
const maxReceiveWait = time.Minute

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
// time (see arrivalOf).
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

// arrivalOf returns when r arrived, given that its handler starts now:
// when the bytes of the connection's latest read reached the server's
// socket, if the connection records receive times (Linux: the kernel's
// timestamp), else now. An HTTP/1 handler starts once its request's head
// is read, and no byte of the next request is read before it ends, so the
// latest read holds the end of this request's head (or of all of it, for
// a request written at once, as clients write theirs): the moment the
// client's request was at the server, as the client's clock starts when
// it has written it. Over loopback the kernel stamps the bytes as the
// client writes them, so the server's own latencies include the wait of
// its HTTP layer to read the request, as they would any other queue in
// it. HTTP/2 requests, which share connections, arrive at now.
func arrivalOf(r *http.Request, now time.Time) time.Time {
	c, ok := r.Context().Value(connKey{}).(net.Conn)
	if !ok || r.ProtoMajor != 1 {
		return now
	}
	return recvtime.At(recvtime.Of(c), now, maxReceiveWait)
}
