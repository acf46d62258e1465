package virtual

import (
	"context"
	"testing"
	"time"

	"surge/sim"
	"surge/trace"
)

// tokenCost charges 1 ms per step plus 10 µs per token computed, so a
// replica with more work takes longer.
type tokenCost struct{}

func (tokenCost) StepTime(b sim.Batch) time.Duration {
	n := len(b.Decode)
	for _, c := range b.Prefill {
		n += c.Tokens
	}
	return time.Millisecond + time.Duration(n)*10*time.Microsecond
}

// finishedPerReplica runs ss and returns how many requests each replica finished.
func finishedPerReplica(t *testing.T, cfg Config, ss []*trace.Session) []int64 {
	t.Helper()
	rn, _, err := newRunner(cfg, header(0), ss, &collect{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rn.loop(context.Background()); err != nil {
		t.Fatal(err)
	}
	var out []int64
	for i := range rn.reps {
		out = append(out, rn.reps[i].eng.Stats().Finished)
	}
	return out
}

// TestRouters sends one long request then six short ones 50 ms apart to
// two replicas: round-robin alternates, least-loaded keeps the shorts off
// the replica busy with the long one.
func TestRouters(t *testing.T) {
	t.Parallel()
	ss := []*trace.Session{session(0, 0, 64, 1000)}
	for i := 1; i <= 6; i++ {
		ss = append(ss, session(i, time.Duration(i)*50*time.Millisecond, 64, 2))
	}
	tests := []struct {
		reason string
		router Router
		want   []int64
	}{
		{"round-robin alternates whatever the load", RoundRobin, []int64{4, 3}},
		{"least-loaded avoids the busy replica", LeastLoaded, []int64{1, 6}},
	}
	for _, tt := range tests {
		got := finishedPerReplica(t, Config{Cost: tokenCost{}, Replicas: 2, Router: tt.router}, ss)
		if len(got) != 2 || got[0] != tt.want[0] || got[1] != tt.want[1] {
			t.Errorf("%s: finished per replica %v, want %v", tt.reason, got, tt.want)
		}
	}
}

// TestReplicasSpreadLoad offers a burst that one replica serves slowly:
// four replicas finish it sooner and with a lower worst TTFT.
func TestReplicasSpreadLoad(t *testing.T) {
	t.Parallel()
	var ss []*trace.Session
	for i := range 200 {
		ss = append(ss, session(i, time.Duration(i)*time.Millisecond, 2000, 20))
	}
	worst := func(reps int) (int64, int64) {
		recs, end := mustRun(t, Config{Cost: tokenCost{}, Replicas: reps}, header(0), ss)
		var w int64
		for _, r := range recs {
			w = max(w, r.TTFTUS)
		}
		return w, end.DurationUS
	}
	w1, d1 := worst(1)
	w4, d4 := worst(4)
	if w4*2 > w1 || d4*2 > d1 {
		t.Errorf("worst TTFT %d µs and duration %d µs on 4 replicas, %d and %d on 1; want 4 replicas at least twice as fast", w4, d4, w1, d1)
	}
}

func TestParseRouter(t *testing.T) {
	t.Parallel()
	for _, r := range []Router{RoundRobin, LeastLoaded} {
		if got, err := ParseRouter(r.String()); err != nil || got != r {
			t.Errorf("ParseRouter(%q) = %v, %v", r.String(), got, err)
		}
	}
	if _, err := ParseRouter("random"); err == nil {
		t.Error("ParseRouter accepted an unknown router")
	}
}
