package driver

import (
	"slices"
	"testing"
	"testing/synctest"

	"surge/trace"
)

func TestMaxConcurrencyQueue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		reason  string
		cap     int
		atMS    []int64
		tookMS  []int
		queueMS []int64 // per session
	}{
		{"staggered", "a request waits from its offset until a slot frees, first come first served",
			2, []int64{0, 1, 2, 3, 4}, repeat(5, 10), []int64{0, 0, 8, 8, 16}},
		{"burst", "five due at once behind a cap of one are served in schedule order",
			1, []int64{0, 0, 0, 0, 0}, []int{1, 2, 3, 4, 5}, []int64{0, 1, 3, 6, 10}},
		{"under the cap", "no wait when the cap is never reached",
			3, []int64{0, 10, 20, 30}, repeat(4, 15), []int64{0, 0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				h, ss := openTrace(tt.atMS, tt.tookMS)
				f := &fake{}
				end, out := runBubble(t, t.Context(), mustNew(t, Config{Client: f, MaxConcurrency: tt.cap}, h, ss), f)
				recs := out.byKey()
				for i, s := range ss {
					r := recs[key("o", i)]
					// The wait is never hidden: intended stays the schedule's
					// and the lag is exactly the queue time.
					if r.IntendedUS != s.AtUS || r.QueueUS != ms(tt.queueMS[i]) || r.SentUS-r.IntendedUS != r.QueueUS {
						t.Errorf("%s: session %d intended %d queue %d sent %d, want intended %d queue %d", tt.reason, i, r.IntendedUS, r.QueueUS, r.SentUS, s.AtUS, ms(tt.queueMS[i]))
					}
				}
				if f.maxInFlight > tt.cap || end.Sent != len(ss) || end.Dropped != 0 {
					t.Errorf("%s: %d in flight under a cap of %d; end %+v", tt.reason, f.maxInFlight, tt.cap, end)
				}
			})
		})
	}
}

func TestMaxConcurrencyBurstOrder(t *testing.T) {
	t.Parallel()
	// Equal offsets: which of them goes first is up to the scheduler, so
	// compare the queue times as a set.
	synctest.Test(t, func(t *testing.T) {
		h, ss := openTrace([]int64{0, 0, 0, 0, 0}, repeat(5, 10))
		_, out := runBubble(t, t.Context(), mustNew(t, Config{Client: &fake{}, MaxConcurrency: 2}, h, ss), nil)
		var q []int64
		for _, r := range out.recs {
			q = append(q, r.QueueUS)
		}
		slices.Sort(q)
		if want := []int64{0, 0, ms(10), ms(10), ms(20)}; !slices.Equal(q, want) {
			t.Errorf("five due at once behind a cap of two wait %v, want %v", q, want)
		}
	})
}

func TestMaxConcurrencyDrop(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		// Cap 2: sessions 0 and 1 hold the slots until 10 and 11 ms, so 2, 3
		// and 4 are shed; 5 (at 15 ms) finds a slot free.
		h, ss := openTrace([]int64{0, 1, 2, 3, 4, 15}, repeat(6, 10))
		f := &fake{}
		end, out := runBubble(t, t.Context(), mustNew(t, Config{Client: f, MaxConcurrency: 2, Drop: true}, h, ss), f)
		recs := out.byKey()
		for i, s := range ss {
			r := recs[key("o", i)]
			dropped := i >= 2 && i <= 4
			if got := r.ErrorClass == trace.ErrDropped; got != dropped {
				t.Errorf("session %d dropped %v, want %v (record %+v)", i, got, dropped, r)
			}
			if dropped && (r.SentUS != 0 || r.QueueUS != 0 || r.IntendedUS != s.AtUS || r.Error == "") {
				t.Errorf("a dropped record keeps its intended time, has no send or queue time and says why: %+v", r)
			}
		}
		if end.Sent != 3 || end.Dropped != 3 || end.Scheduled != 6 || len(f.reqs) != 3 || len(out.recs) != 6 {
			t.Errorf("end %+v, client saw %d requests, %d records; want 3 sent, 3 dropped, 6 scheduled, 6 records", end, len(f.reqs), len(out.recs))
		}
	})
}
