package client

import (
	"net/http/httptrace"
	"sync/atomic"
	"time"

	"surge/internal/recvtime"
)

// probe records, through net/http/httptrace, the moments of one request
// that happen on the transport's goroutines. Times are kept atomically as
// nanoseconds after the client's epoch, since the hooks may run
// concurrently with Do; epoch.Add turns them back into monotonic times.
type probe struct {
	epoch    time.Time
	ready    atomic.Int64 // the caller had its connection and handed the request to it
	writing  atomic.Int64 // the request's first write began (HTTP/1, sendConn); 0 if not yet
	wrote    atomic.Int64 // request fully written; 0 if not yet
	response atomic.Int64 // first byte of the response headers; 0 if not yet
	reused   atomic.Bool  // the connection had served an earlier request
	rx       atomic.Pointer[receiver]
	trace    httptrace.ClientTrace
}

// receiver holds the receive times of a request's connection, if it
// records them.
type receiver struct{ recvtime.Receiver }

// newProbe returns a probe whose trace feeds it and moves w through the
// connect and first-byte phases.
func newProbe(epoch time.Time, w *watch) *probe {
	p := &probe{epoch: epoch}
	p.trace = httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			p.ready.Store(p.since())
			p.reused.Store(info.Reused)
			p.rx.Store(&receiver{recvtime.Of(info.Conn)})
			if sc := sendConnOf(info.Conn); sc != nil {
				sc.arm(p)
			}
			w.connected()
		},
		WroteRequest: func(info httptrace.WroteRequestInfo) {
			if info.Err == nil {
				p.wrote.Store(p.since())
			}
		},
		GotFirstResponseByte: func() {
			p.response.Store(p.since())
			w.responded()
		},
	}
	return p
}

// since returns the nanoseconds from the epoch to now, at least 1 so that
// 0 can mean "not yet".
func (p *probe) since() int64 { return max(int64(time.Since(p.epoch)), 1) }

// at turns a stored value back into a time; 0 is the zero time.
func (p *probe) at(ns int64) time.Time {
	if ns == 0 {
		return time.Time{}
	}
	return p.epoch.Add(time.Duration(ns))
}

// receiver returns the receive times of the connection the request was
// last handed to, or nil.
func (p *probe) receiver() recvtime.Receiver {
	if r := p.rx.Load(); r != nil {
		return r.Receiver
	}
	return nil
}

// sent returns when the request was sent: when its first bytes were
// written to an HTTP/1 connection (sendConn, read just before the write),
// else when the caller had its connection and handed the request to it
// (GotConn, which runs on the caller's goroutine before the write), and
// never after the first response byte. Between the two the request waits
// for the transport's writing goroutine, which a loaded machine may run
// milliseconds late: against the engine at 1,000 streams in one process,
// a tenth of the requests waited 8–44 ms, counted as TTFT, not as the
// lag they are. The write hook's stamp is no measure of it either: it
// runs after the write, as late as the goroutine is, even after the
// server has stamped the request's arrival and the response began, so
// that a client's TTFT came out shorter than the server's own. Without
// a connection stamp the earlier of the write and first-byte stamps
// stands in.
func (p *probe) sent() time.Time {
	s, w, r := p.ready.Load(), p.wrote.Load(), p.response.Load()
	if f := p.writing.Load(); f > s {
		s = f
	}
	if s == 0 {
		s = w
	}
	if s == 0 || (r != 0 && r < s) {
		s = r
	}
	return p.at(s)
}
