package driver

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"

	"surge/trace"
)

// saltCut makes room for a salt of one token by dropping the "~" a first
// message begins with, as content.MakeRoom drops a real salt's tokens.
func saltCut(first string) (string, bool) { return strings.CutPrefix(first, "~") }

// TestSaltKeepsLengths checks that a salted prompt is recorded as long as
// the trace says, the salt in place of its first tokens, for chat and
// completions; and that a prompt written at send time that the cut fails
// on is sent whole behind the salt and recorded that much longer.
func TestSaltKeepsLengths(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, api, prompt, sent string
		input                   int
		expand                  bool
	}{
		{"chat", "chat", "~hello", "[salt] hello", 5, false},
		{"completions", "completions", "~hello", "[salt] hello", 5, false},
		{"written at send time", "chat", "~hello", "[salt] hello", 5, true},
		{"written at send time, no cut", "completions", "hello", "[salt] hello", 5 + 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h, ss := openTrace([]int64{0}, []int{1})
				ss[0].API = c.api
				cfg := Config{Client: &fake{}, Salt: "[salt] ", SaltTokens: 1, Cut: saltCut}
				if c.expand {
					h.Text = false
					cfg.Expand = func(*trace.Session, int) string { return c.prompt }
					ss[0].Turns[0].Prompt = ""
				} else {
					ss[0].Turns[0].Prompt = c.prompt
				}
				f := cfg.Client.(*fake)
				_, out := runBubble(t, t.Context(), mustNew(t, cfg, h, ss), f)
				got := f.reqs[0].Prompt
				if c.api == "chat" {
					got = f.reqs[0].Messages[0].Content
				}
				if got != c.sent {
					t.Errorf("sent %q, want %q", got, c.sent)
				}
				if r := out.recs[0]; r.InputTokens != c.input || r.ClientInputTokens != c.input {
					t.Errorf("recorded input_tokens %d, client_input_tokens %d; want %d (the trace's 5)", r.InputTokens, r.ClientInputTokens, c.input)
				}
			})
		})
	}
}

// TestSaltRefusesShortPrompts checks that New refuses, before any request,
// a trace whose conversations start with a message shorter than the salt
// or one the cut fails on, naming the client, an example session, the
// lengths and the fix; and that a long enough trace passes.
func TestSaltRefusesShortPrompts(t *testing.T) {
	t.Parallel()
	h, ss := openTrace([]int64{0, 1, 2}, []int{1, 1, 1})
	for i, s := range ss {
		s.Turns[0].Prompt = "~hello"
		s.Turns[0].InputTokens = 9 - i
	}
	cfg := Config{Client: &fake{}, Salt: "[salt 123]\n", SaltTokens: 8, Cut: saltCut}
	_, err := New(cfg, h, ss)
	var se *SaltError
	if !errors.As(err, &se) {
		t.Fatalf("New: %v; want a *SaltError", err)
	}
	for _, want := range []string{`the run's salt "[salt 123]\n" takes the place of the first 8 tokens of each conversation`, `client "o": 1 conversation starts with a message shorter than that (the shortest: session 2, 7 tokens)`, "--salt none", "a longer input"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("New: %v\nwant it to say %q", err, want)
		}
	}
	ss[2].Turns[0].InputTokens = 8
	if _, err := New(cfg, h, ss); err != nil {
		t.Errorf("New refused prompts as long as the salt: %v", err)
	}
	ss[1].Turns[0].Prompt = "hello"
	if _, err := New(cfg, h, ss); !errors.As(err, &se) || !strings.Contains(err.Error(), `client "o": 1 conversation (session 1 the first) starts with a message that no cut makes room in`) {
		t.Errorf("New with a prompt the cut fails on: %v", err)
	}
	if _, err := New(Config{Client: &fake{}, Salt: "[salt 123]\n"}, h, ss); err == nil {
		t.Error("New took a salt without its length and cut")
	}
}
