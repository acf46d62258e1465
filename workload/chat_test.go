package workload

import (
	"math"
	"testing"
)

const chatSpec = `version: 1
seed: 3
requests: 4000
clients:
  - name: talk
    model: m
    rate: 10/s
    input: {dist: lognormal, median: 60, sigma: 0.6}
    output: {dist: lognormal, median: 90, sigma: 0.5}
    session:
      kind: chat
      turns: {dist: uniform, min: 1, max: 7}
      think: {dist: exponential, mean: 3s}
      history: pinned
    prefix: {pool: 5, length: 300, zipf: 1}
`

// TestChatShapes checks conversation shapes against the spec over 4,000
// sessions: turns uniform on 1..7 (mean 4), think times exponential with
// mean 3 s (and CV 1), system prompts drawn with Zipf(1) popularity over 5,
// and each turn's input the conversation so far.
func TestChatShapes(t *testing.T) {
	t.Parallel()
	_, ss := generate(t, parse(t, chatSpec), Options{NoText: true})
	var turns, thinks, thinkSq float64
	var nThink int
	counts := make([]int, 6)
	for _, s := range ss {
		turns += float64(len(s.Turns))
		counts[s.Turns[0].SystemID]++
		context := s.Turns[0].SystemTokens
		for k, tu := range s.Turns {
			if k == 0 {
				if tu.Parent != nil || tu.WaitUS != 0 || tu.SystemTokens != 300 {
					t.Fatalf("%s/%d turn 0: %+v", s.Client, s.Index, tu)
				}
			} else {
				if tu.Parent == nil || *tu.Parent != k-1 || tu.SystemID != 0 {
					t.Fatalf("%s/%d turn %d: %+v", s.Client, s.Index, k, tu)
				}
				w := float64(tu.WaitUS) / 1e6
				thinks += w
				thinkSq += w * w
				nThink++
			}
			user := tu.InputTokens - context
			if user < 1 {
				t.Fatalf("%s/%d turn %d: input %d does not grow from the context %d", s.Client, s.Index, k, tu.InputTokens, context)
			}
			context = tu.InputTokens + tu.OutputTokens
		}
	}
	n := float64(len(ss))
	if m := turns / n; math.Abs(m-4) > 0.1 {
		t.Errorf("mean turns %.3f, want 4 ± 0.1", m)
	}
	mean := thinks / float64(nThink)
	cv := math.Sqrt(thinkSq/float64(nThink)-mean*mean) / mean
	if math.Abs(mean-3) > 0.1 || math.Abs(cv-1) > 0.05 {
		t.Errorf("think mean %.3f s, CV %.3f; want 3 ± 0.1 s, 1 ± 0.05", mean, cv)
	}
	// Zipf(1) over 5: P(i) = (1/i) / H_5, H_5 = 137/60.
	for i := 1; i <= 5; i++ {
		want := (1 / float64(i)) / (137.0 / 60)
		if got := float64(counts[i]) / n; math.Abs(got-want) > 0.02 {
			t.Errorf("system prompt %d drawn %.3f of sessions, want %.3f ± 0.02", i, got, want)
		}
	}
	if counts[0] != 0 {
		t.Errorf("%d sessions without a system prompt", counts[0])
	}
}

// TestChatText checks that the texts are exact: the system prompt, each
// user message and each pinned reply have the lengths the turns say, and
// sessions drawing the same system prompt carry the same text.
func TestChatText(t *testing.T) {
	t.Parallel()
	tok, _ := o200k(t)
	spec := parse(t, chatSpec)
	spec.Requests = 40
	_, ss := generate(t, spec, Options{})
	systems := map[int]string{}
	for _, s := range ss {
		t0 := s.Turns[0]
		if prev, ok := systems[t0.SystemID]; ok && prev != t0.System {
			t.Fatalf("system prompt %d differs between sessions", t0.SystemID)
		}
		systems[t0.SystemID] = t0.System
		if n := len(tok.Encode(t0.System)); n != t0.SystemTokens {
			t.Fatalf("%s/%d: system prompt is %d tokens, want %d", s.Client, s.Index, n, t0.SystemTokens)
		}
		context := t0.SystemTokens
		for k, tu := range s.Turns {
			if n := len(tok.Encode(tu.Prompt)); n != tu.InputTokens-context {
				t.Fatalf("%s/%d turn %d: user message is %d tokens, want %d", s.Client, s.Index, k, n, tu.InputTokens-context)
			}
			if n := len(tok.Encode(tu.Reply)); n != tu.OutputTokens {
				t.Fatalf("%s/%d turn %d: reply is %d tokens, want %d", s.Client, s.Index, k, n, tu.OutputTokens)
			}
			context = tu.InputTokens + tu.OutputTokens
		}
	}
	if len(systems) < 2 {
		t.Errorf("40 sessions drew %d distinct system prompts", len(systems))
	}
}

// TestChatLiveKeepsUserText checks that live and pinned history send the
// same user messages, the live trace leaving the replies out.
func TestChatLiveKeepsUserText(t *testing.T) {
	t.Parallel()
	pinned := parse(t, chatSpec)
	pinned.Requests = 20
	live := parse(t, chatSpec)
	live.Requests = 20
	live.Clients[0].Session.History = "live"
	_, a := generate(t, pinned, Options{})
	_, b := generate(t, live, Options{})
	for i := range a {
		for k := range a[i].Turns {
			pa, pb := a[i].Turns[k], b[i].Turns[k]
			if pa.Prompt != pb.Prompt || pa.InputTokens != pb.InputTokens || pb.Reply != "" || pa.Reply == "" {
				t.Fatalf("session %d turn %d differs between pinned and live", i, k)
			}
		}
	}
}

// TestSingleWithSystemPrompt checks a single-request client with a shared
// system prompt: the input counts both messages, and one pool entry is
// shared by every session.
func TestSingleWithSystemPrompt(t *testing.T) {
	t.Parallel()
	tok, _ := o200k(t)
	_, ss := generate(t, parse(t, `version: 1
requests: 30
clients:
  - {name: a, model: m, rate: 5/s, input: 40, output: 8, prefix: {length: 2k}}
`), Options{})
	for _, s := range ss {
		tu := s.Turns[0]
		if tu.SystemID != 1 || tu.SystemTokens != 2000 || tu.InputTokens != 2040 || tu.System != ss[0].Turns[0].System {
			t.Fatalf("session %d: system %d (%d tokens), input %d", s.Index, tu.SystemID, tu.SystemTokens, tu.InputTokens)
		}
		if n := len(tok.Encode(tu.Prompt)); n != 40 {
			t.Fatalf("session %d: user message %d tokens, want 40", s.Index, n)
		}
	}
}

// TestChatNoTextTwin checks that a trace and its --no-text twin hold the
// same lengths and think times, turn for turn.
func TestChatNoTextTwin(t *testing.T) {
	t.Parallel()
	s := parse(t, chatSpec)
	s.Requests = 50
	_, a := generate(t, s, Options{})
	_, b := generate(t, s, Options{NoText: true})
	for i := range a {
		if len(a[i].Turns) != len(b[i].Turns) {
			t.Fatalf("session %d: %d turns with text, %d without", i, len(a[i].Turns), len(b[i].Turns))
		}
		for k := range a[i].Turns {
			x, y := a[i].Turns[k], b[i].Turns[k]
			if x.InputTokens != y.InputTokens || x.OutputTokens != y.OutputTokens || x.WaitUS != y.WaitUS || x.SystemID != y.SystemID {
				t.Fatalf("session %d turn %d differs without text: %+v vs %+v", i, k, x, y)
			}
		}
	}
}
