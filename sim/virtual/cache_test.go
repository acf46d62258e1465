package virtual

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"surge/sim"
	"surge/trace"
)

// chats returns n four-turn conversations of client "c", 30 ms apart (so
// several are in flight at once), each turn continuing the one before
// after 20 ms. Session i's user messages have 100+37i+13k tokens and its
// replies 40+11k (k the turn), so InputTokens is the pinned prompt. With
// text, every message has text of its own, 4 bytes a token; without,
// none has.
func chats(n int, text bool) []*trace.Session {
	var ss []*trace.Session
	for i := range n {
		s := &trace.Session{Client: "c", Index: i, AtUS: int64(i) * 30_000, Model: "m", API: "chat"}
		in := 0
		for k := range 4 {
			user, out := 100+37*i+13*k, 40+11*k
			t := trace.Turn{InputTokens: in + user, OutputTokens: out}
			if k > 0 {
				t.Parent, t.WaitUS = new(k-1), 20_000
			}
			if text {
				t.Prompt = strings.Repeat(fmt.Sprintf("%02d%02d", i, k), user)
				t.Reply = strings.Repeat(fmt.Sprintf("r%02d%d", i, k), out)
			}
			in = t.InputTokens + out
			s.Turns = append(s.Turns, t)
		}
		ss = append(ss, s)
	}
	return ss
}

// pinned returns header(0) with client "c"'s history pinned.
func pinned() trace.Header {
	h := header(0)
	h.Clients[0].History = trace.HistoryPinned
	return h
}

// TestChatHitsThePreviousTurn runs 12 pinned four-turn chats with prefix
// caching and a cache too large to evict. Turn k's prompt begins with
// turn k−1's, whose full blocks the engine cached, so turn k finds
//
//	cached_k = ⌊P_{k−1}/16⌋·16   (P: prompt tokens; 0 for turn 0)
//
// and no more: the block holding the end of P_{k−1} was never full in
// turn k−1's prompt. Over the run the hit rate is Σ cached_k / Σ P_k. The
// same trace without text gives the same records.
func TestChatHitsThePreviousTurn(t *testing.T) {
	t.Parallel()
	cfg := Config{Cost: stepCost(time.Millisecond), Engine: sim.EngineConfig{EnablePrefixCaching: true}}
	recs, end := mustRun(t, cfg, pinned(), chats(12, true))
	if len(recs) != 48 || end.Sent != 48 {
		t.Fatalf("%d records, end %+v; want 48", len(recs), end)
	}
	ss := chats(12, false)
	var hits, prompt, wantHits int
	for _, r := range recs {
		s := ss[r.Session]
		want := 0
		if r.Turn > 0 {
			want = s.Turns[r.Turn-1].InputTokens / 16 * 16
		}
		if r.CachedTokens != want || r.ServerInputTokens != r.InputTokens || r.ClientInputTokens != r.InputTokens {
			t.Errorf("session %d turn %d: %d of %d (%d client) prompt tokens cached, want %d of %d",
				r.Session, r.Turn, r.CachedTokens, r.ServerInputTokens, r.ClientInputTokens, want, r.InputTokens)
		}
		hits, prompt, wantHits = hits+r.CachedTokens, prompt+r.ServerInputTokens, wantHits+want
	}
	rate, implied := float64(hits)/float64(prompt), float64(wantHits)/float64(prompt)
	t.Logf("hit rate %.4f, implied reuse %.4f", rate, implied)
	if math.Abs(rate-implied) > 1e-9 || rate < 0.5 {
		t.Errorf("hit rate %.4f, want the implied reuse %.4f", rate, implied)
	}
	if bare, _ := mustRun(t, cfg, pinned(), ss); !reflect.DeepEqual(bare, recs) {
		t.Error("the trace without text gave other records than with text")
	}
}

// TestLiveHistoryCarriesTheEngineReply caps every reply at 30 tokens
// (max_tokens) under live history: turn k's prompt holds the replies the
// engine generated, not the trace's OutputTokens, and the cache finds the
// previous prompt so built.
func TestLiveHistoryCarriesTheEngineReply(t *testing.T) {
	t.Parallel()
	ss := chats(3, true)
	for _, s := range ss {
		for k := range s.Turns {
			s.Turns[k].MaxTokens = 30
		}
	}
	cfg := Config{Cost: stepCost(time.Millisecond), Engine: sim.EngineConfig{EnablePrefixCaching: true}}
	recs, _ := mustRun(t, cfg, header(0), ss)
	for _, s := range ss {
		got := byTurn(recs, s.Index)
		for k := range s.Turns {
			r := got[k]
			// Each earlier turn's reply is 30 tokens, not OutputTokens.
			want, cached := s.Turns[k].InputTokens, 0
			for j := range k {
				want -= s.Turns[j].OutputTokens - 30
			}
			if k > 0 {
				cached = got[k-1].ServerInputTokens / 16 * 16
			}
			if r.ServerInputTokens != want || r.ClientInputTokens != want || r.ServerOutputTokens != 30 || r.CachedTokens != cached {
				t.Errorf("session %d turn %d: prompt %d (client %d), output %d, cached %d; want %d, 30 and %d",
					s.Index, k, r.ServerInputTokens, r.ClientInputTokens, r.ServerOutputTokens, r.CachedTokens, want, cached)
			}
		}
	}
}

