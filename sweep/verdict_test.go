package sweep

import (
	"context"
	"strings"
	"testing"

	"surge/trace"
)

// closedLoopRun is a concurrency point whose slots were all filled at one
// instant: 8 warmup requests sent at 0 s and 8 measured ones sent at
// 1 s, finishing one every 250 ms. Every measured send falls at one
// instant, so an interval from the first to the last send is empty.
func closedLoopRun() *trace.Records {
	rs := &trace.Records{Header: trace.RunHeader{ClosedLoop: []string{"c"}, WarmupUS: 500_000}, End: &trace.RunEnd{}}
	for i := range 16 {
		at := int64(i / 8 * 1_000_000)
		rec := trace.Record{Client: "c", Session: i, IntendedUS: at, SentUS: at, TTFTUS: 50_000,
			E2EUS: 250_000 * int64(i%8+1), OutputTokens: 10, Chunks: 10, Warmup: i < 8}
		rs.Records = append(rs.Records, rec)
	}
	return rs
}

// TestPointThroughputIsReports checks that a point's throughput is the
// one its own report shows (the summary's, over metrics.ThroughputWindow)
// in closed and open loop alike; a closed-loop point whose measured
// requests were all sent at once used to show 0 req/s.
func TestPointThroughputIsReports(t *testing.T) {
	t.Parallel()
	open := &queue{mu: 10, base: 50_000, n: 200}
	openRun, err := open.run(context.Background(), Plan{Mode: Rate, Load: 8})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		rs   *trace.Records
	}{
		{"closed loop, every measured send at one instant", closedLoopRun()},
		{"open loop", openRun},
	} {
		p := newPoint(8, "p", tt.rs, DefaultConfidence)
		want := summarize(tt.rs, DefaultConfidence).All.Throughput
		if p.Throughput != want.RequestsPerS || p.OutputTokS != want.OutputTokensPerS || !(p.Throughput > 0) {
			t.Errorf("%s: point %g req/s, %g tok/s; its report %g req/s, %g tok/s",
				tt.name, p.Throughput, p.OutputTokS, want.RequestsPerS, want.OutputTokensPerS)
		}
	}
	// 8 measured requests from 1 s to the last completion at 3 s.
	if p := newPoint(8, "p", closedLoopRun(), DefaultConfidence); p.Throughput != 4 || p.Measured != 8 {
		t.Errorf("closed loop: %g req/s over %d measured, want 4 over 8", p.Throughput, p.Measured)
	}
}

// TestDecide checks the one verdict word of a point, its reason, and that
// the old slo.pass field agrees with it.
func TestDecide(t *testing.T) {
	t.Parallel()
	ttft := trace.SLO{Metric: "ttft", Percentile: 99, BoundUS: 2_000_000}
	tpot := trace.SLO{Metric: "tpot", Percentile: 99, BoundUS: 100_000}
	pass := Check{SLO: ttft, N: 600, ObservedUS: 1_000_000, Outcome: Pass}
	fail := Check{SLO: tpot, N: 600, Exceeded: 40, ObservedUS: 150_000, Outcome: Fail}
	short := Check{SLO: tpot, N: 23, ObservedUS: 9_000, Outcome: Inconclusive, NeedMore: 436}
	tests := []struct {
		name   string
		p      Point
		word   Word
		reason string
	}{
		{"every check passes", Point{Measured: 600, SLO: &Verdict{Checks: []Check{pass}}}, WordPass, ""},
		{"a check fails", Point{Measured: 600, SLO: &Verdict{Checks: []Check{pass, fail}}}, WordFail, "tpot p99 150 ms over 100 ms"},
		{"too few requests", Point{Measured: 23, SLO: &Verdict{Checks: []Check{pass, short}}}, WordInconclusive, "tpot p99: 23 measured, 459 needed"},
		{"a failure outweighs a short check", Point{Measured: 600, SLO: &Verdict{Checks: []Check{short, fail}}}, WordFail, "tpot p99 150 ms"},
		{"saturated, though every check passes", Point{Measured: 600, Saturated: true, Stopped: "the server fell behind", SLO: &Verdict{Checks: []Check{pass}}}, WordSaturated, "fell behind"},
		{"saturated without SLOs", Point{Measured: 600, Saturated: true, Stopped: "queue grew"}, WordSaturated, "queue grew"},
		{"interrupted", Point{Measured: 600, Interrupted: true, SLO: &Verdict{Checks: []Check{pass}}}, WordInconclusive, "interrupted"},
		{"nothing measured", Point{SLO: &Verdict{Checks: []Check{{SLO: ttft, Outcome: Inconclusive, NeedMore: 459}}}}, WordInconclusive, "no measured request"},
		{"no SLO", Point{Measured: 600}, "", ""},
	}
	for _, tt := range tests {
		p := tt.p
		p.Decide()
		if p.Verdict != tt.word || !strings.Contains(p.Reason, tt.reason) || (tt.reason == "" && p.Reason != "") {
			t.Errorf("%s: %q (%s), want %q (%s)", tt.name, p.Verdict, p.Reason, tt.word, tt.reason)
		}
		if p.SLO != nil && p.SLO.Pass != (tt.word == WordPass) {
			t.Errorf("%s: slo.pass %v with the word %q", tt.name, p.SLO.Pass, p.Verdict)
		}
	}
}

// TestNothingPassedAdvice checks the search's advice when no load passes:
// lower loads when the lowest load failed, more requests when it was too
// short to judge.
func TestNothingPassedAdvice(t *testing.T) {
	t.Parallel()
	slo := []trace.SLO{{Metric: "ttft", Percentile: 99, BoundUS: 500_000}}
	tests := []struct {
		name string
		q    *queue
		note string
	}{
		{"too few requests at every load", &queue{mu: 10, base: 50_000, n: 40, slo: slo}, "not enough requests per point to judge ttft p99 (40 measured, 459 needed): raise --requests or --min-requests"},
		{"every load over the bound", &queue{mu: 10, base: 5_000_000, n: 1000, slo: slo}, "no load passed every SLO: sweep lower loads"},
	}
	for _, tt := range tests {
		res, err := Run(context.Background(), Config{Mode: Rate, Loads: []float64{2, 4}}, tt.q.run)
		if err != nil {
			t.Fatal(err)
		}
		if res.Search == nil || res.Search.Note != tt.note {
			t.Errorf("%s: search %+v, want the note %q", tt.name, res.Search, tt.note)
		}
	}
}
