package server

import (
	"testing"
	"time"

	"surge/sim"
)

// The loop must never wait for a handler: a stream nobody reads takes a
// thousand steps of events, and its handler then sees one wake-up carrying
// the latest count, so it writes every token it missed.
func TestDeliverNeverBlocksOnSlowReader(t *testing.T) {
	t.Parallel()
	s, err := New(Config{Model: testModel, Coster: &prefillCost{}})
	if err != nil {
		t.Fatal(err)
	}
	st := newStream(1, job{promptLen: 1, outputLen: 1000}, time.Now())
	live := map[uint64]*stream{1: st}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.deliver(live, []sim.Event{{ID: 1, Kind: sim.EventFirstToken, Tokens: 1}}, time.Now())
		for i := 2; i <= 1000; i++ {
			s.deliver(live, []sim.Event{{ID: 1, Kind: sim.EventToken, Tokens: i}}, time.Now())
		}
		s.deliver(live, []sim.Event{{ID: 1, Kind: sim.EventFinished, Tokens: 1000}}, time.Now())
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("deliver blocked on a stream nobody reads")
	}
	<-st.notify
	if p := st.snapshot(); p.tokens != 1000 || !p.done {
		t.Errorf("snapshot %+v, want 1000 tokens and done", p)
	}
	select {
	case <-st.notify:
		t.Error("more than one wake-up pending")
	default:
	}
	if len(live) != 0 {
		t.Error("finished stream still live")
	}
}