// systemSessions returns n single-turn sessions of client, 100 ms apart
// (each done before the next), each with a system prompt of sys tokens
// then a user message of 100; system gives each one's SystemID.
func systemSessions(n int, client string, sys int, system func(i int) int) []*trace.Session {
	var ss []*trace.Session
	for i := range n {
		ss = append(ss, &trace.Session{Client: client, Index: i, AtUS: int64(i) * 100_000, Model: "m", API: "chat",
			Turns: []trace.Turn{{SystemID: system(i), SystemTokens: sys, InputTokens: sys + 100, OutputTokens: 2}}})
	}
	return ss
}

// TestSharedSystemPromptHits sends sessions with a 2,000-token system
// prompt: sharing one (equal SystemID) every session after the first
// finds its 125 whole blocks cached, 2,000 tokens; with one each, or the
// same SystemID in another client's pool, none does.
func TestSharedSystemPromptHits(t *testing.T) {
	t.Parallel()
	h := header(0)
	h.Clients = append(h.Clients, trace.ClientInfo{Name: "d", Model: "m"})
	other := systemSessions(1, "d", 2000, func(int) int { return 1 })
	other[0].AtUS = 50_000
	tests := []struct {
		reason string
		ss     []*trace.Session
		want   func(r *trace.Record) int
	}{
		{"one shared system prompt is cached after its first use",
			systemSessions(8, "c", 2000, func(int) int { return 1 }),
			func(r *trace.Record) int { return min(r.Session, 1) * 2000 }},
		{"distinct system prompts are not",
			systemSessions(8, "c", 2000, func(i int) int { return i + 1 }),
			func(*trace.Record) int { return 0 }},
		{"a system prompt not yet whole blocks shares only its whole blocks",
			systemSessions(8, "c", 2010, func(int) int { return 1 }),
			func(r *trace.Record) int { return min(r.Session, 1) * 2000 }},
		{"pools are per client",
			append(systemSessions(1, "c", 2000, func(int) int { return 1 }), other...),
			func(*trace.Record) int { return 0 }},
	}
	cfg := Config{Cost: stepCost(time.Millisecond), Engine: sim.EngineConfig{EnablePrefixCaching: true}}
	for _, tt := range tests {
		recs, _ := mustRun(t, cfg, h, tt.ss)
		if len(recs) != len(tt.ss) {
			t.Fatalf("%s: %d records for %d sessions", tt.reason, len(recs), len(tt.ss))
		}
		for i := range recs {
			if r := &recs[i]; r.CachedTokens != tt.want(r) {
				t.Errorf("%s: session %s/%d found %d tokens cached, want %d", tt.reason, r.Client, r.Session, r.CachedTokens, tt.want(r))
			}
		}
	}
}

// TestSharedSystemPromptLowersTTFT sends 40 prompts of 4,000 tokens on
// Llama-3.1-8B / H100, 3,840 of them a system prompt: shared by all, the
// median TTFT is a prefill of 160 tokens rather than 4,000, at least 3×
// faster than with a system prompt each.
func TestSharedSystemPromptLowersTTFT(t *testing.T) {
	t.Parallel()
	cfg := llamaH100(t)
	run := func(id func(int) int) int64 {
		ss := systemSessions(40, "c", 3840, id)
		for _, s := range ss {
			s.AtUS *= 2 // 200 ms apart
			s.Turns[0].InputTokens, s.Turns[0].OutputTokens = 4000, 10
		}
		recs, _ := mustRun(t, cfg, header(0), ss)
		return p50TTFT(recs)
	}
	with, without := run(func(int) int { return 1 }), run(func(i int) int { return i + 1 })
	t.Logf("median TTFT %d µs sharing the system prompt, %d µs not", with, without)
	if with*3 > without {
		t.Errorf("median TTFT %d µs sharing a system prompt, %d µs without; want sharing at least 3× faster", with, without)
	}
}
