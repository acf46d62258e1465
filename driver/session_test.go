package driver

import (
	"reflect"

	"context"
	"surge/openai"
	"testing"
	"testing/synctest"
	"time"

	"surge/client"
	"surge/trace"
)

func TestMultiTurn(t *testing.T) {
	t.Parallel()
	turns := func(tookMS ...int) []trace.Turn {
		var out []trace.Turn
		for k, ms := range tookMS {
			out = append(out, trace.Turn{InputTokens: 1, MaxTokens: ms, Prompt: "p"})
			if k > 0 {
				out[k].Parent = ptr(k - 1)
			}
		}
		return out
	}
	tests := []struct {
		name   string
		reason string
		conc   int
		cap    int
		want   map[string]int64 // record → intended µs
	}{
		{"open loop", "turn k+1 is intended the instant turn k finished", 0, 0,
			map[string]int64{"c/0/0": 0, "c/0/1": 10_000, "c/0/2": 30_000, "c/1/0": 5000, "c/1/1": 105_000}},
		// Cap 1: 1/0 queues at 5 ms and runs 10–110 ms; 0/1, due at 10 ms,
		// queues behind it and runs 110–130 ms; 1/1, due at 110 ms, runs
		// 130–131 ms; 0/2 is due at 130 ms.
		{"open loop, capped", "later turns ask the cap at their own instant and queue behind earlier requests", 0, 1,
			map[string]int64{"c/0/0": 0, "c/0/1": 10_000, "c/0/2": 130_000, "c/1/0": 5000, "c/1/1": 110_000}},
		{"closed loop", "the worker takes its next session after the last turn", 1, 0,
			map[string]int64{"c/0/0": 0, "c/0/1": 10_000, "c/0/2": 30_000, "c/1/0": 60_000, "c/1/1": 160_000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				h := trace.Header{Text: true, Clients: []trace.ClientInfo{{Name: "c", Model: "m", Concurrency: tt.conc}}}
				ss := []*trace.Session{
					{Client: "c", Index: 0, API: "chat", Turns: turns(10, 20, 30)},
					{Client: "c", Index: 1, AtUS: 5000, API: "chat", Turns: turns(100, 1)},
				}
				if tt.conc > 0 {
					ss[1].AtUS = 0
				}
				end, out := runBubble(t, t.Context(), mustNew(t, Config{Client: &fake{}, MaxConcurrency: tt.cap}, h, ss), nil)
				recs := out.byKey()
				for k, want := range tt.want {
					if got := recs[k]; got.IntendedUS != want {
						t.Errorf("%s: %s intended %dus, want %dus", tt.reason, k, got.IntendedUS, want)
					}
				}
				if end.Scheduled != 5 || end.Sent != 5 || len(out.recs) != 5 {
					t.Errorf("%s: end %+v, %d records; every turn is a request", tt.reason, end, len(out.recs))
				}
			})
		})
	}
}

func TestFailedTurnEndsSession(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		h, ss := openTrace([]int64{0}, []int{1})
		ss[0].Turns = append(ss[0].Turns, ss[0].Turns[0])
		ss[0].Turns[1].Parent = ptr(0)
		failing := doerFunc(func(ctx context.Context, req *client.Request) *client.Result {
			return &client.Result{Sent: time.Now(), Status: 500, ErrClass: trace.ErrHTTP, Err: "500"}
		})
		end, out := runBubble(t, t.Context(), mustNew(t, Config{Client: failing}, h, ss), nil)
		if len(out.recs) != 1 || end.Sent != 1 || end.Scheduled != 2 {
			t.Errorf("after a failed turn the rest of the session is not sent: %d records, end %+v", len(out.recs), end)
		}
	})
}

func TestRequestOverrides(t *testing.T) {
	t.Parallel()
	temp := 0.3
	tests := []struct {
		name       string
		reason     string
		cfg        Config
		model, api string
		tokens     int
	}{
		{"trace", "without overrides the session's api and model are sent and its count trusted",
			Config{}, "sm", "chat", 5},
		{"overrides", "config api and model replace the trace's; Count gives the client token count",
			Config{API: "completions", Model: "om", Stream: true, Count: func(s string) int { return 2 * len(s) }}, "om", "completions", 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				h, ss := openTrace([]int64{0}, []int{1})
				ss[0].Model = "sm"
				turn := &ss[0].Turns[0]
				turn.MinTokens, turn.IgnoreEOS, turn.Temperature = 1, true, &temp
				f := &fake{}
				tt.cfg.Client = f
				_, out := runBubble(t, t.Context(), mustNew(t, tt.cfg, h, ss), f)
				want := client.Request{API: tt.api, Model: tt.model, MaxTokens: 1, MinTokens: 1,
					IgnoreEOS: true, Temperature: &temp, Stream: tt.cfg.Stream}
				if tt.api == "chat" {
					want.Messages = []openai.Message{{Role: "user", Content: "hello"}}
				} else {
					want.Prompt = "hello"
				}
				if !reflect.DeepEqual(f.reqs[0], want) {
					t.Errorf("%s: sent %+v, want %+v", tt.reason, f.reqs[0], want)
				}
				r := out.recs[0]
				if r.Model != tt.model || r.ClientInputTokens != tt.tokens || r.ServerInputTokens != 5 || r.InputTokens != 5 {
					t.Errorf("%s: record model %q, tokens asked %d client %d server %d", tt.reason, r.Model, r.InputTokens, r.ClientInputTokens, r.ServerInputTokens)
				}
			})
		})
	}
}

func TestHeaderModelFallback(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		h, ss := openTrace([]int64{0}, []int{1}) // the session names no model; the header's client says "m"
		f := &fake{}
		runBubble(t, t.Context(), mustNew(t, Config{Client: f}, h, ss), f)
		if f.reqs[0].Model != "m" {
			t.Errorf("a session without a model uses its client's: sent %q", f.reqs[0].Model)
		}
	})
}

func TestCancelledClassification(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		reason string
		class  string // what the client says after the driver cancels
		want   string
	}{
		{"connection", "a connection broken by the driver's own cancel is a cancellation", trace.ErrConnection, trace.ErrCancelled},
		{"stream", "so is a stream cut short by it", trace.ErrStream, trace.ErrCancelled},
		{"success", "a request that completed despite the cancel stays a success", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				h, ss := openTrace([]int64{0}, []int{1})
				doer := doerFunc(func(ctx context.Context, req *client.Request) *client.Result {
					sent := time.Now()
					<-ctx.Done()
					return &client.Result{Sent: sent, Last: time.Now(), ErrClass: tt.class}
				})
				_, out := runBubble(t, t.Context(), mustNew(t, Config{Client: doer, Drain: time.Second}, h, ss), nil)
				if got := out.recs[0].ErrorClass; got != tt.want {
					t.Errorf("%s: class %q, want %q", tt.reason, got, tt.want)
				}
			})
		})
	}
}

func TestNilResult(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		h, ss := openTrace([]int64{0}, []int{1})
		doer := doerFunc(func(context.Context, *client.Request) *client.Result { return nil })
		_, out := runBubble(t, t.Context(), mustNew(t, Config{Client: doer}, h, ss), nil)
		if out.recs[0].ErrorClass != trace.ErrConnection {
			t.Errorf("a client breaking its contract with a nil result still gives a failed record: %+v", out.recs[0])
		}
	})
}
