package metrics

import (
	"math"
	"testing"
	"time"

	"surge/trace"
)

// sRec is a request for the series tests: intended at at, sent at sent,
// with the given TTFT and E2E, n output tokens (from usage) and error
// class class.
func sRec(at, sent, ttft, e2e int64, n int, class string) trace.Record {
	return trace.Record{IntendedUS: at, SentUS: sent, TTFTUS: ttft, E2EUS: e2e, ServerOutputTokens: n, ErrorClass: class}
}

func TestSeries(t *testing.T) {
	t.Parallel()
	warm := sRec(0, 0, 300_000, 500_000, 10, "")
	warm.Warmup = true
	chunked := sRec(500_000, 600_000, 400_000, 2_400_000, 0, "")
	chunked.Chunks = 20
	tests := []struct {
		name   string
		reason string
		end    int64 // the end line's duration; 0 for no end line
		width  time.Duration
		recs   []trace.Record
		want   []Bucket
	}{
		{
			name: "mixed run",
			reason: "r1 sent 0.1 s, generates 90 tokens over [0.3, 1.2) s: 70 in bucket 0, 20 in bucket 1; " +
				"r2 sent 0.6 s, 20 chunks over [1.0, 3.0) s: 10 in buckets 1 and 2, completes at 3.0 s so in bucket 3; " +
				"a warmup request over [0, 0.5) s with 10 tokens over [0.3, 0.5); r6 with 1 token at [0.15, 0.2); " +
				"a timeout sent at 1.5 s failing at 3.5 s; a drop intended at 2.2 s. " +
				"TTFT median of bucket 0 is the 2nd of 100, 200, 300, 400 ms, its p90 and p99 the 4th",
			end:   4_000_000,
			width: time.Second,
			recs: []trace.Record{
				sRec(0, 100_000, 200_000, 1_100_000, 90, ""),
				chunked,
				warm,
				sRec(1_500_000, 1_500_000, 0, 2_000_000, 0, trace.ErrTimeout),
				sRec(2_200_000, 0, 0, 0, 0, trace.ErrDropped),
				sRec(0, 50_000, 100_000, 150_000, 1, ""),
			},
			want: []Bucket{
				{StartUS: 0, EndUS: 1e6, Scheduled: 4, Sent: 4, Warmup: 1, OK: 2, InFlight: 2, OutputTokS: 81, TTFTP50US: 200_000, TTFTP90US: 400_000, TTFTP99US: 400_000, TTFTN: 4},
				{StartUS: 1e6, EndUS: 2e6, Scheduled: 1, Sent: 1, OK: 1, InFlight: 2, OutputTokS: 30},
				{StartUS: 2e6, EndUS: 3e6, Scheduled: 1, Dropped: 1, InFlight: 2, OutputTokS: 10},
				{StartUS: 3e6, EndUS: 4e6, OK: 1, Errors: 1},
			},
		},
		{
			name: "completion at the run's end",
			reason: "the last bucket holds its end instant: a request done exactly at 2 s completes there, " +
				"and one without a first token puts its 5 tokens at its completion at 0.7 s; with 500 ms " +
				"buckets rates double the counts",
			end:   2_000_000,
			width: 500 * time.Millisecond,
			recs: []trace.Record{
				sRec(1_000_000, 1_000_000, 500_000, 1_000_000, 10, ""),
				sRec(0, 200_000, 0, 500_000, 5, ""),
			},
			want: []Bucket{
				{StartUS: 0, EndUS: 5e5, Scheduled: 1, Sent: 1, InFlight: 1},
				{StartUS: 5e5, EndUS: 1e6, OK: 1, OutputTokS: 10},
				{StartUS: 1e6, EndUS: 15e5, Scheduled: 1, Sent: 1, InFlight: 1, TTFTP50US: 500_000, TTFTP90US: 500_000, TTFTP99US: 500_000, TTFTN: 1},
				{StartUS: 15e5, EndUS: 2e6, OK: 1, OutputTokS: 20},
			},
		},
		{
			name:   "no end line",
			reason: "without an end line the series reaches the last completion, 1.5 s: two 1 s buckets",
			width:  time.Second,
			recs:   []trace.Record{sRec(0, 0, 0, 1_500_000, 0, trace.ErrStream)},
			want: []Bucket{
				{StartUS: 0, EndUS: 1e6, Scheduled: 1, Sent: 1, InFlight: 1},
				{StartUS: 1e6, EndUS: 2e6, Errors: 1},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rs := &trace.Records{Records: tt.recs}
			if tt.end > 0 {
				rs.End = &trace.RunEnd{DurationUS: tt.end}
			}
			got := Series(rs, tt.width)
			if len(got) != len(tt.want) {
				t.Fatalf("%s: %d buckets, want %d: %+v", tt.reason, len(got), len(tt.want), got)
			}
			for i := range got {
				g, w := got[i], tt.want[i]
				if math.Abs(g.OutputTokS-w.OutputTokS) > 1e-9 {
					t.Errorf("bucket %d: output %v tok/s, want %v (%s)", i, g.OutputTokS, w.OutputTokS, tt.reason)
				}
				g.OutputTokS = w.OutputTokS
				if g != w {
					t.Errorf("bucket %d:\n got %+v\nwant %+v\n(%s)", i, g, w, tt.reason)
				}
			}
		})
	}
}

