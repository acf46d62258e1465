package recvtime

import (
	"io"
	"net"
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Listen makes a TCP listener's connections record when their bytes
// arrive; other listeners are returned as they are. The option is set on
// the listening socket too: the kernel starts stamping packets a moment
// after the first socket asks for it, and stops when the last one closes,
// so asking early and keeping it for the listener's life means
// connections find it on.
func Listen(ln net.Listener) net.Listener {
	tl, ok := ln.(*net.TCPListener)
	if !ok {
		return ln
	}
	if raw, err := tl.SyscallConn(); err == nil {
		raw.Control(func(fd uintptr) { setStamps(fd) })
	}
	return &listener{tl}
}

// Wrap returns a TCP connection that records when its bytes arrive, or c
// as it is when c is not TCP or the kernel refuses the option.
func Wrap(c net.Conn) net.Conn {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return c
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return c
	}
	var serr error
	if err := raw.Control(func(fd uintptr) { serr = setStamps(fd) }); err != nil || serr != nil {
		return c
	}
	s := &conn{TCPConn: tc, raw: raw, oob: make([]byte, unix.CmsgSpace(timespecSize))}
	s.recvFn = s.recv
	return s
}

// setStamps turns receive timestamps on for the socket fd.
func setStamps(fd uintptr) error {
	return unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1)
}

// listener accepts TCP connections with receive timestamps on.
type listener struct{ *net.TCPListener }

// Accept returns the next connection, wrapped as Wrap does.
func (l *listener) Accept() (net.Conn, error) {
	c, err := l.AcceptTCP()
	if err != nil {
		return nil, err
	}
	return Wrap(c), nil
}

// conn is a TCP connection whose reads keep the receive time of their
// data. Reads must not run concurrently (net/http's do not, on either
// side): they share the fields of the read in progress.
type conn struct {
	*net.TCPConn
	raw  syscall.RawConn
	last atomic.Int64 // Unix ns of the latest read's data; 0: none stamped

	// The read in progress, in fields rather than a closure's captures
	// and the arguments of a raw recvmsg rather than unix.Recvmsg's
	// (which allocates a socket address), so that a read allocates
	// nothing.
	recvFn func(fd uintptr) bool
	msg    unix.Msghdr
	iov    unix.Iovec
	oob    []byte // control messages of a read
	n      int
	err    error
}

// timespecSize is the size of the kernel's struct timespec.
const timespecSize = int(unsafe.Sizeof(unix.Timespec{}))

// Read reads like the TCP connection, with recvmsg, and records the
// receive time the kernel returns beside the data.
func (c *conn) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil // recvmsg would read a byte into a buffer of its own
	}
	c.iov.Base = &b[0]
	c.iov.SetLen(len(b))
	err := c.raw.Read(c.recvFn)
	c.iov.Base = nil
	if err == nil && c.err != nil {
		err = os.NewSyscallError("recvmsg", c.err)
	}
	if err != nil {
		return 0, &net.OpError{Op: "read", Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
	}
	if c.n == 0 {
		return 0, io.EOF
	}
	c.last.Store(receiveTime(c.oob[:c.msg.Controllen]))
	return c.n, nil
}

// recv is one recvmsg attempt on fd; it reports false when the socket has
// nothing yet, so that the runtime's poller waits for it.
func (c *conn) recv(fd uintptr) bool {
	for {
		c.msg.Iov, c.msg.Iovlen = &c.iov, 1
		c.msg.Control = &c.oob[0]
		c.msg.SetControllen(len(c.oob))
		n, _, errno := unix.Syscall(unix.SYS_RECVMSG, fd, uintptr(unsafe.Pointer(&c.msg)), 0)
		c.n, c.err = int(n), nil
		if errno != 0 {
			c.n, c.err = 0, errno
		}
		if errno != unix.EINTR {
			if raceEnabled && errno == 0 {
				// syscall.Read tells the race detector that what the
				// peer wrote before is now visible (a socket orders
				// the two); recvmsg does not, so a zero-byte read
				// does it for the program's other reads and writes.
				syscall.Read(int(fd), nil)
			}
			return errno != unix.EAGAIN
		}
	}
}

// WriteTo copies the connection's data to w through Read, so that no read
// bypasses the stamps (TCPConn's own WriteTo would splice).
func (c *conn) WriteTo(w io.Writer) (int64, error) {
	return io.Copy(w, struct{ io.Reader }{c})
}

// Received returns the receive time of the latest read's data.
func (c *conn) Received() int64 { return c.last.Load() }

// receiveTime returns the SCM_TIMESTAMPNS time in the control messages
// oob as Unix nanoseconds, or 0 if there is none. It walks the messages
// in place (unix.ParseSocketControlMessage would allocate on every read);
// oob comes from make, so its headers are aligned as the kernel wrote
// them.
func receiveTime(oob []byte) int64 {
	for len(oob) >= unix.SizeofCmsghdr {
		h := (*unix.Cmsghdr)(unsafe.Pointer(&oob[0]))
		l := int(h.Len)
		if l < unix.SizeofCmsghdr || l > len(oob) {
			return 0
		}
		data := oob[unix.CmsgLen(0):l]
		if h.Level == unix.SOL_SOCKET && h.Type == unix.SCM_TIMESTAMPNS && len(data) >= timespecSize {
			return (*unix.Timespec)(unsafe.Pointer(&data[0])).Nano()
		}
		next := unix.CmsgSpace(l - unix.CmsgLen(0))
		if next > len(oob) {
			return 0
		}
		oob = oob[next:]
	}
	return 0
}
