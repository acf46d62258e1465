package recvtime

import (
	"net"
	"testing"
	"time"
)

// fixed is a connection that received its bytes at a set time.
type fixed struct {
	net.Conn
	at int64
}

func (f *fixed) Received() int64 { return f.at }

func TestAt(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		why  string
		r    Receiver
		want time.Duration // before now
	}{
		{"no receiver: now", nil, 0},
		{"a latest read without a receive time: now", &fixed{}, 0},
		{"bytes received 5 ms before now", &fixed{at: now.UnixNano() - 5e6}, 5 * time.Millisecond},
		{"a receive time after now (the wall clock stepped back): ignored", &fixed{at: now.UnixNano() + 5e6}, 0},
		{"a receive time past the limit (the wall clock stepped): ignored", &fixed{at: now.UnixNano() - 2*time.Minute.Nanoseconds()}, 0},
	} {
		got := At(tc.r, now, time.Minute)
		if d := now.Sub(got); d != tc.want {
			t.Errorf("%s: %v before now, want %v", tc.why, d, tc.want)
		}
		if got.Round(0) == got { // Round(0) strips the monotonic reading
			t.Errorf("%s: the time lost now's monotonic clock reading", tc.why)
		}
	}
}

// wrapped hides a connection as tls.Conn does, exposing it by NetConn.
type wrapped struct{ net.Conn }

func (w wrapped) NetConn() net.Conn { return w.Conn }

func TestOf(t *testing.T) {
	f := &fixed{at: 1}
	for _, tc := range []struct {
		why  string
		c    net.Conn
		want Receiver
	}{
		{"nil", nil, nil},
		{"a receiver", f, f},
		{"a receiver under two wrappers", wrapped{wrapped{f}}, f},
		{"a plain connection", wrapped{&net.TCPConn{}}, nil},
	} {
		if got := Of(tc.c); got != tc.want {
			t.Errorf("%s: Of = %v, want %v", tc.why, got, tc.want)
		}
	}
}
