package importers

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"surge/trace"
)

// words counts a text's words, a tokenizer whose counts a reader can check.
func words(s string) int { return len(strings.Fields(s)) }

// shareGPTFile opens the ShareGPT fixture.
func shareGPTFile(t *testing.T) *os.File {
	t.Helper()
	f, err := os.Open("testdata/sharegpt.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestShareGPTFixture imports the fixture and checks every turn by hand:
// inputs carrying the whole conversation, outputs the replies' lengths,
// system prompts, passed greetings, cut conversations and the skipped one.
func TestShareGPTFixture(t *testing.T) {
	t.Parallel()
	sg, err := NewShareGPT(shareGPTFile(t), ShareGPTOptions{Options: Options{Name: "sg.json", Client: "chat", SkipBad: true}, Count: words, Think: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ss := drain(t, sg)
	type turn struct {
		in, out, sys int
		prompt       string
	}
	want := [][]turn{
		{{4, 5, 0, "what is a cache"}, {4 + 5 + 4, 6, 0, "and a prefix cache"}}, // two exchanges
		{{2 + 1, 2, 2, "hi"}},             // the system prompt counts in the input
		{{3, 3, 0, "name three colours"}}, // the greeting is passed; two human messages in a row cut it
		{{2, 1, 0, "one two"}},            // user/assistant aliases; the unanswered last message is left out
	}
	if len(ss) != len(want) {
		t.Fatalf("%d sessions, want %d", len(ss), len(want))
	}
	for i, s := range ss {
		if s.Client != "chat" || s.Index != i || s.AtUS != 0 || len(s.Turns) != len(want[i]) {
			t.Fatalf("session %d: %+v", i, s)
		}
		for k, w := range want[i] {
			tu := s.Turns[k]
			if tu.InputTokens != w.in || tu.OutputTokens != w.out || tu.MaxTokens != w.out || tu.MinTokens != w.out ||
				!tu.IgnoreEOS || tu.SystemTokens != w.sys || tu.Prompt != w.prompt || words(tu.Reply) != w.out {
				t.Errorf("session %d turn %d: %+v, want %+v", i, k, tu, w)
			}
			if k > 0 && (tu.Parent == nil || *tu.Parent != k-1 || tu.WaitUS != 2e6) {
				t.Errorf("session %d turn %d: parent %v wait %d, want %d and 2s", i, k, tu.Parent, tu.WaitUS, k-1)
			}
		}
	}
	sk := sg.Skipped()
	if sk.Rows != 1 || sk.First[0].Line != 30 || !strings.HasPrefix(sk.First[0].Error(), `sg.json:30: conversation "d4"`) {
		t.Errorf("skipped %+v, want conversation d4 at sg.json:30", sk)
	}
	if sg.Truncated() != 1 || sg.Dropped() != 0 {
		t.Errorf("truncated %d, dropped %d: want 1 and 0", sg.Truncated(), sg.Dropped())
	}
}

// TestShareGPTRowError checks that without SkipBad the conversation with
// no answer stops the import with its line, after the three before it.
func TestShareGPTRowError(t *testing.T) {
	t.Parallel()
	sg, err := NewShareGPT(shareGPTFile(t), ShareGPTOptions{Options: Options{Name: "sg.json"}, Count: words})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := sg.Next(); err != nil {
			t.Fatal(err)
		}
	}
	_, err = sg.Next()
	var re *RowError
	if !errors.As(err, &re) || re.Line != 30 || re.Name != "sg.json" {
		t.Fatalf("got %v, want a RowError at sg.json:30", err)
	}
}

// TestShareGPTLayouts checks that JSON Lines and a byte-order mark read
// as the array does, and that broken JSON ends the import.
func TestShareGPTLayouts(t *testing.T) {
	t.Parallel()
	conv := `{"id":"x","conversations":[{"from":"human","value":"a b"},{"from":"gpt","value":"c"}]}`
	tests := []struct {
		name, file string
		sessions   int
		fatal      bool
	}{
		{"array", "[" + conv + "," + conv + "]", 2, false},
		{"json lines", conv + "\n" + conv + "\n", 2, false},
		{"byte-order mark and space", "\ufeff \n[ " + conv + " ]\n", 1, false},
		{"empty array", "[]", 0, false},
		{"truncated array", "[" + conv + "," + conv[:20], 1, true},
		{"missing comma", "[" + conv + conv + "]", 1, true},
		{"not json", "id,conversations\n", 0, true},
		{"empty", "  \n", 0, true},
	}
	for _, tt := range tests {
		sg, err := NewShareGPT(strings.NewReader(tt.file), ShareGPTOptions{Count: words, Options: Options{SkipBad: true}})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			_, err = sg.Next()
			if err != nil {
				break
			}
			n++
		}
		var re *RowError
		if n != tt.sessions || (err != io.EOF) != tt.fatal || errors.As(err, &re) {
			t.Errorf("%s: %d sessions, then %v; want %d and fatal %v", tt.name, n, err, tt.sessions, tt.fatal)
		}
	}
}

// TestShareGPTTurns checks the cases of shareGPTTurns.
func TestShareGPTTurns(t *testing.T) {
	t.Parallel()
	m := func(from, value string) shareGPTMessage { return shareGPTMessage{From: from, Value: value} }
	tests := []struct {
		reason  string
		msgs    []shareGPTMessage
		maxCtx  int
		turns   int
		cut     bool
		wantErr string
	}{
		{"one exchange", []shareGPTMessage{m("human", "a"), m("gpt", "b")}, 0, 1, false, ""},
		{"roles in any case", []shareGPTMessage{m("Human", "a"), m("GPT", "b")}, 0, 1, false, ""},
		{"an empty reply ends it", []shareGPTMessage{m("human", "a"), m("gpt", "b"), m("human", "c"), m("gpt", "")}, 0, 1, true, ""},
		{"two replies in a row end it", []shareGPTMessage{m("human", "a"), m("gpt", "b"), m("gpt", "c")}, 0, 1, true, ""},
		{"a system message mid-way ends it", []shareGPTMessage{m("human", "a"), m("gpt", "b"), m("system", "c"), m("human", "d"), m("gpt", "e")}, 0, 1, true, ""},
		{"max context ends it: turn 2 is 1+1+1+1 = 4 > 3", []shareGPTMessage{m("human", "a"), m("gpt", "b"), m("human", "c"), m("gpt", "d")}, 3, 1, true, ""},
		{"max context just fits", []shareGPTMessage{m("human", "a"), m("gpt", "b"), m("human", "c"), m("gpt", "d")}, 4, 2, false, ""},
		{"first turn too long", []shareGPTMessage{m("human", "a b c"), m("gpt", "d")}, 3, 0, false, errTooLong.Error()},
		{"unknown role", []shareGPTMessage{m("human", "a"), m("robot", "b")}, 0, 0, false, `from "robot"`},
		{"no messages", nil, 0, 0, false, "no human message answered"},
		{"only a system prompt", []shareGPTMessage{m("system", "a")}, 0, 0, false, "no human message answered"},
		{"an empty first prompt", []shareGPTMessage{m("human", ""), m("gpt", "b")}, 0, 0, false, "no human message answered"},
	}
	for _, tt := range tests {
		turns, cut, err := shareGPTTurns(tt.msgs, ShareGPTOptions{Count: words, MaxContext: tt.maxCtx})
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want one containing %q", tt.reason, err, tt.wantErr)
			}
			continue
		}
		if err != nil || len(turns) != tt.turns || cut != tt.cut {
			t.Errorf("%s: %d turns, cut %v, %v; want %d, %v", tt.reason, len(turns), cut, err, tt.turns, tt.cut)
		}
	}
}

