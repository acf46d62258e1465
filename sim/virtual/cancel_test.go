package virtual

import (
	"context"
	"slices"
	"testing"
	"time"

	"surge/sim"
	"surge/trace"
)

// cancelSink keeps every record and cancels the run after the first.
type cancelSink struct {
	collect
	cancel context.CancelFunc
}

func (c *cancelSink) Write(r *trace.Record) error {
	c.cancel()
	return c.collect.Write(r)
}

// TestInterruptRecordsRequestsInFlight interrupts a run of 3,000 requests
// (one a millisecond, 100 tokens each at 1 ms a step, so about 100 in
// flight) after its first record. Every request sent must have a record;
// those in flight are cancelled, hold the tokens they had received, and
// match the uninterrupted run's records up to that point.
func TestInterruptRecordsRequestsInFlight(t *testing.T) {
	t.Parallel()
	var ss []*trace.Session
	for i := range 3000 {
		ss = append(ss, session(i, time.Duration(i)*time.Millisecond, 16, 100))
	}
	cfg := Config{Cost: stepCost(time.Millisecond)}
	full, _ := mustRun(t, cfg, header(0), ss)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sink := &cancelSink{cancel: cancel}
	end, err := Run(ctx, cfg, header(0), ss, sink)
	if err != nil {
		t.Fatal(err)
	}
	recs := sink.recs
	if !end.Interrupted || end.Sent >= end.Scheduled || len(recs) != end.Sent {
		t.Fatalf("end %+v with %d records: want an interrupted run with a record per request sent", end, len(recs))
	}
	ok, cancelled, seen := 0, 0, map[int]bool{}
	for i := range recs {
		r := &recs[i]
		if seen[r.Session] {
			t.Fatalf("session %d recorded twice", r.Session)
		}
		seen[r.Session] = true
		switch {
		case r.OK():
			if cancelled > 0 {
				t.Fatalf("record %d is a finished request after cancelled ones: cancelled records come last", i)
			}
			ok++
		case r.ErrorClass == trace.ErrCancelled:
			cancelled++
			checkCancelled(t, r, &full[slices.IndexFunc(full, func(f trace.Record) bool { return f.Session == r.Session })], end)
		default:
			t.Fatalf("record %+v: want finished or cancelled", r)
		}
	}
	t.Logf("%d finished, %d cancelled at %d µs of %d sent", ok, cancelled, end.DurationUS, end.Sent)
	if ok == 0 || cancelled < 50 {
		t.Errorf("%d finished, %d cancelled: want both, about 100 cancelled", ok, cancelled)
	}
}

// checkCancelled checks a cancelled record against the same request's
// record in the uninterrupted run: same send and first token, the first
// gaps, fewer tokens, and an end at the last token or else the interrupt.
func checkCancelled(t *testing.T, r, full *trace.Record, end trace.RunEnd) {
	t.Helper()
	if r.Status != 200 || r.Error != cancelledMsg || r.SentUS != full.SentUS || r.Chunks >= full.Chunks {
		t.Fatalf("cancelled %+v\nfinished  %+v", r, full)
	}
	if r.Chunks == 0 {
		if r.TTFTUS != 0 || r.ITLUS != nil || r.E2EUS != end.DurationUS-r.SentUS {
			t.Fatalf("cancelled before its first token: %+v, want E2E to the interrupt at %d µs", r, end.DurationUS)
		}
		return
	}
	var sum int64
	for _, g := range r.ITLUS {
		sum += g
	}
	switch {
	case r.TTFTUS != full.TTFTUS || !slices.Equal(r.ITLUS, full.ITLUS[:r.Chunks-1]):
		t.Fatalf("cancelled %+v\ndiffers from the finished run's start %+v", r, full)
	case r.E2EUS != r.TTFTUS+sum || r.SentUS+r.E2EUS > end.DurationUS:
		t.Fatalf("cancelled %+v: want E2E at its last token, before the interrupt at %d µs", r, end.DurationUS)
	}
}

// TestCachedTokensFollowPrefixCaching sends the same 640-token prompt
// twice, the second after the first has finished. With prefix caching the
// second finds 39 of its 40 blocks, 624 tokens: the engine always leaves
// the prompt's last token to compute, as vLLM does, so the block holding
// it is not a hit. Without caching it finds none.
func TestCachedTokensFollowPrefixCaching(t *testing.T) {
	t.Parallel()
	ss := []*trace.Session{session(0, 0, 640, 2), session(1, time.Second, 640, 2)}
	for _, tt := range []struct {
		on   bool
		want int
	}{{true, 624}, {false, 0}} {
		cfg := Config{Cost: stepCost(time.Millisecond), Engine: sim.EngineConfig{EnablePrefixCaching: tt.on}}
		recs, _ := mustRun(t, cfg, header(0), ss)
		if len(recs) != 2 || recs[0].CachedTokens != 0 || recs[1].CachedTokens != tt.want {
			t.Errorf("caching %v: records %+v; want two, the second with %d cached tokens", tt.on, recs, tt.want)
		}
	}
}
