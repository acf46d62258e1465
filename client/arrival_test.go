package client

import (
	"net"
	"testing"
	"time"
)

// fixedReceiver is a connection whose latest read arrived at a set time.
type fixedReceiver struct{ at int64 }

func (f *fixedReceiver) Received() int64 { return f.at }

func TestArrivals(t *testing.T) {
	now := time.Now()
	ago := func(d time.Duration) int64 { return now.Add(-d).UnixNano() }
	for _, tc := range []struct {
		why   string
		rx    *fixedReceiver
		req   Request
		sent  time.Duration // before now
		reads []int64       // receive times of successive reads, all returning at now
		want  []time.Duration
	}{
		{"no receive times: the read's return", nil, Request{}, time.Second, []int64{0}, []time.Duration{0}},
		{"bytes that came 5 ms before the read", &fixedReceiver{}, Request{}, time.Second, []int64{ago(5 * time.Millisecond)}, []time.Duration{5 * time.Millisecond}},
		{"a slow reader is timed as it reads", &fixedReceiver{}, Request{ReadRate: 100}, time.Second, []int64{ago(5 * time.Millisecond)}, []time.Duration{0}},
		{"a stalled reader is timed as it reads", &fixedReceiver{}, Request{Stall: time.Second}, time.Second, []int64{ago(5 * time.Millisecond)}, []time.Duration{0}},
		{"never before the request was sent", &fixedReceiver{}, Request{}, time.Millisecond, []int64{ago(5 * time.Millisecond)}, []time.Duration{time.Millisecond}},
		{"never before an earlier read", &fixedReceiver{}, Request{}, time.Second,
			[]int64{ago(3 * time.Millisecond), ago(7 * time.Millisecond), ago(2 * time.Millisecond), 0},
			[]time.Duration{3 * time.Millisecond, 3 * time.Millisecond, 2 * time.Millisecond, 0}},
	} {
		var a arrivals
		if tc.rx == nil {
			a = newArrivals(nil, now.Add(-tc.sent), &tc.req)
		} else {
			a = newArrivals(tc.rx, now.Add(-tc.sent), &tc.req)
		}
		for i, at := range tc.reads {
			if tc.rx != nil {
				tc.rx.at = at
			}
			if got := now.Sub(a.at(now)); got != tc.want[i] {
				t.Errorf("%s: read %d stamped %v before it returned, want %v", tc.why, i, got, tc.want[i])
			}
		}
	}
}

// recordingConn is a connection that records the bytes written to it.
type recordingConn struct {
	net.Conn
	wrote [][]byte
}

func (c *recordingConn) Write(b []byte) (int, error) {
	c.wrote = append(c.wrote, b)
	return len(b), nil
}

// tlsLike hides a connection as tls.Conn does, exposing it by NetConn.
type tlsLike struct{ net.Conn }

func (c tlsLike) NetConn() net.Conn { return c.Conn }

// TestSendConn: the write after a hand-over stamps the armed probe once,
// before it writes, and sent takes it over the hand-over's stamp; a write
// with no probe armed stamps nothing.
func TestSendConn(t *testing.T) {
	sc := &sendConn{Conn: &recordingConn{}}
	if got := sendConnOf(tlsLike{sc}); got != sc {
		t.Fatalf("sendConnOf through a TLS-like wrapper: %v, want the sendConn", got)
	}
	if sendConnOf(tlsLike{&recordingConn{}}) != nil {
		t.Error("sendConnOf found a sendConn where there is none")
	}
	epoch := time.Now()
	p := newProbe(epoch, &watch{})
	p.ready.Store(1000)
	sc.Write([]byte("before any hand-over"))
	if p.writing.Load() != 0 {
		t.Fatal("a write before the hand-over stamped the probe")
	}
	sc.arm(p)
	time.Sleep(time.Millisecond)
	sc.Write([]byte("POST /v1/chat/completions HTTP/1.1\r\n"))
	first := p.writing.Load()
	sc.Write([]byte("the rest of the request"))
	if first < int64(time.Millisecond) || p.writing.Load() != first {
		t.Errorf("writing stamp %d ns after the epoch, then %d; want one stamp, at least 1 ms in", first, p.writing.Load())
	}
	if got := p.sent().Sub(epoch); got != time.Duration(first) {
		t.Errorf("sent %v after the epoch, want the first write's %v", got, time.Duration(first))
	}
	if n := len(sc.Conn.(*recordingConn).wrote); n != 3 {
		t.Errorf("%d writes reached the connection, want 3", n)
	}
}
