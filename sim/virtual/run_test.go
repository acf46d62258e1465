package virtual

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"surge/sim"
	"surge/trace"
)

// TestTinyTraceExactRecords follows three requests through one replica at
// 10 ms per step: s0 prefills in [0,10) and decodes at 20 and 30 ms; s1
// arrives mid-step at 15 ms and joins the step at 20 ms; s2's prompt is
// over the context and is refused at once with vLLM's 400.
func TestTinyTraceExactRecords(t *testing.T) {
	t.Parallel()
	h := header(0)
	h.WarmupUS = 12_000
	ss := []*trace.Session{
		session(0, 0, 100, 3),
		session(1, 15*time.Millisecond, 40, 2),
		session(2, 20*time.Millisecond, 200_000, 5),
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	recs, end := mustRun(t, Config{Cost: stepCost(10 * time.Millisecond), Start: start}, h, ss)
	ok := func(idx int, at, ttft, e2e int64, itl []int64, in, out int, warm bool) trace.Record {
		return trace.Record{
			Client: "c", Session: idx, Model: "m", Warmup: warm, IntendedUS: at, SentUS: at,
			FirstByteUS: ttft, TTFTUS: ttft, TTFOUS: ttft, E2EUS: e2e, ITLUS: itl,
			InputTokens: in, ClientInputTokens: in, ServerInputTokens: in,
			OutputTokens: out, ServerOutputTokens: out, Chunks: out, Status: 200, FinishReason: "stop",
		}
	}
	want := []trace.Record{
		{Client: "c", Session: 2, Model: "m", IntendedUS: 20_000, SentUS: 20_000,
			InputTokens: 200_000, ClientInputTokens: 200_000, OutputTokens: 5, Status: 400, ErrorClass: trace.ErrHTTP,
			Error: "HTTP 400: This model's maximum context length is 131072 tokens. However, you requested 200001 tokens " +
				"(200000 in the messages, 1 in the completion). Please reduce the length of the messages or completion."},
		ok(0, 0, 10_000, 30_000, []int64{10_000, 10_000}, 100, 3, true),
		ok(1, 15_000, 15_000, 25_000, []int64{10_000}, 40, 2, false),
	}
	if !reflect.DeepEqual(recs, want) {
		t.Errorf("records:\n got %+v\nwant %+v", recs, want)
	}
	wantEnd := trace.RunEnd{End: start.Add(40 * time.Millisecond), DurationUS: 40_000, Scheduled: 3, Sent: 3}
	if end != wantEnd {
		t.Errorf("end %+v, want %+v", end, wantEnd)
	}
}

func TestOutputLen(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		turn   trace.Turn
		room   int
		n      int
		finish string
	}{
		{"the sampled length is the natural end", trace.Turn{OutputTokens: 50}, 1000, 50, "stop"},
		{"ignore_eos runs to the requested length", trace.Turn{OutputTokens: 50, MaxTokens: 50, IgnoreEOS: true}, 1000, 50, "length"},
		{"max_tokens caps a longer sample", trace.Turn{OutputTokens: 80, MaxTokens: 50}, 1000, 50, "length"},
		{"the context caps it too", trace.Turn{OutputTokens: 80}, 30, 30, "length"},
		{"a zero sample still yields one token", trace.Turn{}, 1000, 1, "stop"},
	}
	for _, tt := range tests {
		n, finish := outputLen(&tt.turn, tt.room)
		if n != tt.n || finish != tt.finish {
			t.Errorf("%s: got %d %q, want %d %q", tt.reason, n, finish, tt.n, tt.finish)
		}
	}
}

// TestMultiTurnFollows checks that a turn continuing another is sent when
// that one finishes.
func TestMultiTurnFollows(t *testing.T) {
	t.Parallel()
	s := session(0, 5*time.Millisecond, 64, 4)
	s.Turns = append(s.Turns, trace.Turn{Parent: new(0), InputTokens: 128, OutputTokens: 2, Prompt: strings.Repeat("abcd", 128)})
	recs, end := mustRun(t, Config{Cost: stepCost(time.Millisecond)}, header(0), []*trace.Session{s})
	if len(recs) != 2 || end.Scheduled != 2 || end.Sent != 2 {
		t.Fatalf("%d records, end %+v; want 2 turns sent", len(recs), end)
	}
	if got, want := recs[1].IntendedUS, recs[0].SentUS+recs[0].E2EUS; recs[1].Turn != 1 || got != want {
		t.Errorf("turn %d intended at %d µs, want %d (end of turn 0)", recs[1].Turn, got, want)
	}
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		cfg    Config
		sink   Sink
		want   string
	}{
		{"a cost model is required", Config{}, &collect{}, "no cost model"},
		{"replicas cannot be negative", Config{Cost: stepCost(1), Replicas: -1}, &collect{}, "replicas is -1"},
		{"records need somewhere to go", Config{Cost: stepCost(1)}, nil, "nil sink"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), tt.cfg, header(0), nil, tt.sink)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.reason, err, tt.want)
		}
	}
}

// TestRunStopsOnCancel: a cancelled context ends the simulation at once,
// keeping what was recorded and marking the end interrupted.
func TestRunStopsOnCancel(t *testing.T) {
	t.Parallel()
	var ss []*trace.Session
	for i := range 10000 {
		ss = append(ss, session(i, time.Duration(i)*time.Millisecond, 16, 2))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	end, err := Run(ctx, Config{Cost: stepCost(time.Millisecond)}, header(0), ss, failSink{})
	if err != nil || !end.Interrupted || end.Sent != 0 {
		t.Errorf("end %+v, err %v; want an interrupted end before any send", end, err)
	}
}

// TestObserve checks the engine's gauges reach Config.Observe once per
// interval of virtual time, in order, and show the load: requests running
// and KV blocks in use while the workload runs.
func TestObserve(t *testing.T) {
	t.Parallel()
	var ss []*trace.Session
	for i := range 200 {
		ss = append(ss, session(i, time.Duration(i)*50*time.Millisecond, 500, 20))
	}
	var ats []time.Duration
	var busy bool
	cfg := Config{Cost: stepCost(10 * time.Millisecond), ObserveEvery: 500 * time.Millisecond,
		Observe: func(at time.Duration, st sim.Stats) {
			ats = append(ats, at)
			busy = busy || (st.Running > 0 && st.KVUsage > 0)
		}}
	_, end := mustRun(t, cfg, header(0), ss)
	if !busy {
		t.Error("no sample saw a running request holding KV blocks")
	}
	span := time.Duration(end.DurationUS) * time.Microsecond
	if want := int(span / (500 * time.Millisecond)); len(ats) < want-1 || len(ats) > want+1 {
		t.Errorf("%d samples over %v, want about %d", len(ats), span, want)
	}
	for i := 1; i < len(ats); i++ {
		if ats[i]/(500*time.Millisecond) <= ats[i-1]/(500*time.Millisecond) {
			t.Fatalf("samples at %v and %v in the same interval", ats[i-1], ats[i])
		}
	}
}
