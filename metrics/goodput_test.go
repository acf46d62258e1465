package metrics

import (
	"testing"

	"surge/trace"
)

func TestMeets(t *testing.T) {
	t.Parallel()
	ttft := trace.SLO{Metric: "ttft", Percentile: 99, BoundUS: 100_000}
	ttfo := trace.SLO{Metric: "ttfo", Percentile: 99, BoundUS: 100_000}
	tpot := trace.SLO{Metric: "tpot", Percentile: 0, BoundUS: 10_000}
	itl50 := trace.SLO{Metric: "itl", Percentile: 50, BoundUS: 20_000}
	e2e := trace.SLO{Metric: "e2e", Percentile: 90, BoundUS: 1e6}
	tests := []struct {
		r      trace.Record
		slo    trace.SLO
		want   bool
		reason string
	}{
		{trace.Record{TTFTUS: 100_000}, ttft, true, "equal to the bound meets it"},
		{trace.Record{TTFTUS: 100_001}, ttft, false, "one µs over"},
		{trace.Record{TTFTUS: 0, E2EUS: 5}, ttft, false, "a success without any token never met a first-token bound"},
		{trace.Record{TTFTUS: 50, TTFOUS: 0}, ttfo, false, "no answer token"},
		{trace.Record{TTFTUS: 1000, E2EUS: 91_000, Chunks: 10}, tpot, true, "(91000−1000)/9 = 10000"},
		{trace.Record{TTFTUS: 1000, E2EUS: 91_009, Chunks: 10}, tpot, false, "(91009−1000)/9 = 10001"},
		{trace.Record{TTFTUS: 1000, E2EUS: 9e9, Chunks: 1}, tpot, true, "one token has no TPOT to violate"},
		{trace.Record{ITLUS: []int64{10_000, 10_000, 30_000}}, itl50, true, "own p50 is the 2nd of [10, 10, 30] ms"},
		{trace.Record{ITLUS: []int64{30_000, 30_000, 10_000}}, itl50, false, "own p50 is the 2nd of [10, 30, 30] ms"},
		{trace.Record{ITLUS: []int64{30_000, 10_000}}, trace.SLO{Metric: "itl", BoundUS: 20_000}, true, "mean of own gaps is 20 ms"},
		{trace.Record{}, itl50, true, "no gaps, nothing to violate"},
		{trace.Record{E2EUS: 1e6}, e2e, true, "equal to the bound"},
	}
	for _, tt := range tests {
		if got, _ := meets(&tt.r, tt.slo, nil); got != tt.want {
			t.Errorf("meets(%+v, %s) = %v, want %v (%s)", tt.r, sloName(tt.slo), got, tt.want, tt.reason)
		}
	}
}

