package driver

import (
	"testing"
	"testing/synctest"
	"time"

	"surge/trace"
)

func TestProgress(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		// One session a second for 10 s, each 2.5 s long (TTFT 250 ms).
		at := make([]int64, 10)
		for i := range at {
			at[i] = int64(i) * 1000
		}
		h, ss := openTrace(at, repeat(10, 2500))
		d := mustNew(t, Config{Client: &fake{}}, h, ss)
		if p := d.Progress(); p != (Progress{}) {
			t.Errorf("before Run, Progress is zero: %+v", p)
		}
		start := time.Now()
		done := make(chan struct{})
		go func() {
			defer close(done)
			if _, err := d.Run(t.Context(), start, &sink{}); err != nil {
				t.Error(err)
			}
		}()
		time.Sleep(5200 * time.Millisecond)
		// Sessions 0–5 are due and sent; 0, 1 and 2 have finished.
		want := Progress{Elapsed: 5200 * time.Millisecond, Scheduled: 6, Started: 6, Sent: 6, InFlight: 3, Done: 3,
			TargetRate: 6 / 5.2, AchievedRate: 6 / 5.2, TTFTp50: 250 * time.Millisecond, Sessions: 10, Span: 9 * time.Second}
		if p := d.Progress(); p != want {
			t.Errorf("mid-run:\n got %+v\nwant %+v", p, want)
		}
		<-done
		time.Sleep(time.Minute)
		want = Progress{Elapsed: 11500 * time.Millisecond, Scheduled: 10, Started: 10, Sent: 10, Done: 10,
			TargetRate: 10 / 11.5, AchievedRate: 10 / 11.5, TTFTp50: 250 * time.Millisecond, Sessions: 10, Span: 9 * time.Second}
		if p := d.Progress(); p != want {
			t.Errorf("after Run, the snapshot is frozen at the end:\n got %+v\nwant %+v", p, want)
		}
	})
}

// TestProgressMultiTurn: the rates compare sessions with sessions, so a
// run of 3-turn sessions that keeps its schedule shows the rate it was
// given, not three times it, while Sent counts every request.
func TestProgressMultiTurn(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		// One session a second for 10 s, each of 3 turns of 200 ms, one
		// after the other.
		h := trace.Header{Text: true, Clients: []trace.ClientInfo{{Name: "o", Model: "m"}}}
		var ss []*trace.Session
		for i := range 10 {
			s := session("o", i, int64(i)*1_000_000, 200)
			for k := 1; k < 3; k++ {
				s.Turns = append(s.Turns, trace.Turn{InputTokens: 5, MaxTokens: 200, Prompt: "again", Parent: ptr(k - 1)})
			}
			ss = append(ss, s)
		}
		d := mustNew(t, Config{Client: &fake{}}, h, ss)
		go d.Run(t.Context(), time.Now(), &sink{})
		// Sessions 0–5 are due and under way; 0–4 sent all three turns
		// and 5 its first (5.0–5.2 s).
		time.Sleep(5100 * time.Millisecond)
		p := d.Progress()
		if p.Scheduled != 6 || p.Started != 6 || p.Sent != 16 {
			t.Errorf("scheduled %d, started %d, sent %d; want 6, 6 and 16", p.Scheduled, p.Started, p.Sent)
		}
		if want := 6 / 5.1; p.TargetRate != want || p.AchievedRate != want {
			t.Errorf("%.2f/s of %.2f/s; want %.2f sessions/s of %.2f", p.AchievedRate, p.TargetRate, want, want)
		}
		time.Sleep(time.Minute)
	})
}

func TestMedianTTFT(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		reason string
		in     []int64 // µs, in order of arrival
		want   time.Duration
	}{
		{"empty", "no sample, no median", nil, 0},
		{"odd", "the middle value", []int64{30, 10, 20}, 20 * time.Microsecond},
		{"even", "the lower middle value", []int64{40, 10, 30, 20}, 20 * time.Microsecond},
		{"window", "only the last 1024 count: 1024 fives after a thousand ones",
			append(repeat(1000, int64(1)), repeat(ttftWindow, int64(5))...), 5 * time.Microsecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var s stats
			for _, v := range tt.in {
				s.count(&trace.Record{TTFTUS: v}, true)
			}
			if got := s.medianTTFT(); got != tt.want {
				t.Errorf("%s: median %v, want %v", tt.reason, got, tt.want)
			}
		})
	}
}
