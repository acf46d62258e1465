//go:build !linux

package recvtime

import "net"

// Listen returns ln: receive times are only read on Linux.
func Listen(ln net.Listener) net.Listener { return ln }

// Wrap returns c: receive times are only read on Linux.
func Wrap(c net.Conn) net.Conn { return c }
