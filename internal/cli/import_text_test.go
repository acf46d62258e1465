package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"surge/content"
	"surge/trace"
)

// shareGPTFixture is two ShareGPT conversations, the first of two turns.
const shareGPTFixture = `[
 {"id": "a", "conversations": [
  {"from": "human", "value": "What is a prefix cache?"},
  {"from": "gpt", "value": "A cache of KV blocks keyed by the prompt's leading tokens."},
  {"from": "human", "value": "Why does it help chat?"},
  {"from": "gpt", "value": "Each turn resends the whole conversation so far."}]},
 {"id": "b", "conversations": [
  {"from": "human", "value": "Say hi."},
  {"from": "gpt", "value": "Hi!"}]}
]`

// TestImportShareGPT imports conversations of text, open loop at an even
// rate and closed loop without one: pinned history, token counts in the
// tokenizer named in the header, and inputs carrying the conversation.
func TestImportShareGPT(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "sg.json")
	if err := os.WriteFile(in, []byte(shareGPTFixture), 0o644); err != nil {
		t.Fatal(err)
	}
	tok, err := content.Builtin("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	count := func(s string) int { return len(tok.Encode(s)) }
	tests := []struct {
		reason      string
		args        []string
		starts      []int64
		concurrency int
	}{
		{"open loop, evenly spaced", []string{"--rate", "2", "--arrivals", "even", "--think", "1s"}, []int64{0, 500000}, 0},
		{"closed loop without a rate", []string{"--concurrency", "3", "--think", "1s"}, []int64{0, 0}, 3},
		{"--speed divides --think", []string{"--speed", "2", "--think", "2s"}, []int64{0, 0}, 4},
	}
	for i, tt := range tests {
		out := filepath.Join(dir, strings.Repeat("s", i+1)+".jsonl")
		code, _, e := run(t, append([]string{"import", in, "-o", out}, tt.args...)...)
		if code != exitOK || !strings.Contains(e, "2 conversations from") {
			t.Fatalf("%s: exit %d, stderr %q", tt.reason, code, e)
		}
		h, ss := readImported(t, out)
		want := trace.ClientInfo{Name: "sharegpt", History: trace.HistoryPinned, Concurrency: tt.concurrency}
		if !h.Text || h.Tokenizer != "o200k_base" || h.TokenizerHash != content.Fingerprint(tok) || !reflect.DeepEqual(h.Clients, []trace.ClientInfo{want}) {
			t.Errorf("%s: header %+v, want text in o200k_base and client %+v", tt.reason, h, want)
		}
		if len(ss) != 2 || ss[0].AtUS != tt.starts[0] || ss[1].AtUS != tt.starts[1] || len(ss[0].Turns) != 2 {
			t.Fatalf("%s: sessions %+v, want two starting at %v, the first of two turns", tt.reason, ss, tt.starts)
		}
		t0, t1 := ss[0].Turns[0], ss[0].Turns[1]
		if t0.InputTokens != count(t0.Prompt) || t0.OutputTokens != count(t0.Reply) ||
			t1.InputTokens != t0.InputTokens+t0.OutputTokens+count(t1.Prompt) || t1.WaitUS != 1e6 || *t1.Parent != 0 {
			t.Errorf("%s: turns %+v %+v: want lengths in o200k_base, the second carrying the first, 1s after it", tt.reason, t0, t1)
		}
	}
}

// TestImportBurstGPT imports a BurstGPT CSV detected by its header: a
// client per model and log type in the header, failed requests counted.
func TestImportBurstGPT(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "BurstGPT_1.csv")
	data := "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n" +
		"5,ChatGPT,472,18,490,Conversation log\n45,ChatGPT,1087,0,1087,Conversation log\n" +
		"118,GPT-4,417,276,693,API log\n125,ChatGPT,1360,112,1472,Conversation log\n"
	if err := os.WriteFile(in, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "b.jsonl")
	code, _, e := run(t, "import", in, "-o", out, "--rate", "1")
	if code != exitOK || !strings.Contains(e, "3 sessions from 1 burstgpt file") || !strings.Contains(e, "left out 1 failed request (0 response tokens)") {
		t.Fatalf("exit %d, stderr %q", code, e)
	}
	h, ss := readImported(t, out)
	var names []string
	for _, c := range h.Clients {
		names = append(names, c.Name)
	}
	// --rate 1: 3 sessions over 120 s arrive at λ = 2/120 per second, so
	// offsets 0, 113 and 120 s are scaled by λ/1 to 0, 1.88 and 2 s.
	if !reflect.DeepEqual(names, []string{"chatgpt-conversation_log", "gpt-4-api_log"}) || len(ss) != 3 ||
		ss[1].Client != "gpt-4-api_log" || ss[2].Index != 1 || ss[2].AtUS != 2e6 {
		t.Errorf("clients %q, sessions %+v %+v %+v", names, ss[0], ss[1], ss[2])
	}
}

// TestImportTextErrors checks the ShareGPT options that are refused.
func TestImportTextErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "sg.json")
	if err := os.WriteFile(in, []byte(shareGPTFixture), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		reason string
		args   []string
		want   string
	}{
		{"two files", []string{in, in}, "sharegpt: give one file, not 2"},
		{"a window", []string{in, "--window", "0-10"}, "--window does not apply to sharegpt"},
		{"unknown arrivals", []string{in, "--rate", "1", "--arrivals", "gamma"}, `--arrivals "gamma"`},
		{"unknown tokenizer", []string{in, "--tokenizer", filepath.Join(dir, "none")}, "--tokenizer"},
	}
	for _, tt := range tests {
		code, _, e := run(t, append([]string{"import", "-o", filepath.Join(dir, "x.jsonl")}, tt.args...)...)
		if code != exitUsage || !strings.Contains(e, tt.want) {
			t.Errorf("%s: exit %d, %q; want a usage error with %q", tt.reason, code, e, tt.want)
		}
	}
}

