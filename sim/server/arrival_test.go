package server

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"
)

// fixedReceiver is a connection that received its bytes at a set time.
type fixedReceiver struct{ at int64 }

func (f *fixedReceiver) received() int64 { return f.at }

func TestArrivalOf(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		why  string
		conn any
		want time.Duration // before now
	}{
		{"a connection that records no receive times: the handler's start", nil, 0},
		{"a latest read without a receive time: the handler's start", &fixedReceiver{}, 0},
		{"bytes received 5 ms before the handler started", &fixedReceiver{now.UnixNano() - 5e6}, 5 * time.Millisecond},
		{"a receive time after now (the wall clock stepped back): ignored", &fixedReceiver{now.UnixNano() + 5e6}, 0},
		{"a receive time over a minute old (the wall clock stepped): ignored", &fixedReceiver{now.UnixNano() - 2*time.Minute.Nanoseconds()}, 0},
	} {
		r := httptest.NewRequest("POST", "/v1/completions", nil)
		if tc.conn != nil {
			r = r.WithContext(context.WithValue(r.Context(), connKey{}, tc.conn))
		}
		got := arrivalOf(r, now)
		if d := now.Sub(got); d != tc.want {
			t.Errorf("%s: arrival %v before now, want %v", tc.why, d, tc.want)
		}
		if got.Round(0) == got { // Round(0) strips the monotonic reading
			t.Errorf("%s: the arrival lost now's monotonic clock reading", tc.why)
		}
	}
}
