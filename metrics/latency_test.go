package metrics

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"surge/trace"
)

// TestErrorsDoNotMoveLatency: 10% HTTP 500s with absurd latencies must not
// change any latency distribution of the successful 90%.
func TestErrorsDoNotMoveLatency(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	var good, mixed []trace.Record
	for i := range 1000 {
		at := int64(i) * 10_000
		if i%10 == 3 {
			r := failRec("c", at, trace.ErrHTTP, 500)
			r.TTFTUS, r.TTFOUS, r.E2EUS, r.ITLUS = 9e9, 9e9, 9e9, []int64{9e9}
			r.ServerOutputTokens, r.Chunks = 2, 2
			mixed = append(mixed, r)
			continue
		}
		ttft := 20_000 + rng.Int64N(200_000)
		r := okRec("c", at, ttft, ttft+rng.Int64N(2e6))
		good = append(good, r)
		mixed = append(mixed, r)
	}
	want := Summarize(records(nil, good...), Options{})
	got := Summarize(records(nil, mixed...), Options{})
	for _, name := range []string{"ttft", "ttfo", "itl", "tpot", "e2e"} {
		g, w := got.All.Latency.Named(name), want.All.Latency.Named(name)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s with errors:\n%+v\nwithout:\n%+v", name, *g, *w)
		}
	}
	if got.All.Latency.TTFT.N != 900 {
		t.Errorf("ttft n = %d, want 900", got.All.Latency.TTFT.N)
	}
	e := got.All.Errors
	if e.Failed != 100 || e.Rate != 0.1 || e.ByClass[trace.ErrHTTP] != 100 || e.ByStatus[500] != 100 {
		t.Errorf("errors %+v, want 100 http 500s at rate 0.1", e)
	}
}

func TestTPOT(t *testing.T) {
	t.Parallel()
	tests := []struct {
		r      trace.Record
		want   float64
		ok     bool
		reason string
	}{
		{trace.Record{TTFTUS: 100, E2EUS: 1000, ServerOutputTokens: 10, Chunks: 10}, 100, true, "(1000−100)/(10−1)"},
		{trace.Record{TTFTUS: 100, E2EUS: 1000, ServerOutputTokens: 10, Chunks: 4}, 100, true, "usage wins over coalesced events"},
		{trace.Record{TTFTUS: 100, E2EUS: 1000, Chunks: 4}, 300, true, "no usage: chunks, (1000−100)/3"},
		{trace.Record{TTFTUS: 100, E2EUS: 1000, ServerOutputTokens: 1, Chunks: 1}, 0, false, "one token has no time per output token"},
		{trace.Record{E2EUS: 1000, Chunks: 0}, 0, false, "no token at all"},
	}
	for _, tt := range tests {
		got, ok := TPOT(&tt.r)
		if got != tt.want || ok != tt.ok {
			t.Errorf("TPOT = %v, %v; want %v, %v (%s)", got, ok, tt.want, tt.ok, tt.reason)
		}
	}
}

// TestLatencyPopulations checks which records each distribution counts.
func TestLatencyPopulations(t *testing.T) {
	t.Parallel()
	a := okRec("c", 0, 1000, 10_000)
	b := okRec("c", 0, 3000, 12_000)
	b.SentUS, b.QueueUS = 5000, 4000 // 5 ms late, 4 ms of it queued
	b.TTFOUS = 0                     // never answered
	b.ITLUS = []int64{7, 8, 9}
	one := okRec("c", 0, 2000, 2000)
	one.ServerOutputTokens, one.Chunks, one.ITLUS = 1, 1, nil
	fail := failRec("c", 0, trace.ErrTimeout, 0)
	drop := trace.Record{Client: "c", IntendedUS: 0, ErrorClass: trace.ErrDropped}
	s := Summarize(records(nil, a, b, one, fail, drop), Options{})
	l := s.All.Latency
	tests := []struct {
		m            *Metric
		n, undefined int
		min, max     float64
		reason       string
	}{
		{&l.TTFT, 3, 0, 1000, 3000, "successes only"},
		{&l.TTFO, 2, 1, 1000, 2000, "b never produced an answer token"},
		{&l.ITL, 5, 1, 7, 1000, "all gaps pooled: 2 of a, 3 of b; one-token request has none"},
		{&l.TPOT, 2, 1, 1000, 1000, "(10000−1000)/9 and (12000−3000)/9; one token is undefined"},
		{&l.E2E, 3, 0, 2000, 12_000, "successes only"},
		{&l.TTFTLag, 3, 0, 2000, 8000, "TTFT + (sent − intended): 1000+1000, 3000+5000"},
		{&l.TTFOLag, 2, 1, 2000, 3000, "TTFO + lag: 1000+1000, 2000+1000; b never answered"},
		{&l.Lag, 4, 0, 1000, 5000, "every sent request, the timeout included, not the dropped"},
		{&l.Queue, 4, 0, 0, 4000, "every sent request"},
	}
	for _, tt := range tests {
		if tt.m.N != tt.n || tt.m.Undefined != tt.undefined || tt.m.Min != tt.min || tt.m.Max != tt.max {
			t.Errorf("%s: n %d undefined %d min %v max %v; want %d %d %v %v (%s)",
				tt.m.Name, tt.m.N, tt.m.Undefined, tt.m.Min, tt.m.Max, tt.n, tt.undefined, tt.min, tt.max, tt.reason)
		}
	}
	if l.ITL.Percentiles[0].CI != nil || l.ITL.Note == "" {
		t.Error("pooled ITL must carry no interval and a note saying why")
	}
}
