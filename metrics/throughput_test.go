package metrics

import (
	"math"
	"testing"

	"surge/trace"
)

// windowRun is a run worked out by hand: two warmup requests still in
// flight when measurement starts, four measured requests 1 s apart (one
// failed, one without usage) and one dropped.
func windowRun() *trace.Records {
	w1 := okRec("c", 0, 9e9, 1_500_000)
	w1.SentUS, w1.Warmup = 0, true
	w2 := okRec("c", 100_000, 9e9, 1_500_000)
	w2.SentUS, w2.Warmup = 100_000, true
	m1 := okRec("c", 1_000_000, 100_000, 1_000_000)
	m2 := okRec("c", 2_000_000, 100_000, 1_000_000)
	m2.ServerOutputTokens, m2.Chunks = 0, 8
	m3 := failRec("c", 3_000_000, trace.ErrStream, 200)
	m3.E2EUS = 1_000_000
	m4 := okRec("c", 4_000_000, 100_000, 1_000_000)
	drop := trace.Record{Client: "c", IntendedUS: 4_500_000, ErrorClass: trace.ErrDropped}
	return records(nil, w1, w2, m1, m2, m3, m4, drop)
}

func TestWindowAndThroughput(t *testing.T) {
	t.Parallel()
	s := Summarize(windowRun(), Options{})
	tp := s.All.Throughput
	// Window: first measured intended time 1 s; last completion m4 sent at
	// 4.001 s plus 1 s.
	const secs = 4.001
	tests := []struct {
		name      string
		got, want float64
		reason    string
	}{
		{"warmup excluded", float64(s.Warmup), 2, "w1, w2"},
		{"window start", float64(s.Window.StartUS), 1_000_000, "m1 intended"},
		{"window end", float64(s.Window.EndUS), 5_001_000, "m4 sent + e2e"},
		{"requests", float64(tp.Requests), 3, "m1, m2, m4; m3 failed"},
		{"req/s", tp.RequestsPerS, 3 / secs, "successes over the window"},
		{"input tok/s", tp.InputTokensPerS, 300 / secs, "usage.prompt_tokens 100 each"},
		{"output tok/s", tp.OutputTokensPerS, 28 / secs, "usage 10 + chunks 8 (no usage) + usage 10"},
		{"send rate", tp.SendRatePerS, 1, "4 sends over 3 s: (n−1)/span"},
		{"scheduled rate", tp.ScheduledRatePerS, 4 / 3.5, "5 intended times from 1 s to 4.5 s, the dropped included"},
		{"peak concurrency", float64(tp.PeakConcurrency), 3, "two warmups and m1 over [1.001, 1.5) s"},
		// ∫c dt in µs: 2·1000 + 3·499000 + 2·100000 + 1·401000 + 1·3000000.
		{"mean concurrency", tp.MeanConcurrency, 5_100_000 / 4_001_000.0, "back-to-back requests do not overlap"},
		{"ttft n", float64(s.All.Latency.TTFT.N), 3, "m1, m2, m4; not the warmups"},
		{"ttft max", s.All.Latency.TTFT.Max, 100_000, "warmup TTFTs of 9e9 µs must not appear"},
		{"dropped", float64(s.All.Errors.Dropped), 1, "counted apart from failures"},
		{"failed", float64(s.All.Errors.Failed), 1, "the stream error"},
		{"drop rate", s.All.Errors.DropRate, 0.2, "1 of 4 sent + 1 dropped"},
	}
	for _, tt := range tests {
		if math.Abs(tt.got-tt.want) > 1e-9*math.Max(1, math.Abs(tt.want)) {
			t.Errorf("%s = %v, want %v (%s)", tt.name, tt.got, tt.want, tt.reason)
		}
	}
	if tp.OutputSource != "mixed" {
		t.Errorf("output source %q, want mixed", tp.OutputSource)
	}
}

func TestPerClientRatesAddUp(t *testing.T) {
	t.Parallel()
	var recs []trace.Record
	for i := range 30 {
		c := []string{"b", "a", "a"}[i%3]
		recs = append(recs, okRec(c, int64(i)*100_000, 10_000, 50_000))
	}
	s := Summarize(records(nil, recs...), Options{PerClient: true})
	if len(s.Clients) != 2 || s.Clients[0].Client != "a" || s.Clients[1].Client != "b" {
		t.Fatalf("clients %v, want a and b in order", len(s.Clients))
	}
	sum := s.Clients[0].Throughput.RequestsPerS + s.Clients[1].Throughput.RequestsPerS
	if math.Abs(sum-s.All.Throughput.RequestsPerS) > 1e-9 {
		t.Errorf("per-client req/s add to %v, all %v: every scope must use one window", sum, s.All.Throughput.RequestsPerS)
	}
	if s.Clients[0].OK != 20 || s.Clients[1].OK != 10 {
		t.Errorf("ok a=%d b=%d, want 20 and 10", s.Clients[0].OK, s.Clients[1].OK)
	}
}

// TestClosedLoopRates: a closed-loop client's records count toward
// throughput but not toward the send and scheduled rates, whose
// IntendedUS is no schedule.
func TestClosedLoopRates(t *testing.T) {
	t.Parallel()
	var recs []trace.Record
	for i := range 11 {
		recs = append(recs, okRec("open", int64(i)*100_000, 1000, 2000)) // 10/s
		// A closed-loop worker takes sessions back to back, 1 ms apart.
		recs = append(recs, okRec("loop", int64(i)*1000, 1000, 2000))
	}
	tests := []struct {
		closed          map[string]bool
		scheduled, sent float64
		excluded        int
		reason          string
	}{
		{map[string]bool{"loop": true}, 10, 10, 11, "only the open-loop client's 11 requests 100 ms apart"},
		{nil, 21 / 1.0, 21 / 1.0, 0, "without the option both clients are pooled: 22 requests over 1 s"},
		{map[string]bool{"loop": true, "open": true}, 0, 0, 22, "no open-loop client, no rate"},
	}
	for _, tt := range tests {
		s := Summarize(records(nil, recs...), Options{ClosedLoop: tt.closed})
		tp := s.All.Throughput
		if math.Abs(tp.ScheduledRatePerS-tt.scheduled) > 1e-9 || math.Abs(tp.SendRatePerS-tt.sent) > 1e-9 ||
			tp.RateExcluded != tt.excluded || tp.Requests != 22 {
			t.Errorf("scheduled %v sent %v excluded %d requests %d; want %v %v %d 22 (%s)",
				tp.ScheduledRatePerS, tp.SendRatePerS, tp.RateExcluded, tp.Requests, tt.scheduled, tt.sent, tt.excluded, tt.reason)
		}
	}
}
