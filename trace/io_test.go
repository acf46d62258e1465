package trace

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func ptr[T any](v T) *T { return &v }

func sampleTrace() (Header, []*Session) {
	h := Header{
		Name: "golden", SpecHash: "sha256:00", Seed: 42, Tokenizer: "o200k_base",
		TokenizerHash: "sha256:11", ContentHash: "sha256:22", WarmupUS: 1e6, Text: true,
		Clients: []ClientInfo{{Name: "chat", Model: "m"}, {Name: "batch", Model: "m", Concurrency: 4},
			{Name: "talk", Model: "m", History: HistoryPinned}},
		Salt: SaltNone,
	}
	ss := []*Session{
		{Client: "batch", Index: 0, AtUS: 0, Model: "m", API: "completions", Turns: []Turn{{InputTokens: 3, OutputTokens: 9, MaxTokens: 9}}},
		{Client: "chat", Index: 0, AtUS: 1500, Model: "m", API: "chat", Turns: []Turn{{
			InputTokens: 5, OutputTokens: 7, MaxTokens: 7, MinTokens: 7, IgnoreEOS: true,
			Temperature: ptr(0.7), TopP: ptr(0.95), Style: "question", Prompt: "Why is <b> \"x\" & y\n?",
		}}},
		{Client: "chat", Index: 1, AtUS: 2_000_001, Model: "m", API: "chat", Turns: []Turn{{InputTokens: 1, OutputTokens: 1}}},
		{Client: "talk", Index: 0, AtUS: 3_000_000, Model: "m", API: "chat", Turns: []Turn{
			{SystemID: 2, SystemTokens: 3, System: "Be brief.", InputTokens: 5, OutputTokens: 2, Prompt: "Hi there", Reply: "Hello!"},
			{Parent: ptr(0), WaitUS: 1_500_000, InputTokens: 9, OutputTokens: 1, Prompt: "And?", Reply: " Yes"},
			{Parent: ptr(1), After: []int{0}, InputTokens: 12, OutputTokens: 1, Prompt: "Ok", Reply: "x"},
		}},
	}
	return h, ss
}

func writeTrace(t *testing.T, h Header, ss []*Session) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	hash, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), hash
}

