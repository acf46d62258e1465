package virtual

import (
	"testing"
	"time"

	"surge/sim"
	"surge/trace"
)

// TestInputTokensLive checks that a turn's input_tokens is the trace's
// count corrected for a live reply the context cut short, as the driver
// records it (docs/records.md), and stays the trace's under pinned
// history: turn 0 of 40 tokens asks for 100 with a context of 100, gets
// 60, and turn 1 carries those 60 instead of the planned 100.
func TestInputTokensLive(t *testing.T) {
	s := &trace.Session{Client: "c", Model: "m", API: "chat", Turns: []trace.Turn{
		{InputTokens: 40, OutputTokens: 100},
		{Parent: new(0), InputTokens: 150, OutputTokens: 5},
	}}
	cfg := Config{Cost: stepCost(time.Millisecond), Engine: sim.EngineConfig{MaxModelLen: 100}}
	for _, tt := range []struct {
		history string
		want    int // turn 1's input_tokens and client_input_tokens
	}{
		{"", 150 - 100 + 60},
		{trace.HistoryPinned, 150},
	} {
		h := header(0)
		h.Clients[0].History = tt.history
		recs, _ := mustRun(t, cfg, h, []*trace.Session{s})
		got := byTurn(recs, 0)
		if r := got[0]; r == nil || r.ServerOutputTokens != 60 {
			t.Fatalf("history %q: turn 0 is %+v, want a reply of 60 tokens cut by the context", tt.history, r)
		}
		if r := got[1]; r == nil || r.InputTokens != tt.want || r.ClientInputTokens != tt.want {
			t.Errorf("history %q: turn 1 is %+v, want input_tokens and client_input_tokens %d", tt.history, r, tt.want)
		}
	}
}
