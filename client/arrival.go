package client

import (
	"context"
	"net"
	"sync/atomic"
	"time"

	"surge/internal/recvtime"
)

// maxReadWait bounds how long before a read its bytes may have reached
// the socket; a receive time further back (the wall clock stepped between
// the kernel's reading and the client's) is ignored.
const maxReadWait = time.Minute

// dialStamped returns a DialContext that dials with d and has the
// connection record when its bytes arrive (recvtime.Wrap) and, with
// writes set, when a request's first bytes are written (sendConn).
func dialStamped(d *net.Dialer, writes bool) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		c = recvtime.Wrap(c)
		if writes {
			c = &sendConn{Conn: c}
		}
		return c, nil
	}
}

// sendConn is an HTTP/1 connection that stamps when a request's first
// bytes are written: the transport hands a request to the connection on
// the caller's goroutine (GotConn) and writes it on a goroutine of its
// own, which a busy machine may run milliseconds later, time the request
// spends in the client, not on the wire or in the server. The probe of
// the request handed over arms the connection (arm), and the next write
// stamps that probe's written time, read just before the write so that
// it never comes after the server received the bytes. An HTTP/1
// connection carries one request at a time, so the next write after the
// hand-over is the request's.
type sendConn struct {
	net.Conn
	next atomic.Pointer[probe] // the probe the next write stamps; nil: none
}

// arm makes the next write stamp p.
func (c *sendConn) arm(p *probe) { c.next.Store(p) }

// Write stamps the armed probe, if any, then writes b.
func (c *sendConn) Write(b []byte) (int, error) {
	if p := c.next.Swap(nil); p != nil {
		p.writing.Store(p.since())
	}
	return c.Conn.Write(b)
}

// NetConn returns the connection under c, so that recvtime.Of finds its
// receive times.
func (c *sendConn) NetConn() net.Conn { return c.Conn }

// sendConnOf returns the sendConn under c (through TLS), or nil.
func sendConnOf(c net.Conn) *sendConn {
	s, _ := recvtime.Find[*sendConn](c)
	return s
}

// arrivals stamps a response's reads. A read's time is when its bytes
// reached the client's socket, where the connection records it (Linux:
// the kernel's receive timestamp), else when the read returned: so a
// reader goroutine that the machine runs late, busy with other streams or
// the garbage collector, still times its events when they came. The
// stamp lies between the data's arrival and the read: the latest receive
// time on the connection is that of the data read or of later data
// (HTTP/2's other streams, bytes buffered ahead). Stamps never go back:
// none is before the request was sent or before an earlier read's.
type arrivals struct {
	rx    recvtime.Receiver // nil: the moment of the read
	floor time.Time
}

// newArrivals returns the stamps of a response to a request sent at sent
// on the connection of rx. A paced request (a slow or stalled reader,
// Request.ReadRate and Stall) is stamped when its reads return: its
// events reach the application then, not when the kernel had them.
func newArrivals(rx recvtime.Receiver, sent time.Time, req *Request) arrivals {
	if req.ReadRate > 0 || req.Stall > 0 {
		rx = nil
	}
	return arrivals{rx: rx, floor: sent}
}

// at returns the stamp of a read that returned at now.
func (a *arrivals) at(now time.Time) time.Time {
	t := recvtime.At(a.rx, now, maxReadWait)
	if t.Before(a.floor) {
		t = a.floor
	}
	a.floor = t
	return t
}
