package driver

import (
	"strings"
	"testing"
	"time"

	"surge/trace"
)

func TestNewValidates(t *testing.T) {
	t.Parallel()
	good := func() (trace.Header, []*trace.Session) { return openTrace([]int64{0, 1}, []int{1, 1}) }
	tests := []struct {
		name   string
		reason string
		edit   func(*Config, *trace.Header, []*trace.Session) []*trace.Session
		want   []string // substrings of the error; none means valid
	}{
		{"valid", "a complete trace with a client is accepted",
			func(*Config, *trace.Header, []*trace.Session) []*trace.Session { return nil }, nil},
		{"no client", "requests need a client",
			func(c *Config, _ *trace.Header, _ []*trace.Session) []*trace.Session { c.Client = nil; return nil },
			[]string{"no client"}},
		{"no text", "a --no-text trace cannot be sent, said once for the whole trace",
			func(_ *Config, h *trace.Header, _ []*trace.Session) []*trace.Session { h.Text = false; return nil },
			[]string{"no prompt text"}},
		{"every problem", "all problems are reported together",
			func(c *Config, _ *trace.Header, ss []*trace.Session) []*trace.Session {
				c.MaxConcurrency, c.Duration, c.Drain = -1, -time.Second, -time.Second
				ss[0].Client, ss[1].API, ss[1].Turns[0].Prompt = "ghost", "classify", ""
				return nil
			},
			[]string{"max concurrency -1", "duration -1s", "drain -1s", `client "ghost" index 0: its client is not in the trace header`, `api "classify"`, "turn 0 has no prompt text"}},
		{"drop without cap", "drop needs a cap to drop at",
			func(c *Config, _ *trace.Header, _ []*trace.Session) []*trace.Session { c.Drop = true; return nil },
			[]string{"drop needs a max concurrency"}},
		{"bad api override", "the configured api is checked too",
			func(c *Config, _ *trace.Header, _ []*trace.Session) []*trace.Session {
				c.API = "classify"
				return nil
			},
			[]string{`config: api "classify"`}},
		{"rerank of a chat trace", "--api rerank needs a trace of queries and documents",
			func(c *Config, _ *trace.Header, _ []*trace.Session) []*trace.Session {
				c.API = "rerank"
				return nil
			},
			[]string{"turn 0 has no documents, which api rerank scores against its query: generate the trace from a client of api rerank"}},
		{"documents to chat", "only rerank and score send documents",
			func(_ *Config, _ *trace.Header, ss []*trace.Session) []*trace.Session {
				ss[0].Turns[0].Documents = []string{"a", "b"}
				return nil
			},
			[]string{"turn 0 holds 2 documents, which only the rerank and score apis send"}},
		{"no model", "a model must come from somewhere",
			func(_ *Config, h *trace.Header, _ []*trace.Session) []*trace.Session {
				h.Clients[0].Model = ""
				return nil
			},
			[]string{"no model"}},
		{"nil, negative and empty sessions", "malformed sessions are named by position",
			func(_ *Config, _ *trace.Header, ss []*trace.Session) []*trace.Session {
				ss[1].AtUS, ss[1].Turns = -5, nil
				return append(ss, nil)
			},
			[]string{"session 3: missing", "start offset -5us is negative", "no turns"}},
		{"duplicate client", "the header names each client once",
			func(_ *Config, h *trace.Header, _ []*trace.Session) []*trace.Session {
				h.Clients = append(h.Clients, h.Clients[0])
				return nil
			},
			[]string{`client "o" appears twice`}},
		{"many bad sessions", "a summary after ten",
			func(_ *Config, _ *trace.Header, ss []*trace.Session) []*trace.Session {
				for range 30 {
					ss = append(ss, session("ghost", 0, 0, 1))
				}
				return ss
			},
			[]string{"session 12:", "and 20 more sessions"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, ss := good()
			cfg := Config{Client: &fake{}}
			if more := tt.edit(&cfg, &h, ss); more != nil {
				ss = more
			}
			_, err := New(cfg, h, ss)
			if len(tt.want) == 0 {
				if err != nil {
					t.Errorf("%s: %v", tt.reason, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("%s: no error", tt.reason)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: error lacks %q:\n%v", tt.reason, w, err)
				}
			}
		})
	}
}

func TestGate(t *testing.T) {
	t.Parallel()
	g := newGate(1)
	if _, ok := g.take(true); !ok {
		t.Fatal("a free slot is taken at once")
	}
	if tk, ok := g.take(false); tk != nil || ok {
		t.Fatal("without queueing, a full gate says no")
	}
	a, _ := g.take(true)
	b, _ := g.take(true)
	c, _ := g.take(true)
	g.abandon(b)
	g.release()
	if len(a.ready) != 1 || len(b.ready) != 0 || len(c.ready) != 0 {
		t.Fatal("a released slot goes to the oldest ticket")
	}
	g.abandon(a) // granted, then abandoned: the slot moves on, skipping b
	if len(c.ready) != 1 {
		t.Fatal("a slot granted to an abandoned ticket goes to the next live one")
	}
	g.release()
	if tk, ok := g.take(false); tk != nil || !ok {
		t.Fatal("with no one waiting, a released slot is free again")
	}
}
