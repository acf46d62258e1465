package server

import (
	"net"
	"net/http"
	"sync"
)

// unused tracks the connections that have not yet sent a request. A
// client's transport often dials a spare connection it never uses, and
// http.Server.Shutdown waits five seconds before it counts such a
// connection as idle; closing them when shutdown begins lets Serve return
// as soon as the requests in flight have ended.
type unused struct {
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool // close has been called: new connections close at once
}

// track is an http.Server ConnState hook.
func (u *unused) track(c net.Conn, state http.ConnState) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if state != http.StateNew {
		delete(u.conns, c)
		return
	}
	if u.closed {
		c.Close()
		return
	}
	if u.conns == nil {
		u.conns = map[net.Conn]struct{}{}
	}
	u.conns[c] = struct{}{}
}

// close closes every connection that has not sent a request, and those
// accepted from now on.
func (u *unused) close() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.closed = true
	for c := range u.conns {
		c.Close()
		delete(u.conns, c)
	}
}
