package recvtime

import (
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// pair returns a connected pair: the accepted end from Listen, the dialed
// end wrapped by Wrap.
func pair(t *testing.T) (accepted, dialed net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln = Listen(ln)
	t.Cleanup(func() { ln.Close() })
	got := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		got <- c
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	dialed = Wrap(c)
	accepted = <-got
	if accepted == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { accepted.Close(); dialed.Close() })
	return accepted, dialed
}

// TestReceiveTimestamps checks, for both ends of a connection, that a
// stamped connection knows when its bytes reached the socket: after the
// other end began writing them, and well before they were read 50 ms
// later. A first exchange lets the kernel turn stamping on (it does so a
// moment after a socket asks).
func TestReceiveTimestamps(t *testing.T) {
	a, b := pair(t)
	for _, dir := range []struct {
		name     string
		from, to net.Conn
	}{{"to the accepted end", b, a}, {"to the dialed end", a, b}} {
		r := Of(dir.to)
		if r == nil {
			t.Skipf("the kernel refused SO_TIMESTAMPNS: %T", dir.to)
		}
		buf := make([]byte, 64)
		if _, err := dir.from.Write([]byte("warm up")); err != nil {
			t.Fatal(err)
		}
		if _, err := dir.to.Read(buf); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
		before := time.Now().UnixNano()
		if _, err := dir.from.Write([]byte("POST /v1/completions HTTP/1.1\r\n")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
		readAt := time.Now().UnixNano()
		if n, err := dir.to.Read(buf); n == 0 || err != nil {
			t.Fatalf("%s: read %d, %v", dir.name, n, err)
		}
		if at := r.Received(); at < before || at > readAt-25e6 {
			t.Errorf("%s: receive time %d ns after the write began, %d ns before the read; want after the write and at least 25 ms before the read",
				dir.name, at-before, readAt-at)
		}
		if n, err := dir.to.Read(nil); n != 0 || err != nil {
			t.Errorf("%s: empty read: %d, %v; want 0, nil", dir.name, n, err)
		}
	}
	b.Close()
	if n, err := a.Read(make([]byte, 8)); n != 0 || err != io.EOF {
		t.Errorf("read after the other end closed: %d, %v; want 0, io.EOF", n, err)
	}
}

// TestReadAllocates checks that a stamped read allocates nothing: the
// client reads every event of every stream through one.
func TestReadAllocates(t *testing.T) {
	a, b := pair(t)
	msg, buf := []byte("data: x\n\n"), make([]byte, 64)
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := a.Write(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(b, buf[:len(msg)]); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 0 {
		t.Errorf("a write and a stamped read allocate %v times; want 0", allocs)
	}
}

// cmsg builds one control message of the given level and type with data,
// as the kernel lays it out.
func cmsg(level, typ int32, data []byte) []byte {
	b := make([]byte, unix.CmsgSpace(len(data)))
	h := (*unix.Cmsghdr)(unsafe.Pointer(&b[0]))
	h.Level, h.Type = level, typ
	h.SetLen(unix.CmsgLen(len(data)))
	copy(b[unix.CmsgLen(0):], data)
	return b
}

func TestReceiveTime(t *testing.T) {
	ts := make([]byte, timespecSize)
	if timespecSize == 16 {
		binary.NativeEndian.PutUint64(ts, 12)
		binary.NativeEndian.PutUint64(ts[8:], 345)
	} else {
		binary.NativeEndian.PutUint32(ts, 12)
		binary.NativeEndian.PutUint32(ts[4:], 345)
	}
	stamp := cmsg(unix.SOL_SOCKET, unix.SCM_TIMESTAMPNS, ts)
	other := cmsg(unix.SOL_SOCKET, unix.SCM_RIGHTS, []byte{1, 2, 3, 4})
	for _, tc := range []struct {
		why  string
		oob  []byte
		want int64
	}{
		{"no control messages", nil, 0},
		{"a timestamp", stamp, 12e9 + 345},
		{"a timestamp after another message", append(append([]byte{}, other...), stamp...), 12e9 + 345},
		{"another message only", other, 0},
		{"a timestamp cut short", stamp[:len(stamp)-4], 0},
		{"a header shorter than itself", cmsg(unix.SOL_SOCKET, unix.SCM_TIMESTAMPNS, nil)[:unix.SizeofCmsghdr-1], 0},
	} {
		if got := receiveTime(tc.oob); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.why, got, tc.want)
		}
	}
}
