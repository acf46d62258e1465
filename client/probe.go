package client

import (
	"net/http/httptrace"
	"sync/atomic"
	"time"
)

// probe records, through net/http/httptrace, the moments of one request
// that happen on the transport's goroutines. Times are kept atomically as
// nanoseconds after the client's epoch, since the hooks may run
// concurrently with Do; epoch.Add turns them back into monotonic times.
type probe struct {
	epoch    time.Time
	ready    atomic.Int64 // the caller had its connection and handed the request to it
	wrote    atomic.Int64 // request fully written; 0 if not yet
	response atomic.Int64 // first byte of the response headers; 0 if not yet
	reused   atomic.Bool  // the connection had served an earlier request
	trace    httptrace.ClientTrace
}

// newProbe returns a probe whose trace feeds it and moves w through the
// connect and first-byte phases.
func newProbe(epoch time.Time, w *watch) *probe {
	p := &probe{epoch: epoch}
	p.trace = httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			p.ready.Store(p.since())
			p.reused.Store(info.Reused)
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

// sent returns when the request was sent: when the caller had its
// connection and handed the request to it (GotConn, which runs on the
// caller's goroutine just before the write), and never after the first
// response byte. The write hook's stamp is no measure of it: it runs on
// the transport's writing goroutine, which a loaded machine may run
// milliseconds late, after the server has stamped the request's arrival
// and even after the response began, so that a client's TTFT came out
// shorter than the server's own. Without a connection stamp the earlier
// of the write and first-byte stamps stands in.
func (p *probe) sent() time.Time {
	s, w, r := p.ready.Load(), p.wrote.Load(), p.response.Load()
	if s == 0 {
		s = w
	}
	if s == 0 || (r != 0 && r < s) {
		s = r
	}
	return p.at(s)
}
