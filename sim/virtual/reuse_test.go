package virtual

import (
	"testing"
	"time"

	"surge/sim"
	"surge/trace"
)

// TestImpliedReuse checks ImpliedReuse against what the engine, with a
// cache too large to evict, actually finds: the same tokens, for pinned
// chats (each turn re-sends the last prompt) and for shared and distinct
// system prompts.
func TestImpliedReuse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		h      trace.Header
		ss     []*trace.Session
		min    float64 // the ratio is at least this, so the test is not vacuous
	}{
		{"pinned four-turn chats", pinned(), chats(12, true), 0.5},
		{"one shared system prompt", header(0), systemSessions(8, "c", 2000, func(int) int { return 1 }), 0.8},
		{"distinct system prompts", header(0), systemSessions(8, "c", 2000, func(i int) int { return i + 1 }), 0},
		{"rerank requests of one query", header(0), scoredSessions(6), 0},
	}
	cfg := Config{Cost: stepCost(time.Millisecond), Engine: sim.EngineConfig{EnablePrefixCaching: true}}
	for _, tt := range tests {
		recs, _ := mustRun(t, cfg, tt.h, tt.ss)
		var cached, prompt int64
		for _, r := range recs {
			cached, prompt = cached+int64(r.CachedTokens), prompt+int64(r.ServerInputTokens)
		}
		got, _ := ImpliedReuse(tt.ss, 16)
		if got.Cached != cached || got.Prompt != prompt || got.Ratio() < tt.min {
			t.Errorf("%s: implied %d of %d tokens (%.3f), the engine found %d of %d", tt.reason, got.Cached, got.Prompt, got.Ratio(), cached, prompt)
		}
	}
}

// scoredSessions are n rerank requests of the same query and documents,
// which the engine never prefix-caches.
func scoredSessions(n int) []*trace.Session {
	var ss []*trace.Session
	for i := range n {
		s := session(i, time.Duration(i)*time.Second, 640, 0)
		s.API = "rerank"
		s.Turns[0].Prompt, s.Turns[0].Documents = "the same query", []string{"a", "b"}
		ss = append(ss, s)
	}
	return ss
}