// TestGoodputAndVerdicts uses TTFTs of 1..1000 ms, whose p99 is 990 ms
// with the interval [983, 997] ms, p50 500 ms in [469, 532] ms, p75 750 ms.
func TestGoodputAndVerdicts(t *testing.T) {
	t.Parallel()
	var recs []trace.Record
	for i := range 1000 {
		ttft := int64(i+1) * 1000
		r := okRec("c", int64(i)*1000, ttft, ttft+9000)
		r.SentUS = r.IntendedUS // no lag: ttft+lag is TTFT
		recs = append(recs, r)
	}
	recs = append(recs, failRec("c", 0, trace.ErrHTTP, 503))
	slos := []trace.SLO{
		{Metric: "ttft", Percentile: 99, BoundUS: 995_000},
		{Metric: "ttft", Percentile: 99, BoundUS: 998_000},
		{Metric: "ttft", Percentile: 50, BoundUS: 400_000},
		{Metric: "ttft", Percentile: 0, BoundUS: 600_000},
		{Metric: "ttft", Percentile: 75, BoundUS: 800_000},
		{Metric: "queue", Percentile: 99, BoundUS: 1},
	}
	s := Summarize(records(slos, recs...), Options{})
	tests := []struct {
		observed         float64
		pass, conclusive bool
		met              int
		reason           string
	}{
		{990_000, true, false, 995, "passes, but the interval [983, 997] ms holds the bound"},
		{990_000, true, true, 998, "the whole interval is within the bound"},
		{500_000, false, true, 400, "the whole interval [469, 532] ms exceeds the bound"},
		{500_500, true, false, 600, "a mean has no interval, so it is never conclusive"},
		{750_000, true, true, 800, "a non-standard percentile is computed for its SLO"},
	}
	if len(s.All.SLOs) != len(tests) {
		t.Fatalf("%d checks, want %d: the unknown metric queue is skipped", len(s.All.SLOs), len(tests))
	}
	for i, tt := range tests {
		c := s.All.SLOs[i]
		if c.Observed != tt.observed || c.Pass != tt.pass || c.Conclusive != tt.conclusive || c.Met != tt.met {
			t.Errorf("slo %d: observed %v pass %v conclusive %v met %d; want %v %v %v %d (%s)",
				i, c.Observed, c.Pass, c.Conclusive, c.Met, tt.observed, tt.pass, tt.conclusive, tt.met, tt.reason)
		}
	}
	// Good requests meet every bound: TTFT ≤ 400 ms is the binding one.
	g := s.All.Goodput
	if g == nil || g.Requests != 400 || g.Fraction != 400.0/1001 {
		t.Errorf("goodput %+v, want 400 requests, fraction 400/1001", g)
	}
	if !hasWarning(s, WarnSLO, "queue") {
		t.Errorf("no warning about the unknown SLO metric: %v", s.Warnings)
	}
}

func TestNoSLONoGoodput(t *testing.T) {
	t.Parallel()
	s := Summarize(records(nil, okRec("c", 0, 1, 2)), Options{})
	if s.All.Goodput != nil || s.All.SLOs != nil {
		t.Errorf("goodput %+v and checks %v without SLOs, want none", s.All.Goodput, s.All.SLOs)
	}
}

// TestSLOCountsQueueing: requests that queue behind their schedule fail a
// TTFT SLO that their TTFT alone would pass (no coordinated omission),
// while a TPOT SLO ignores the queueing.
func TestSLOCountsQueueing(t *testing.T) {
	t.Parallel()
	var recs []trace.Record
	for i := range 400 {
		// TTFT 100 ms, but each request waited 10 ms longer than the last
		// for a concurrency slot: lag grows to 4 s.
		r := okRec("c", int64(i)*10_000, 100_000, 190_000)
		r.QueueUS = int64(i) * 10_000
		r.SentUS = r.IntendedUS + 1000 + r.QueueUS
		recs = append(recs, r)
	}
	slos := []trace.SLO{
		{Metric: "ttft", Percentile: 99, BoundUS: 500_000},
		{Metric: "tpot", Percentile: 99, BoundUS: 10_000},
	}
	s := Summarize(records(slos, recs...), Options{})
	if q, _ := s.All.Latency.TTFT.At(99); q.Value != 100_000 {
		t.Fatalf("plain ttft p99 %v, want 100 ms, which passes the 500 ms bound", q.Value)
	}
	ttft, tpot := s.All.SLOs[0], s.All.SLOs[1]
	// ttft+lag of request i is 100 + 1 + 10·i ms: 40 requests (i ≤ 39)
	// are within 500 ms; p99 is the 396th value, 100 + 1 + 3950 ms.
	if ttft.JudgedOn != "ttft+lag" || ttft.Pass || !ttft.Conclusive || ttft.Observed != 4_051_000 || ttft.Met != 40 {
		t.Errorf("ttft verdict %+v; want judged on ttft+lag, a conclusive fail at 4051 ms, met by 40", ttft)
	}
	if tpot.JudgedOn != "tpot" || !tpot.Pass || tpot.Met != 400 {
		t.Errorf("tpot verdict %+v; want judged on tpot and passed by all: queueing does not change it", tpot)
	}
	if g := s.All.Goodput; g.Requests != 40 {
		t.Errorf("goodput %d requests, want the 40 whose ttft+lag is within 500 ms", g.Requests)
	}
}
