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
		Clients: []ClientInfo{{Name: "chat", Model: "m"}, {Name: "batch", Model: "m", Concurrency: 4}},
	}
	ss := []*Session{
		{Client: "batch", Index: 0, AtUS: 0, Model: "m", API: "completions", Turns: []Turn{{InputTokens: 3, OutputTokens: 9, MaxTokens: 9}}},
		{Client: "chat", Index: 0, AtUS: 1500, Model: "m", API: "chat", Turns: []Turn{{
			InputTokens: 5, OutputTokens: 7, MaxTokens: 7, MinTokens: 7, IgnoreEOS: true,
			Temperature: ptr(0.7), TopP: ptr(0.95), Style: "question", Prompt: "Why is <b> \"x\" & y\n?",
		}}},
		{Client: "chat", Index: 1, AtUS: 2_000_001, Model: "m", API: "chat", Turns: []Turn{{InputTokens: 1, OutputTokens: 1}}},
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
	if r.Header.Format != Format || r.Header.Seed != 42 || len(r.Header.Clients) != 2 {
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
		{"bad session line", string(good) + "{oops\n", "trace line 5"},
		{"cut short", string(good[:len(good)-3]), "trace line 4: truncated"},
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
