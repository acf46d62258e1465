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
		want := Progress{Elapsed: 5200 * time.Millisecond, Scheduled: 6, Sent: 6, InFlight: 3, Done: 3,
			TargetRate: 6 / 5.2, AchievedRate: 6 / 5.2, TTFTp50: 250 * time.Millisecond, Sessions: 10, Span: 9 * time.Second}
		if p := d.Progress(); p != want {
			t.Errorf("mid-run:\n got %+v\nwant %+v", p, want)
		}
		<-done
		time.Sleep(time.Minute)
		want = Progress{Elapsed: 11500 * time.Millisecond, Scheduled: 10, Sent: 10, Done: 10,
			TargetRate: 10 / 11.5, AchievedRate: 10 / 11.5, TTFTp50: 250 * time.Millisecond, Sessions: 10, Span: 9 * time.Second}
		if p := d.Progress(); p != want {
			t.Errorf("after Run, the snapshot is frozen at the end:\n got %+v\nwant %+v", p, want)
		}
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
