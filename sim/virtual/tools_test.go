package virtual

import (
	"testing"
	"time"

	"surge/sim"
	"surge/trace"
)

// TestToolSchemaTokens checks that a session's tool definitions are
// prompt tokens, ahead of everything else: three one-turn sessions of the
// same 40 tokens of text, with sets of 64 tokens, send 104 each; the
// second shares the first's set and finds its 6 full blocks of 16 in the
// prefix cache, the third has a set of its own and finds none, not even
// the text after it.
func TestToolSchemaTokens(t *testing.T) {
	cfg := Config{Cost: stepCost(time.Millisecond), Engine: sim.EngineConfig{EnablePrefixCaching: true}}
	shared := &trace.ToolSet{ID: 1, Tokens: 64, Count: 2, Choice: "auto"}
	ss := []*trace.Session{session(0, 0, 40, 2), session(1, 100*time.Millisecond, 40, 2), session(2, 200*time.Millisecond, 40, 2)}
	ss[0].Tools, ss[1].Tools = shared, shared
	ss[2].Tools = &trace.ToolSet{ID: 2, Tokens: 64, Count: 2, Choice: "auto"}
	recs, _ := mustRun(t, cfg, header(0), ss)
	want := map[int]int{0: 0, 1: 96, 2: 0} // cached tokens by session
	for _, r := range recs {
		if r.ClientInputTokens != 104 || r.ServerInputTokens != 104 || r.InputTokens != 40 || r.CachedTokens != want[r.Session] {
			t.Errorf("session %d: input %d, client %d, server %d, cached %d; want 40, 104, 104, %d",
				r.Session, r.InputTokens, r.ClientInputTokens, r.ServerInputTokens, r.CachedTokens, want[r.Session])
		}
	}
}