// TestGolden pins the trace format byte for byte: a change here is a format
// change and needs a version bump.
func TestGolden(t *testing.T) {
	h, ss := sampleTrace()
	got, _ := writeTrace(t, h, ss)
	path := filepath.Join("testdata", "golden.jsonl")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("trace bytes differ from %s (run with -update if the change is intended):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	h, ss := sampleTrace()
	data, hash := writeTrace(t, h, ss)
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if r.Header.Format != Format || r.Header.Seed != 42 || len(r.Header.Clients) != 3 || r.Header.Salt != SaltNone || r.Header.Clients[2].History != HistoryPinned {
		t.Errorf("header read back as %+v", r.Header)
	}
	var got []*Session
	for {
		s, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	if len(got) != len(ss) || got[1].Turns[0].Prompt != ss[1].Turns[0].Prompt || *got[1].Turns[0].Temperature != 0.7 {
		t.Errorf("sessions read back differ: %+v", got)
	}
	if r.Hash() != hash {
		t.Errorf("reader hash %s, writer hash %s", r.Hash(), hash)
	}
	// Rewriting what was read gives the same bytes.
	again, _ := writeTrace(t, r.Header, got)
	if !bytes.Equal(again, data) {
		t.Errorf("rewritten trace differs:\n%s\nvs\n%s", again, data)
	}
}

func TestWorkloadHashIgnoresHeader(t *testing.T) {
	t.Parallel()
	h, ss := sampleTrace()
	_, a := writeTrace(t, h, ss)
	h.Name, h.Seed = "other", 7
	_, b := writeTrace(t, h, ss)
	ss[2].AtUS++
	_, c := writeTrace(t, h, ss)
	if a != b {
		t.Errorf("header change altered the workload hash: %s vs %s", a, b)
	}
	if a == c {
		t.Errorf("a one-microsecond change kept the workload hash %s", a)
	}
}

func TestWriterRejectsDisorder(t *testing.T) {
	t.Parallel()
	h, ss := sampleTrace()
	w, err := NewWriter(io.Discard, h)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(ss[2]); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(ss[1]); err == nil || !strings.Contains(err.Error(), "start order") {
		t.Errorf("out-of-order write gave %v", err)
	}
}

func TestReaderErrors(t *testing.T) {
	t.Parallel()
	h, ss := sampleTrace()
	good, _ := writeTrace(t, h, ss)
	tests := []struct {
		name, data, want string
	}{
		{"empty file", "", "trace is empty"},
		{"not a trace", `{"foo":1}` + "\n", "format version 0 is not supported"},
		{"header not JSON", "hello\n", "trace line 1: header"},
		{"bad session line", string(good) + "{oops\n", "trace line 6"},
		{"cut short", string(good[:len(good)-3]), "trace line 5: truncated"},
		{"version 3", strings.Replace(string(good), `"surge_trace":2`, `"surge_trace":3`, 1), "versions 1 to 2"},
		{"no turns", string(good) + `{"client":"x","index":0,"at_us":4000000,"turns":[]}` + "\n", "trace line 6: session x/0: no turns"},
		{"dependency on a later turn", string(good) + `{"client":"x","index":0,"at_us":4000000,"turns":[{"after":[1]},{}]}` + "\n",
			"turn 0 depends on turn 1: a turn may depend only on turns before it"},
		{"parent on itself", string(good) + `{"client":"x","index":0,"at_us":4000000,"turns":[{},{"parent":1}]}` + "\n", "turn 1 depends on turn 1"},
		{"blocks on a continuing turn", string(good) + `{"client":"x","index":0,"at_us":4000000,"turns":[{"input_tokens":5},{"parent":0,"input_tokens":9,"blocks":[1],"block_tokens":4}]}` + "\n", "turn 1: blocks on a turn continuing a conversation"},
		{"blocks past the prompt", string(good) + `{"client":"x","index":0,"at_us":4000000,"turns":[{"input_tokens":7,"blocks":[1,2],"block_tokens":4}]}` + "\n", "2 blocks of 4 tokens exceed input_tokens 7"},
		{"negative wait", string(good) + `{"client":"x","index":0,"at_us":4000000,"turns":[{"wait_us":-1}]}` + "\n", "negative wait_us"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := readAll(tt.data)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func readAll(data string) error {
	r, err := NewReader(strings.NewReader(data))
	if err != nil {
		return err
	}
	for {
		if _, err := r.Read(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

func FuzzReader(f *testing.F) {
	h, ss := sampleTrace()
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, h)
	for _, s := range ss {
		w.Write(s)
	}
	w.Close()
	f.Add(buf.Bytes())
	f.Add([]byte("{\"surge_trace\":1}\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		readAll(string(data)) // must not panic
	})
}

// TestReadsFormat1 checks that traces written before conversations (format
// 1: one turn per session, no salt) still read.
func TestReadsFormat1(t *testing.T) {
	t.Parallel()
	v1 := `{"surge_trace":1,"spec_hash":"sha256:00","seed":1,"tokenizer":"o200k_base","tokenizer_hash":"","content_hash":"","text":true,"clients":[{"name":"a","model":"m"}]}
{"client":"a","index":0,"at_us":5,"model":"m","api":"chat","turns":[{"input_tokens":3,"output_tokens":2,"prompt":"a b c"}]}
`
	r, err := NewReader(strings.NewReader(v1))
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Read()
	if err != nil || len(s.Turns) != 1 || s.Turns[0].Parent != nil || len(s.Turns[0].Deps()) != 0 {
		t.Fatalf("read %+v, %v", s, err)
	}
}
