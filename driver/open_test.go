package driver

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"
)

func TestOpenLoopSchedule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		reason string
		atMS   []int64
		tookMS []int
	}{
		{"instant client", "every send lands exactly on its offset, equal offsets included",
			[]int64{0, 1, 1, 5, 1000, 1000, 2500}, repeat(7, 0)},
		{"slow first request", "a 10 s request must not delay or bunch the sends behind it",
			[]int64{0, 1, 2, 3, 4}, []int{10_000, 0, 0, 0, 0}},
		{"overlapping requests", "requests in flight together never hold back the schedule",
			[]int64{0, 10, 20, 30, 40, 50}, repeat(6, 1000)},
		{"first session late", "an offset long after the start is waited for, not sent at once",
			[]int64{60_000, 60_001}, []int{3, 0}},
	}
	for _, tt := range tests {
		// With Spin the dispatcher busy-waits near each instant; under the
		// fake clock it must notice and sleep instead, just as exactly.
		for _, spin := range []time.Duration{0, 1500 * time.Microsecond} {
			t.Run(tt.name+"/spin="+spin.String(), func(t *testing.T) {
				t.Parallel()
				synctest.Test(t, func(t *testing.T) {
					h, ss := openTrace(tt.atMS, tt.tookMS)
					f := &fake{}
					end, out := runBubble(t, t.Context(), mustNew(t, Config{Client: f, Spin: spin}, h, ss), f)
					recs := out.byKey()
					var last int64
					for i, s := range ss {
						r := recs[key(s.Client, s.Index)]
						lag := r.SentUS - r.IntendedUS
						if r.IntendedUS != s.AtUS || lag != 0 || r.E2EUS != ms(int64(tt.tookMS[i])) || !r.OK() {
							t.Errorf("%s: session %d at %dus: intended %d, lag %d, e2e %d, error %q", tt.reason, i, s.AtUS, r.IntendedUS, lag, r.E2EUS, r.Error)
						}
						last = max(last, s.AtUS+ms(int64(tt.tookMS[i])))
					}
					if n := len(ss); len(out.recs) != n || end.Sent != n || end.Scheduled != n || end.Interrupted || end.DurationUS != last {
						t.Errorf("%s: %d records, end %+v; want %d sent and scheduled, duration %dus", tt.reason, len(out.recs), end, n, last)
					}
				})
			})
		}
	}
}

func TestOpenLoopFutureStart(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		h, ss := openTrace([]int64{0, 5}, []int{0, 0})
		d := mustNew(t, Config{Client: &fake{}}, h, ss)
		out := &sink{}
		start := time.Now().Add(time.Second)
		end, err := d.Run(t.Context(), start, out)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range out.recs {
			if r.SentUS != r.IntendedUS {
				t.Errorf("offsets count from the start instant, not from the call: session %d intended %d sent %d", r.Session, r.IntendedUS, r.SentUS)
			}
		}
		if got := time.Since(start); got != 5*time.Millisecond || end.DurationUS != 5000 {
			t.Errorf("run ended %v after the start (duration %dus), want 5ms", got, end.DurationUS)
		}
	})
}

// key names a record of the first turn of a session, as sink.byKey does.
func key(client string, index int) string { return keyTurn(client, index, 0) }

// keyTurn names a record, as sink.byKey does.
func keyTurn(client string, index, turn int) string {
	return fmt.Sprintf("%s/%d/%d", client, index, turn)
}
