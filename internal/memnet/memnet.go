// Package memnet is a network in memory for a client and a server in one
// process: a net.Listener whose connections are net.Pipe pairs.
//
// `surge run` serves its built-in engine on one. Over loopback TCP, a
// client and a server sharing a process on two cores see each other's
// bytes only when Go's network poller runs, which it does when a P runs
// out of work: behind a whole engine step's worth of other goroutines,
// milliseconds later. A pipe hands the bytes from the writing goroutine
// to the reading one directly. It has no buffer: a Write returns once the
// other end has read all of it, so the time a server takes after its write
// is the time the client had the bytes.
package memnet

import (
	"context"
	"fmt"
	"net"
	"sync"
)

// Addr is the address of a Listener.
type Addr string

// Network returns "memnet".
func (Addr) Network() string { return "memnet" }

// String returns the address as given to Listen.
func (a Addr) String() string { return string(a) }

// Listener accepts the connections made by its DialContext. It is safe
// for concurrent use.
type Listener struct {
	addr   Addr
	conns  chan net.Conn
	done   chan struct{}
	closed sync.Once
}

// Listen returns a listener with the address name.
func Listen(name string) *Listener {
	return &Listener{addr: Addr(name), conns: make(chan net.Conn), done: make(chan struct{})}
}

// Accept waits for a DialContext and returns the server's end of the new
// connection, or net.ErrClosed once the listener is closed.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops Accept and DialContext. As with TCP, the connections
// already made stay open.
func (l *Listener) Close() error {
	err := net.ErrClosed
	l.closed.Do(func() {
		close(l.done)
		err = nil
	})
	return err
}

// Addr returns the listener's address.
func (l *Listener) Addr() net.Addr { return l.addr }

// DialContext connects to the listener, whatever network and address say
// (it has the signature of net.Dialer.DialContext so that it can stand in
// for one), and returns the client's end. It waits for Accept, until ctx
// ends or the listener closes.
func (l *Listener) DialContext(ctx context.Context, network, address string) (_ net.Conn, err error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		err = net.ErrClosed
	case <-ctx.Done():
		err = ctx.Err()
	}
	client.Close()
	server.Close()
	return nil, fmt.Errorf("dial %s %s: %w", network, address, err)
}
