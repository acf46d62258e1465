package k8s

import (
	"testing"
	"time"

	"surge/trace"
)

// single is a one-request session of client c starting at at seconds.
func single(c string, i int, at float64) *trace.Session {
	return &trace.Session{Client: c, Index: i, AtUS: int64(at * 1e6), Turns: []trace.Turn{{InputTokens: 100, OutputTokens: 100}}}
}

// chat is a session of turns each continuing the last after wait seconds.
func chat(i, turns int, wait float64) *trace.Session {
	s := &trace.Session{Client: "chat", Index: i}
	for k := range turns {
		t := trace.Turn{InputTokens: 10, OutputTokens: 10}
		if k > 0 {
			t.Parent = new(k - 1)
			t.WaitUS = int64(wait * 1e6)
		}
		s.Turns = append(s.Turns, t)
	}
	return s
}

func TestPlanLoad(t *testing.T) {
	t.Parallel()
	open := []trace.ClientInfo{{Name: "a"}, {Name: "chat"}}
	var steady, burst []*trace.Session
	for i := range 10 {
		steady = append(steady, single("a", i, float64(i))) // one per second
		burst = append(burst, single("a", i, 0))            // all at once
	}
	tests := []struct {
		clients  []trace.ClientInfo
		sessions []*trace.Session
		n        int
		e2e      time.Duration
		want     Load
		reason   string
	}{
		{open, steady, 1, 5 * time.Second, Load{PeakRate: 1, InFlight: 5}, "1/s for 10 s, each 5 s long: 5 overlap"},
		{open, steady, 1, 500 * time.Millisecond, Load{PeakRate: 1, InFlight: 1}, "requests shorter than the gaps never overlap"},
		{open, burst, 1, time.Second, Load{PeakRate: 10, InFlight: 10}, "ten at once"},
		{open, burst, 2, time.Second, Load{PeakRate: 5, InFlight: 5}, "equal sessions split evenly over two shards"},
		{open, burst, 3, time.Second, Load{PeakRate: 4, InFlight: 4}, "10 over 3 shards: the busiest has 4"},
		{open, burst, 0, time.Second, Load{PeakRate: 10, InFlight: 10}, "n 0 reads as one shard"},
		{open, []*trace.Session{chat(0, 3, 2)}, 1, time.Second, Load{PeakRate: 1, InFlight: 1},
			"turns at 0, 1+2 = 3 and 6 s: one at a time"},
		{open, []*trace.Session{chat(0, 3, 0), chat(1, 3, 0)}, 1, time.Second, Load{PeakRate: 2, InFlight: 2},
			"two chats in step: turns at 0, 1, 2 s, two at each"},
		{[]trace.ClientInfo{{Name: "a", Concurrency: 10}}, burst, 3, 2 * time.Second, Load{PeakRate: 2, InFlight: 4},
			"closed loop: ⌈10/3⌉ = 4 in flight, 4 / 2 s per second; its offsets are ignored"},
	}
	for _, tt := range tests {
		if got := PlanLoad(tt.clients, tt.sessions, tt.n, tt.e2e); got != tt.want {
			t.Errorf("PlanLoad(n=%d, e2e=%v) = %+v, want %+v (%s)", tt.n, tt.e2e, got, tt.want, tt.reason)
		}
	}
}

func TestSendTimesAfter(t *testing.T) {
	t.Parallel()
	// An agent step: turn 0, two tools in parallel after it (1, 2), turn 3
	// after both, waiting 0.5 s; requests take 1 s.
	s := &trace.Session{AtUS: 10e6, Turns: []trace.Turn{
		{},
		{Parent: new(0)},
		{Parent: new(0), WaitUS: 2e6},
		{Parent: new(1), After: []int{2}, WaitUS: 5e5},
	}}
	got := sendTimes(s, 1e6)
	want := []int64{10e6, 11e6, 13e6, 14.5e6}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("sendTimes turn %d = %d µs, want %d", i, got[i], want[i])
		}
	}
}

func TestMaxInWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		times  []int64
		w      int64
		want   int
		reason string
	}{
		{nil, 10, 0, "no times"},
		{[]int64{0, 10, 20}, 10, 1, "the window is half open: 0 and 10 are not in one"},
		{[]int64{0, 9, 10, 19}, 10, 2, "two at most in any window of 10"},
		{[]int64{5, 5, 5, 100}, 1, 3, "equal times fall together"},
	}
	for _, tt := range tests {
		if got := maxInWindow(tt.times, tt.w); got != tt.want {
			t.Errorf("maxInWindow(%v, %d) = %d, want %d (%s)", tt.times, tt.w, got, tt.want, tt.reason)
		}
	}
}
