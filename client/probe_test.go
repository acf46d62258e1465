package client

import (
	"net/http/httptrace"
	"testing"
	"time"
)

// TestProbeSent injects the orders in which the connection, write and
// first-byte hooks can stamp a request: the sent time is the
// connection's hand-off, however late the write hook ran, and never
// after the first response byte.
func TestProbeSent(t *testing.T) {
	tests := []struct {
		name                   string
		ready, wrote, response int64 // ns after the epoch; 0: not stamped
		want                   int64
	}{
		{"connection, write, response", 5, 10, 20, 5},
		{"the write hook ran late, after the response began", 5, 30, 20, 5},
		{"no connection stamp: write then response", 0, 10, 20, 10},
		{"no connection stamp: response before the write hook", 0, 30, 20, 20},
		{"same instant", 20, 20, 20, 20},
		{"no write stamp", 0, 0, 20, 20},
		{"no response", 5, 10, 0, 5},
		{"nothing", 0, 0, 0, 0},
	}
	epoch := time.Now()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProbe(epoch, &watch{})
			p.ready.Store(tt.ready)
			p.wrote.Store(tt.wrote)
			p.response.Store(tt.response)
			got := p.sent()
			if tt.want == 0 {
				if !got.IsZero() {
					t.Fatalf("sent = %v, want the zero time", got)
				}
				return
			}
			if d := got.Sub(epoch); d != time.Duration(tt.want) {
				t.Errorf("sent = epoch+%v, want epoch+%v", d, time.Duration(tt.want))
			}
		})
	}
}

// TestProbeHooksOutOfOrder runs the trace hooks in the order a loaded
// machine can run them, the first response byte before the end of the
// write: the request's sent time is its connection's hand-off, before
// its first byte.
func TestProbeHooksOutOfOrder(t *testing.T) {
	p := newProbe(time.Now(), &watch{})
	p.trace.GotConn(httptrace.GotConnInfo{})
	ready := p.at(p.ready.Load())
	for p.since() <= p.ready.Load() {
		// wait for the clock to move on
	}
	p.trace.GotFirstResponseByte()
	first := p.at(p.response.Load())
	for p.since() <= p.response.Load() {
		// wait for the clock to move on, so the write is stamped later
	}
	p.trace.WroteRequest(httptrace.WroteRequestInfo{})
	if sent := p.sent(); sent.After(first) || !sent.Equal(ready) {
		t.Fatalf("sent %v after the connection's hand-off, %v after the first response byte", sent.Sub(ready), sent.Sub(first))
	}
}
