package client

import (
	"net/http/httptrace"
	"testing"
	"time"
)

// TestProbeSent injects the orders in which the write and first-byte hooks
// can stamp a request: the sent time is never after the first response
// byte, whichever goroutine the scheduler ran first.
func TestProbeSent(t *testing.T) {
	tests := []struct {
		name            string
		wrote, response int64 // ns after the epoch; 0: not stamped
		want            int64
	}{
		{"write then response", 10, 20, 10},
		{"response stamped before the write hook ran", 30, 20, 20},
		{"same instant", 20, 20, 20},
		{"no write stamp", 0, 20, 20},
		{"no response", 10, 0, 10},
		{"neither", 0, 0, 0},
	}
	epoch := time.Now()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProbe(epoch, &watch{})
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
// write: the request's sent time is not after its first byte.
func TestProbeHooksOutOfOrder(t *testing.T) {
	p := newProbe(time.Now(), &watch{})
	p.trace.GotFirstResponseByte()
	first := p.at(p.response.Load())
	for p.since() <= p.response.Load() {
		// wait for the clock to move on, so the write is stamped later
	}
	p.trace.WroteRequest(httptrace.WroteRequestInfo{})
	if sent := p.sent(); sent.After(first) {
		t.Fatalf("sent %v after the first response byte", sent.Sub(first))
	}
}
