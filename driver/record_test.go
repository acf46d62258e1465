package driver

import (
	"reflect"
	"testing"
	"time"

	"surge/client"
	"surge/trace"
)

func TestRecordMapping(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return start.Add(d) }
	temp := 0.5
	s := &trace.Session{Client: "c", Index: 4, AtUS: 1000, Model: "m", API: "chat",
		Turns: []trace.Turn{{InputTokens: 100, OutputTokens: 20, Temperature: &temp, Prompt: "x"}}}
	base := attempt{session: s, model: "m", warmup: true, intended: time.Millisecond, queue: 250 * time.Microsecond,
		called: at(1300 * time.Microsecond), returned: at(9 * time.Millisecond), clientTokens: 101}
	want := func(edit func(*trace.Record)) trace.Record {
		r := trace.Record{Client: "c", Session: 4, Model: "m", Warmup: true, IntendedUS: 1000, QueueUS: 250,
			InputTokens: 100, ClientInputTokens: 101, OutputTokens: 20}
		edit(&r)
		return r
	}
	tests := []struct {
		name   string
		reason string
		res    client.Result
		want   trace.Record
	}{{
		name:   "streamed reasoning answer",
		reason: "every latency counts from Sent; TTFO is set because FirstAnswer is; ITL differences rounded offsets; server timings and cached tokens carried over",
		res: client.Result{
			Sent: at(1500 * time.Microsecond), FirstByte: at(2 * time.Millisecond),
			FirstToken: at(3 * time.Millisecond), FirstAnswer: at(5 * time.Millisecond), Last: at(8 * time.Millisecond),
			TokenTimes: []time.Time{at(3 * time.Millisecond), at(4*time.Millisecond + 400), at(5*time.Millisecond + 600), at(7 * time.Millisecond)},
			Chunks:     4, Status: 200, PromptTokens: 102, CompletionTokens: 19, FinishReason: "stop",
			CachedTokens: 64, ServerQueue: 250*time.Microsecond + 400, ServerTTFT: 1200*time.Microsecond + 500, ServerE2E: 6 * time.Millisecond,
		},
		want: want(func(r *trace.Record) {
			r.SentUS, r.FirstByteUS, r.TTFTUS, r.TTFOUS, r.E2EUS = 1500, 500, 1500, 3500, 6500
			// offsets 1500, 2500.4→2500, 3500.6→3501, 5500: gaps 1000, 1001, 1999 (sum 4000 exact)
			r.ITLUS = []int64{1000, 1001, 1999}
			r.Chunks, r.Status, r.ServerInputTokens, r.ServerOutputTokens, r.FinishReason = 4, 200, 102, 19, "stop"
			// server timings are durations, rounded to µs: 250.4→250, 1200.5→1201
			r.CachedTokens, r.ServerQueueUS, r.ServerTTFTUS, r.ServerE2EUS = 64, 250, 1201, 6000
		}),
	}, {
		name:   "sub-microsecond rounding",
		reason: "times round to the nearest µs, halves away from zero",
		res:    client.Result{Sent: at(1500*time.Microsecond + 500), FirstToken: at(1600*time.Microsecond + 499), Last: at(2 * time.Millisecond), Status: 200},
		want: want(func(r *trace.Record) {
			// sent 1500.5 → 1501; TTFT 99.999 → 100; E2E 499.5 → 500
			r.SentUS, r.TTFTUS, r.E2EUS, r.Status = 1501, 100, 500, 200
		}),
	}, {
		name:   "refused connection",
		reason: "never written: the send instant is when Do was called and E2E runs to when it returned",
		res:    client.Result{ErrClass: trace.ErrConnection, Err: "connection refused"},
		want: want(func(r *trace.Record) {
			r.SentUS, r.E2EUS = 1300, 7700
			r.ErrorClass, r.Error = trace.ErrConnection, "connection refused"
		}),
	}, {
		name:   "http error",
		reason: "status and error carried over; a single token time gives no gap",
		res: client.Result{Sent: at(2 * time.Millisecond), FirstByte: at(3 * time.Millisecond), Last: at(3 * time.Millisecond),
			TokenTimes: []time.Time{at(3 * time.Millisecond)}, Status: 503, ErrClass: trace.ErrHTTP, Err: "503 Service Unavailable"},
		want: want(func(r *trace.Record) {
			r.SentUS, r.FirstByteUS, r.E2EUS = 2000, 1000, 1000
			r.Status, r.ErrorClass, r.Error = 503, trace.ErrHTTP, "503 Service Unavailable"
		}),
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := base
			if got := a.record(start, &tt.res); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s\n got %+v\nwant %+v", tt.reason, got, tt.want)
			}
		})
	}
}

func TestDroppedRecord(t *testing.T) {
	t.Parallel()
	s := session("c", 2, 7000, 1)
	a := attempt{session: s, model: "m", intended: 7 * time.Millisecond, queue: 3 * time.Millisecond}
	got := a.dropped("why")
	want := trace.Record{Client: "c", Session: 2, Model: "m", IntendedUS: 7000, QueueUS: 3000,
		InputTokens: 5, OutputTokens: 7, ErrorClass: trace.ErrDropped, Error: "why"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("a dropped record has no send time and keeps its queue time:\n got %+v\nwant %+v", got, want)
	}
}

func TestUS(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d      time.Duration
		want   int64
		reason string
	}{
		{1499, 1, "below half rounds down"},
		{1500, 2, "half rounds away from zero"},
		{-1500, -2, "negative half rounds away from zero"},
		{3 * time.Second, 3_000_000, "whole values are exact"},
	}
	for _, tt := range tests {
		if got := us(tt.d); got != tt.want {
			t.Errorf("us(%d) = %d, want %d: %s", tt.d, got, tt.want, tt.reason)
		}
	}
}
