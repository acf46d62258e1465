package server

import (
	"context"
	"net"
	"net/http/httptest"
	"testing"
	"time"
)

// fixedReceiver is a connection that received its bytes at a set time.
type fixedReceiver struct {
	net.Conn
	at int64
}

func (f *fixedReceiver) Received() int64 { return f.at }

// TestArrivalOf: an HTTP/1 request arrives when its connection's latest
// read did (recvtime.At's rules, tested there), an HTTP/2 one or one with
// no connection in its context when its handler starts.
func TestArrivalOf(t *testing.T) {
	now := time.Now()
	early := &fixedReceiver{at: now.UnixNano() - 5e6}
	for _, tc := range []struct {
		why   string
		conn  net.Conn
		major int
		want  time.Duration // before now
	}{
		{"no connection in the context", nil, 1, 0},
		{"HTTP/1 bytes received 5 ms before the handler started", early, 1, 5 * time.Millisecond},
		{"HTTP/2, whose connection carries other requests' bytes too", early, 2, 0},
	} {
		r := httptest.NewRequest("POST", "/v1/completions", nil)
		r.ProtoMajor = tc.major
		if tc.conn != nil {
			r = r.WithContext(context.WithValue(r.Context(), connKey{}, tc.conn))
		}
		if d := now.Sub(arrivalOf(r, now)); d != tc.want {
			t.Errorf("%s: arrival %v before now, want %v", tc.why, d, tc.want)
		}
	}
}
