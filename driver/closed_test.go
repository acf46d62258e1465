package driver

import (
	"slices"
	"testing"
	"testing/synctest"

	"surge/trace"
)

// closedIntended simulates n workers taking sessions in index order as soon
// as one is free, returning each session's intended offset in µs: session j
// starts at the earliest instant a worker is free.
func closedIntended(n int, tookMS []int) []int64 {
	free := make([]int64, n) // when each worker is next free
	out := make([]int64, len(tookMS))
	for j, took := range tookMS {
		w := slices.Index(free, slices.Min(free))
		out[j] = free[w]
		free[w] += ms(int64(took))
	}
	return out
}

func TestClosedLoop(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		reason  string
		workers int
		tookMS  []int
	}{
		{"one worker", "each session starts the instant the previous one ends",
			1, []int{10, 20, 30, 40, 50}},
		{"three workers, equal", "three in flight at all times, refilled as they finish together",
			3, repeat(10, 10)},
		{"three workers, uneven", "a freed worker takes the next session by index at once",
			3, []int{50, 10, 30, 5, 5, 40, 1, 1, 70, 2, 9, 3}},
		{"more workers than sessions", "idle workers leave without sending anything",
			8, []int{5, 6, 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				h := trace.Header{Text: true, Clients: []trace.ClientInfo{{Name: "c", Model: "m", Concurrency: tt.workers}}}
				ss := make([]*trace.Session, len(tt.tookMS))
				for i, took := range tt.tookMS {
					ss[i] = session("c", i, 0, took)
				}
				// Workers take sessions by index whatever the trace's order.
				slices.Reverse(ss)
				f := &fake{}
				end, out := runBubble(t, t.Context(), mustNew(t, Config{Client: f}, h, ss), f)
				want := closedIntended(tt.workers, tt.tookMS)
				recs := out.byKey()
				for i := range tt.tookMS {
					r := recs[key("c", i)]
					if r.IntendedUS != want[i] || r.SentUS != want[i] {
						t.Errorf("%s: session %d intended %dus sent %dus, want %dus", tt.reason, i, r.IntendedUS, r.SentUS, want[i])
					}
				}
				if w := min(tt.workers, len(ss)); f.maxInFlight != w {
					t.Errorf("%s: at most %d in flight, want exactly %d", tt.reason, f.maxInFlight, w)
				}
				if n := len(ss); end.Sent != n || end.Scheduled != n || len(out.recs) != n {
					t.Errorf("%s: end %+v with %d records, want %d", tt.reason, end, len(out.recs), n)
				}
			})
		})
	}
}

func TestClosedAndOpenTogether(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		h := trace.Header{Text: true, Clients: []trace.ClientInfo{
			{Name: "a", Model: "m", Concurrency: 2}, {Name: "b", Model: "m", Concurrency: 3}, {Name: "o", Model: "m"}}}
		tookA, tookB := []int{7, 3, 9, 1, 4, 4, 8}, []int{2, 11, 6, 5, 5, 3, 12, 1, 2}
		var ss []*trace.Session
		for i, took := range tookA {
			ss = append(ss, session("a", i, 0, took))
		}
		for i, took := range tookB {
			ss = append(ss, session("b", i, 0, took))
		}
		for i := range 20 {
			ss = append(ss, session("o", i, int64(i)*1500, 4))
		}
		f := &fake{}
		end, out := runBubble(t, t.Context(), mustNew(t, Config{Client: f}, h, ss), f)
		recs := out.byKey()
		for _, c := range []struct {
			name    string
			workers int
			took    []int
		}{{"a", 2, tookA}, {"b", 3, tookB}} {
			for i, want := range closedIntended(c.workers, c.took) {
				if r := recs[key(c.name, i)]; r.IntendedUS != want || r.SentUS != want {
					t.Errorf("client %s keeps its own %d workers: session %d intended %d sent %d, want %d", c.name, c.workers, i, r.IntendedUS, r.SentUS, want)
				}
			}
		}
		for i := range 20 {
			if r := recs[key("o", i)]; r.SentUS != int64(i)*1500 {
				t.Errorf("the open-loop client keeps its schedule beside closed-loop ones: session %d sent %dus", i, r.SentUS)
			}
		}
		if end.Sent != len(ss) {
			t.Errorf("sent %d of %d", end.Sent, len(ss))
		}
	})
}