// TestShareGPTArrivals checks the pacing: evenly spaced starts 1/rate
// apart, Poisson starts whose mean gap is 1/rate within 5% over 4000
// sessions (the standard error of the mean of n exponential gaps is
// 1/(rate·√n), 1.6% here) and the same for the same seed, and all at 0
// without a rate.
func TestShareGPTArrivals(t *testing.T) {
	t.Parallel()
	const n = 4000
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"id":"%d","conversations":[{"from":"human","value":"q"},{"from":"gpt","value":"r"}]}`+"\n", i)
	}
	starts := func(opts ShareGPTOptions) []int64 {
		opts.Count = words
		sg, err := NewShareGPT(strings.NewReader(b.String()), opts)
		if err != nil {
			t.Fatal(err)
		}
		var at []int64
		for _, s := range drain(t, sg) {
			at = append(at, s.AtUS)
		}
		return at
	}
	even := starts(ShareGPTOptions{Rate: 4, Even: true})
	for i, at := range even {
		if at != int64(i)*250000 {
			t.Fatalf("even start %d at %dus, want %d", i, at, i*250000)
		}
	}
	p1, p2, p3 := starts(ShareGPTOptions{Rate: 4, Seed: 7}), starts(ShareGPTOptions{Rate: 4, Seed: 7}), starts(ShareGPTOptions{Rate: 4, Seed: 8})
	mean := float64(p1[n-1]) / 1e6 / (n - 1)
	if math.Abs(mean-0.25)/0.25 > 0.05 {
		t.Errorf("Poisson mean gap %.4fs, want 0.25s within 5%%", mean)
	}
	if fmt.Sprint(p1) != fmt.Sprint(p2) || fmt.Sprint(p1) == fmt.Sprint(p3) {
		t.Error("Poisson starts: want the same for one seed and different for another")
	}
	for i, at := range starts(ShareGPTOptions{}) {
		if at != 0 {
			t.Fatalf("closed-loop start %d at %dus, want 0", i, at)
		}
	}
}

// TestShareGPTOptions checks that bad options are refused.
func TestShareGPTOptions(t *testing.T) {
	t.Parallel()
	for _, opts := range []ShareGPTOptions{
		{},                                  // no counter
		{Count: words, Rate: -1},            // negative rate
		{Count: words, Rate: math.Inf(1)},   // infinite rate
		{Count: words, Think: -time.Second}, // negative think time
		{Count: words, MaxContext: 1},       // no room for input and output
	} {
		if _, err := NewShareGPT(strings.NewReader("[]"), opts); err == nil {
			t.Errorf("%+v: accepted", opts)
		}
	}
}

// FuzzShareGPT imports arbitrary files, skipping bad conversations, and
// checks every session is valid with inputs that grow along the chain.
func FuzzShareGPT(f *testing.F) {
	f.Add(`[{"id":"a","conversations":[{"from":"human","value":"x y"},{"from":"gpt","value":"z"},{"from":"human","value":"w"},{"from":"gpt","value":"v"}]}]`)
	f.Add(`{"conversations":[{"from":"system","value":"s"},{"from":"user","value":"q"},{"from":"assistant","value":"r"}]}` + "\n{}")
	f.Add(`[{"conversations":[{"from":"gpt"}]}, 3, "x"]`)
	f.Fuzz(func(t *testing.T, file string) {
		sg, err := NewShareGPT(strings.NewReader(file), ShareGPTOptions{Count: words, Options: Options{SkipBad: true}, Rate: 1, MaxContext: 50})
		if err != nil {
			t.Fatal(err)
		}
		for range 1000 {
			s, err := sg.Next()
			if err != nil {
				return
			}
			checkShareGPTSession(t, s)
		}
	})
}

// checkShareGPTSession checks a session is valid, each turn continuing the
// one before with an input of all the text so far.
func checkShareGPTSession(t *testing.T, s *trace.Session) {
	t.Helper()
	if err := s.Validate(); err != nil {
		t.Fatalf("invalid session: %v", err)
	}
	for k, tu := range s.Turns {
		want := words(tu.Prompt)
		if k == 0 {
			want += tu.SystemTokens
		} else {
			p := s.Turns[k-1]
			want += p.InputTokens + p.OutputTokens
		}
		if tu.InputTokens != want || tu.InputTokens+tu.OutputTokens > 50 {
			t.Fatalf("turn %d: input %d, want %d, within 50 with its output", k, tu.InputTokens, want)
		}
	}
}