// TestImportColumns imports generic traces by a column mapping: a CSV of
// conversations with a client field (format forced) and JSON Lines of
// requests (format chosen by the first byte), and refuses a mapping
// where none applies or none where one is needed.
func TestImportColumns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "log.csv")
	os.WriteFile(csvPath, []byte("ms,user,conv,in,out\n0,Ann,c1,10,2\n500,Bo,c2,20,3\n1500,Ann,c1,40,4\n"), 0o644)
	jsonPath := filepath.Join(dir, "log.txt")
	os.WriteFile(jsonPath, []byte(`{"t":"2024-01-01T00:00:00Z","i":5,"o":1}`+"\n"+`{"t":"2024-01-01T00:00:02Z","i":6,"o":2}`+"\n"), 0o644)
	out := filepath.Join(dir, "c.jsonl")
	code, _, e := run(t, "import", csvPath, "--format", "csv", "--columns", "at=ms,input=in,output=out,client=user,session=conv", "--time-unit", "ms", "-o", out)
	if code != exitOK || !strings.Contains(e, "2 sessions from 1 csv file") {
		t.Fatalf("csv: exit %d, stderr %q", code, e)
	}
	h, ss := readImported(t, out)
	if len(h.Clients) != 2 || h.Clients[0].Name != "ann" || h.Clients[1].Name != "bo" || len(ss) != 2 ||
		len(ss[0].Turns) != 2 || ss[0].Turns[1].WaitUS != 1.5e6 || ss[1].AtUS != 5e5 {
		t.Errorf("csv: clients %+v, sessions %+v", h.Clients, ss)
	}
	out = filepath.Join(dir, "j.jsonl")
	code, _, e = run(t, "import", jsonPath, "--columns", "at=t,input=i,output=o", "--time-unit", "iso", "--client", "api", "-o", out)
	if code != exitOK || !strings.Contains(e, "2 sessions from 1 jsonl file over 2s") {
		t.Fatalf("jsonl: exit %d, stderr %q", code, e)
	}
	if h, ss := readImported(t, out); h.Clients[0].Name != "api" || ss[1].Client != "api" || ss[1].AtUS != 2e6 {
		t.Errorf("jsonl: clients %+v, sessions %+v", h.Clients, ss)
	}
	for _, tt := range []struct {
		reason string
		args   []string
		want   string
	}{
		{"a mapping for a known format", []string{csvPath, "--format", "azure", "--columns", "at=ms,input=in,output=out"}, "--columns is for the csv and jsonl formats, not azure"},
		{"no mapping", []string{csvPath, "--format", "csv"}, "csv: give --columns"},
		{"a bad mapping", []string{csvPath, "--columns", "at=ms,input=in"}, "--columns: columns"},
		{"a bad unit", []string{csvPath, "--columns", "at=ms,input=in,output=out", "--time-unit", "h"}, `--time-unit "h"`},
	} {
		code, _, e := run(t, append([]string{"import", "-o", filepath.Join(dir, "x.jsonl")}, tt.args...)...)
		if code != exitUsage || !strings.Contains(e, tt.want) {
			t.Errorf("%s: exit %d, %q; want a usage error with %q", tt.reason, code, e, tt.want)
		}
	}
}

// TestImportServeGen imports two shared ServeGen clients for their first
// minute, detected from their first window: named by model and chunk,
// offsets from the trace's time 0, lengths from the PMFs where there are
// some and --lengths where not.
func TestImportServeGen(t *testing.T) {
	t.Parallel()
	small := filepath.Join(sharedTraces, "servegen/language/m-small/chunk-27-trace.csv")
	large := filepath.Join(sharedTraces, "servegen/language/m-large/chunk-78-trace.csv")
	if _, err := os.Stat(small); err != nil {
		t.Skip("no shared traces")
	}
	out := filepath.Join(t.TempDir(), "sg.jsonl")
	code, _, e := run(t, "import", small, large, "--window", "0-60", "--lengths", "500:50", "--seed", "4", "-o", out)
	if code != exitOK || !strings.Contains(e, "from 2 servegen files") || !strings.Contains(e, "chunk-78-trace.csv: no length PMFs: every request 500:50 tokens") {
		t.Fatalf("exit %d, stderr %q", code, e)
	}
	h, ss := readImported(t, out)
	if len(h.Clients) != 2 || h.Clients[0].Name != "m-small.chunk-27" || h.Clients[1].Name != "m-large.chunk-78" {
		t.Fatalf("clients %+v", h.Clients)
	}
	n := map[string]int{}
	for _, s := range ss {
		n[s.Client]++
		tu := s.Turns[0]
		if s.AtUS >= 60e6 || (s.Client == "m-large.chunk-78") != (tu.InputTokens == 500 && tu.OutputTokens == 50) {
			t.Fatalf("session %+v: want within the minute, --lengths only for m-large", s)
		}
	}
	// m-large chunk-78's first window runs at 5.26 requests/s: about 316 in a minute.
	if n["m-large.chunk-78"] < 250 || n["m-large.chunk-78"] > 380 || n["m-small.chunk-27"] == 0 {
		t.Errorf("requests per client %v, want about 316 of m-large.chunk-78 and some of m-small.chunk-27", n)
	}
}
