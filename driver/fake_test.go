package driver

import (
	"context"
	"fmt"
	"sync"
	"time"

	"surge/client"
	"surge/trace"
)

// fake is a Doer whose request takes MaxTokens milliseconds, streaming its
// first token after a tenth of that and its tokens evenly. It tracks the
// requests in flight and answers a cancelled context the way the real
// client does.
type fake struct {
	mu          sync.Mutex // guards everything below
	inFlight    int
	maxInFlight int
	reqs        []client.Request
	atSend      []int // requests in flight (this one included) at each send
}

// Do implements Doer.
func (f *fake) Do(ctx context.Context, req *client.Request) *client.Result {
	sent := time.Now()
	f.mu.Lock()
	f.inFlight++
	f.maxInFlight = max(f.maxInFlight, f.inFlight)
	f.reqs = append(f.reqs, *req)
	f.atSend = append(f.atSend, f.inFlight)
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.inFlight--
		f.mu.Unlock()
	}()
	took := time.Duration(req.MaxTokens) * time.Millisecond
	t := time.NewTimer(took)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		return &client.Result{Sent: sent, Last: time.Now(), ErrClass: trace.ErrCancelled, Err: ctx.Err().Error()}
	}
	first := sent.Add(took / 10)
	res := &client.Result{
		Sent: sent, FirstByte: first, FirstToken: first, Last: sent.Add(took),
		TokenTimes: []time.Time{first, sent.Add(took)}, Chunks: 2,
		Status: 200, PromptTokens: promptLen(req), CompletionTokens: 2, FinishReason: "length",
	}
	if len(req.Tools) > 0 { // the last token calls a tool
		res.FirstToolCall, res.ToolCalls, res.ToolChunks = res.Last, 1, 1
	}
	return res
}

// sink collects records.
type sink struct {
	mu   sync.Mutex // guards recs
	recs []trace.Record
	fail int // fail every write after this many (0: never)
}

// Write implements Sink.
func (s *sink) Write(r *trace.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail > 0 && len(s.recs) >= s.fail {
		return fmt.Errorf("disk full")
	}
	s.recs = append(s.recs, *r)
	return nil
}

// byKey returns the records indexed by "client/session/turn".
func (s *sink) byKey() map[string]trace.Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := make(map[string]trace.Record, len(s.recs))
	for _, r := range s.recs {
		m[fmt.Sprintf("%s/%d/%d", r.Client, r.Session, r.Turn)] = r
	}
	return m
}

// ms is a number of milliseconds in µs, for readable expectations.
func ms(n int64) int64 { return n * 1000 }

// openTrace is a trace of one open-loop client "o" whose session i starts
// at atMS[i] ms and takes tookMS[i] ms with the fake.
func openTrace(atMS []int64, tookMS []int) (trace.Header, []*trace.Session) {
	h := trace.Header{Text: true, Clients: []trace.ClientInfo{{Name: "o", Model: "m"}}}
	ss := make([]*trace.Session, len(atMS))
	for i := range atMS {
		ss[i] = session("o", i, atMS[i]*1000, tookMS[i])
	}
	return h, ss
}

// session is a one-turn chat session that takes tookMS ms with the fake.
func session(client string, index int, atUS int64, tookMS int) *trace.Session {
	return &trace.Session{
		Client: client, Index: index, AtUS: atUS, API: "chat",
		Turns: []trace.Turn{{InputTokens: 5, OutputTokens: 7, MaxTokens: tookMS, Prompt: "hello"}},
	}
}

// repeat returns n copies of v.
func repeat[T any](n int, v T) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// mustNew is New for tests.
func mustNew(t interface{ Fatalf(string, ...any) }, cfg Config, h trace.Header, ss []*trace.Session) *Driver {
	d, err := New(cfg, h, ss)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return d
}

// doerFunc adapts a function to Doer.
type doerFunc func(ctx context.Context, req *client.Request) *client.Result

// Do implements Doer.
func (f doerFunc) Do(ctx context.Context, req *client.Request) *client.Result { return f(ctx, req) }

// fatalf is the part of testing.TB that helpers need.
type fatalf interface {
	Helper()
	Fatalf(format string, args ...any)
	Errorf(format string, args ...any)
}

// runBubble runs d inside a synctest bubble from the bubble's now, then
// lets an hour of fake time pass to show that nothing of the run is left:
// no request in flight, no record written late.
func runBubble(t fatalf, ctx context.Context, d *Driver, f *fake) (trace.RunEnd, *sink) {
	t.Helper()
	out := &sink{}
	end, err := d.Run(ctx, time.Now(), out)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	n := len(out.recs)
	time.Sleep(time.Hour)
	if len(out.recs) != n {
		t.Errorf("%d records written after Run returned", len(out.recs)-n)
	}
	if f != nil && f.inFlight != 0 {
		t.Errorf("%d requests still in flight after Run returned", f.inFlight)
	}
	return end, out
}

// promptLen is the fake's prompt token count: one per byte of the prompt or
// of every message.
func promptLen(req *client.Request) int {
	n := len(req.Prompt)
	for _, m := range req.Messages {
		n += len(m.Content)
	}
	return n
}