func TestSeriesInFlightIdentity(t *testing.T) {
	t.Parallel()
	// In flight at a bucket's end, counted directly from the records,
	// must equal the running sum of sent minus completed.
	var recs []trace.Record
	for i := range int64(50) {
		recs = append(recs, sRec(i*37_000, i*37_000+900, 20_000, 100_000+i*13_000%400_000, 5, ""))
	}
	rs := &trace.Records{Records: recs, End: &trace.RunEnd{DurationUS: 2_500_000}}
	for _, b := range Series(rs, 100*time.Millisecond)[:24] { // the last bucket holds its end instant
		direct := 0
		for _, r := range recs {
			if r.SentUS < b.EndUS && completion(&r) >= b.EndUS {
				direct++
			}
		}
		if b.InFlight != direct {
			t.Errorf("bucket at %d µs: in flight %d, counted %d", b.StartUS, b.InFlight, direct)
		}
	}
}

func TestSeriesWidth(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason    string
		end       int64
		width     time.Duration
		n         int
		wantWidth int64
	}{
		{"10 s run: 100 ms buckets", 10_000_000, 0, 100, 100_000},
		{"150.05 ms run: 1500.5 µs rounds up to 2 ms, ⌈150.05/2⌉ = 76 buckets", 150_050, 0, 76, 2000},
		{"a run of one instant still gets one 1 ms bucket", 0, 0, 1, 1000},
		{"a given width is kept: 3 s run in 700 ms buckets needs 5", 3_000_000, 700 * time.Millisecond, 5, 700_000},
	}
	for _, tt := range tests {
		rs := &trace.Records{
			Records: []trace.Record{sRec(0, 0, 0, 0, 0, trace.ErrCancelled)},
			End:     &trace.RunEnd{DurationUS: tt.end},
		}
		bs := Series(rs, tt.width)
		if len(bs) != tt.n || bs[0].EndUS-bs[0].StartUS != tt.wantWidth {
			t.Errorf("%s: %d buckets of %d µs, want %d of %d", tt.reason, len(bs), bs[0].EndUS-bs[0].StartUS, tt.n, tt.wantWidth)
		}
	}
	if Series(nil, 0) != nil || Series(&trace.Records{}, 0) != nil {
		t.Error("a run without records has a series")
	}
}

func TestBucketPerS(t *testing.T) {
	t.Parallel()
	b := Bucket{StartUS: 1e6, EndUS: 1_250_000}
	if got := b.PerS(3); got != 12 {
		t.Errorf("3 in 250 ms: %v/s, want 12", got)
	}
	if got := (Bucket{}).PerS(3); got != 0 {
		t.Errorf("empty bucket: %v/s, want 0", got)
	}
}
