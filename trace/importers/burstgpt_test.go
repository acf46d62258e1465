package importers

import (
	"errors"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestBurstGPTFixture imports the 20-row fixture: 4 failed rows left out
// and counted, 16 requests in 4 clients (model × log type) numbered within
// each, at their offsets from the first row with exact lengths.
func TestBurstGPTFixture(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/burstgpt.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := NewBurstGPT(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ss := drain(t, b)
	if len(ss) != 16 || b.Failed() != 4 || b.Skipped().Rows != 0 {
		t.Fatalf("%d sessions, %d failed, %d skipped: want 16, 4, 0", len(ss), b.Failed(), b.Skipped().Rows)
	}
	wantClients := []string{"chatgpt-conversation_log", "gpt-4-conversation_log", "chatgpt-api_log", "gpt-4-api_log"}
	if !slices.Equal(b.Clients(), wantClients) {
		t.Errorf("clients %q, want %q", b.Clients(), wantClients)
	}
	count := map[string]int{}
	for _, s := range ss {
		if s.Index != count[s.Client] {
			t.Errorf("%s session at %dus has index %d, want %d", s.Client, s.AtUS, s.Index, count[s.Client])
		}
		count[s.Client]++
	}
	if want := map[string]int{wantClients[0]: 6, wantClients[1]: 3, wantClients[2]: 4, wantClients[3]: 3}; !maps.Equal(count, want) {
		t.Errorf("sessions per client %v, want %v", count, want)
	}
	// Row 3 (GPT-4 at 118 s, 417 in, 276 out) is the second session: 113 s after the first row.
	s := ss[1]
	if tu := s.Turns[0]; s.AtUS != 113e6 || tu.InputTokens != 417 || tu.OutputTokens != 276 || tu.MinTokens != 276 || !tu.IgnoreEOS {
		t.Errorf("second session %+v, want GPT-4's at 113s with 417 in and exactly 276 out", s)
	}
}

// TestBurstGPTBadRows checks malformed and out-of-order rows: an error
// naming the line without SkipBad, skipped and counted with it, and a
// prefix from Options.Client.
func TestBurstGPTBadRows(t *testing.T) {
	t.Parallel()
	const file = "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n" +
		"10,ChatGPT,5,6,11,API log\n" +
		"x,ChatGPT,5,6,11,API log\n" + // line 3: bad time
		"9,ChatGPT,5,6,11,API log\n" + // line 4: before line 2
		"12,ChatGPT,0,6,6,API log\n" + // line 5: no input
		"13,ChatGPT,5\n" + // line 6: short
		"14,ChatGPT,5,0,5,API log\n" + // failed, not malformed
		"15,GPT-4,5,6,11,API log\n"
	b, err := NewBurstGPT(strings.NewReader(file), Options{Name: "b.csv", Client: "bg", SkipBad: true})
	if err != nil {
		t.Fatal(err)
	}
	ss := drain(t, b)
	sk := b.Skipped()
	var lines []int
	for _, e := range sk.First {
		lines = append(lines, e.Line)
	}
	if len(ss) != 2 || sk.Rows != 4 || !slices.Equal(lines, []int{3, 4, 5, 6}) || b.Failed() != 1 {
		t.Errorf("%d sessions, skipped %d at %v, %d failed: want 2, 4 at [3 4 5 6], 1", len(ss), sk.Rows, lines, b.Failed())
	}
	if len(ss) == 2 && (ss[0].Client != "bg.chatgpt-api_log" || ss[1].Client != "bg.gpt-4-api_log" || ss[1].AtUS != 5e6) {
		t.Errorf("sessions %+v %+v: want bg.chatgpt-api_log at 0 and bg.gpt-4-api_log at 5s", ss[0], ss[1])
	}
	b, _ = NewBurstGPT(strings.NewReader(file), Options{Name: "b.csv"})
	b.Next()
	_, err = b.Next()
	var re *RowError
	if !errors.As(err, &re) || re.Line != 3 || !strings.HasPrefix(err.Error(), "b.csv:3: timestamp") {
		t.Errorf("got %v, want a RowError at b.csv:3", err)
	}
	if _, err := NewBurstGPT(strings.NewReader("Timestamp,Model\n"), Options{}); err == nil {
		t.Error("accepted a header without the token columns")
	}
}

// TestBurstGPTClient checks client names keep to a-z0-9_.-.
func TestBurstGPTClient(t *testing.T) {
	t.Parallel()
	tests := []struct{ model, log, want string }{
		{"ChatGPT", "Conversation log", "chatgpt-conversation_log"}, // spaces become _
		{"GPT-4", "API log", "gpt-4-api_log"},                       // dashes kept
		{" gpt-4o (2024) ", "API  log", "gpt-4o_2024_-api_log"},     // runs of others become one _
		{"", "Ünïcode", "unknown-_n_code"},                          // empty is unknown; non-ASCII letters replaced
	}
	for _, tt := range tests {
		if got := BurstGPTClient(tt.model, tt.log); got != tt.want {
			t.Errorf("BurstGPTClient(%q, %q) = %q, want %q", tt.model, tt.log, got, tt.want)
		}
	}
}

// FuzzBurstGPTRow checks that an accepted row makes a valid session in
// a client of the spec's alphabet, and that failed rows are refused.
func FuzzBurstGPTRow(f *testing.F) {
	f.Add("5", "ChatGPT", "472", "18", "Conversation log")
	f.Add("1e9", "GPT-4", "1", "0", "API log")
	f.Add("-3.5", "Ω", "10000000", "10000000", "")
	f.Fuzz(func(t *testing.T, ts, model, in, out, log string) {
		b := &BurstGPT{}
		var q request
		err := b.parse([]string{ts, model, in, out, log}, &q)
		if err != nil {
			if q.out != 0 && errors.Is(err, errFailed) {
				t.Fatalf("failed row with output %d", q.out)
			}
			return
		}
		if q.out < 1 || q.in < 1 || strings.Trim(b.last, "abcdefghijklmnopqrstuvwxyz0123456789_.-") != "" {
			t.Fatalf("accepted %q as %+v in client %q", []string{ts, model, in, out, log}, q, b.last)
		}
		if err := newStream(nil, Options{}).session(&q).Validate(); err != nil {
			t.Fatalf("invalid session: %v", err)
		}
	})
}
