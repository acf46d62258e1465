package server

import (
	"encoding/binary"
	"io"
	"net"
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// stampReceives makes a TCP listener's connections record when their
// bytes arrive (SO_TIMESTAMPNS: the kernel's receive time of each
// segment, returned with every read). Other listeners are returned as
// they are. The option is set on the listening socket too: the kernel
// starts stamping packets a moment after the first socket asks for it,
// and stops when the last one closes, so asking early and keeping it for
// the listener's life means connections find it on. Reads without a
// stamp leave a request's arrival at its handler's start.
func stampReceives(ln net.Listener) net.Listener {
	tl, ok := ln.(*net.TCPListener)
	if !ok {
		return ln
	}
	if raw, err := tl.SyscallConn(); err == nil {
		raw.Control(func(fd uintptr) { setStamps(fd) })
	}
	return &stampListener{tl}
}

// setStamps turns receive timestamps on for the socket fd.
func setStamps(fd uintptr) error {
	return unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1)
}

// stampListener accepts TCP connections with receive timestamps on.
type stampListener struct{ *net.TCPListener }

// Accept returns the next connection, as a stampConn when the kernel
// accepts SO_TIMESTAMPNS and as it is otherwise.
func (l *stampListener) Accept() (net.Conn, error) {
	c, err := l.AcceptTCP()
	if err != nil {
		return nil, err
	}
	raw, err := c.SyscallConn()
	if err != nil {
		return c, nil
	}
	var serr error
	err = raw.Control(func(fd uintptr) { serr = setStamps(fd) })
	if err != nil || serr != nil {
		return c, nil
	}
	return &stampConn{TCPConn: c, raw: raw, oob: make([]byte, unix.CmsgSpace(timespecSize))}, nil
}

// stampConn is a TCP connection whose reads keep the receive time of
// their data. Reads must not run concurrently (net/http's do not): they
// share oob.
type stampConn struct {
	*net.TCPConn
	raw  syscall.RawConn
	oob  []byte       // control messages of a read
	last atomic.Int64 // Unix ns of the latest read's data; 0: none stamped
}

// timespecSize is the size of the kernel's struct timespec.
const timespecSize = int(unsafe.Sizeof(unix.Timespec{}))

// Read reads like the TCP connection, with recvmsg, and records the
// receive time the kernel returns beside the data.
func (c *stampConn) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil // recvmsg would read a byte into a buffer of its own
	}
	var n, oobn int
	var rerr error
	err := c.raw.Read(func(fd uintptr) bool {
		for {
			n, oobn, _, _, rerr = unix.Recvmsg(int(fd), b, c.oob, 0)
			if rerr != unix.EINTR {
				return rerr != unix.EAGAIN
			}
		}
	})
	if err == nil && rerr != nil {
		err = os.NewSyscallError("recvmsg", rerr)
	}
	if err != nil {
		return 0, &net.OpError{Op: "read", Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
	}
	if n == 0 {
		return 0, io.EOF
	}
	c.last.Store(receiveTime(c.oob[:oobn]))
	return n, nil
}

// WriteTo copies the connection's data to w through Read, so that no read
// bypasses the stamps (TCPConn's own WriteTo would splice).
func (c *stampConn) WriteTo(w io.Writer) (int64, error) {
	return io.Copy(w, struct{ io.Reader }{c})
}

// received returns the receive time of the latest read's data.
func (c *stampConn) received() int64 { return c.last.Load() }

// receiveTime returns the SCM_TIMESTAMPNS time in control messages oob
// as Unix nanoseconds, or 0 if there is none.
func receiveTime(oob []byte) int64 {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return 0
	}
	for _, m := range msgs {
		if m.Header.Level != unix.SOL_SOCKET || m.Header.Type != unix.SCM_TIMESTAMPNS || len(m.Data) < timespecSize {
			continue
		}
		var sec, nsec int64
		if timespecSize == 16 {
			sec = int64(binary.NativeEndian.Uint64(m.Data))
			nsec = int64(binary.NativeEndian.Uint64(m.Data[8:]))
		} else {
			sec = int64(int32(binary.NativeEndian.Uint32(m.Data)))
			nsec = int64(int32(binary.NativeEndian.Uint32(m.Data[4:])))
		}
		return sec*1e9 + nsec
	}
	return 0
}
