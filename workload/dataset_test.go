package workload

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"surge/content/dataset"
	"surge/spec"
	"surge/trace"
)

// readSet reads a fixture of the dataset package.
func readSet(t *testing.T, name string) *dataset.Set {
	t.Helper()
	set, err := dataset.Read(os.DirFS("../content/dataset/testdata"), name, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// datasetClientSpec is a spec of n requests of one client with a dataset
// block and lines.
func datasetClientSpec(t *testing.T, n int, block, lines string) *spec.Spec {
	return parse(t, fmt.Sprintf("version: 1\nseed: 3\nrequests: %d\nclients:\n  - name: d\n    model: m\n    rate: 5/s\n    dataset: %s\n%s", n, block, lines))
}

// genDataset generates s with set as its client's dataset.
func genDataset(t *testing.T, s *spec.Spec, set *dataset.Set) ([]*trace.Session, Result, trace.Header) {
	t.Helper()
	tok, synth := o200k(t)
	g, err := New(s, tok, synth, Options{Datasets: map[string]*dataset.Set{"d": set}})
	if err != nil {
		t.Fatal(err)
	}
	// The trace writer checks every session it writes.
	tw, err := trace.NewWriter(io.Discard, g.Header())
	if err != nil {
		t.Fatal(err)
	}
	var ss []*trace.Session
	res, err := g.Generate(context.Background(), func(s *trace.Session) error {
		ss = append(ss, s)
		return tw.Write(s)
	})
	if err != nil {
		t.Fatal(err)
	}
	return ss, res, g.Header()
}

// checkExact fails unless each turn's prompt and system count as its
// input in the tokenizer.
func checkExact(t *testing.T, ss []*trace.Session) {
	t.Helper()
	tok, _ := o200k(t)
	for _, s := range ss {
		tt := s.Turns[0]
		if got := len(tok.Encode(tt.Prompt)) + len(tok.Encode(tt.System)); got != tt.InputTokens || tt.SystemTokens != len(tok.Encode(tt.System)) {
			t.Errorf("session %d: prompt and system are %d tokens, input_tokens %d (system %d): %q", s.Index, got, tt.InputTokens, tt.SystemTokens, tt.Prompt)
		}
	}
}

func TestDatasetKeep(t *testing.T) {
	t.Parallel()
	set := readSet(t, "sharegpt.json")
	ss, res, h := genDataset(t, datasetClientSpec(t, 5, "sharegpt.json", "    output: dataset\n"), set)
	tok, _ := o200k(t)
	for i, s := range ss {
		e := set.Entries[i%len(set.Entries)]
		tt := s.Turns[0]
		if tt.Prompt != e.Turns[0].Prompt || tt.System != e.System {
			t.Errorf("session %d: prompt %q system %q, want entry %d's", i, tt.Prompt, tt.System, i%len(set.Entries))
		}
		if want := len(tok.Encode(e.Turns[0].Reply)); tt.OutputTokens != want || tt.MaxTokens != want {
			t.Errorf("session %d: output %d max_tokens %d, want the reply's %d", i, tt.OutputTokens, tt.MaxTokens, want)
		}
	}
	checkExact(t, ss)
	if d := h.Clients[0].Dataset; d == nil || d.Hash != set.Hash || d.Format != "sharegpt" || d.Path != "sharegpt.json" {
		t.Errorf("header dataset %+v, want the file's hash %s", d, set.Hash)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), "has 3 prompts for 5 sessions") {
		t.Errorf("warnings %v, want one saying prompts repeat", res.Warnings)
	}
}

func TestDatasetFit(t *testing.T) {
	t.Parallel()
	set := readSet(t, "prompts.jsonl")
	tests := []struct {
		fit, input string
		reason     string
	}{
		{"trim", "3", "every prompt is longer: all trimmed"},
		{"pad", "200", "every prompt is shorter: all padded"},
		{"exact", "uniform(min=3, max=40)", "both ways"},
	}
	for _, tt := range tests {
		s := datasetClientSpec(t, 12, "{path: prompts.jsonl, fit: "+tt.fit+"}", "    input: "+tt.input+"\n    output: 16\n")
		ss, res, _ := genDataset(t, s, set)
		if len(ss) != 12 {
			t.Fatalf("%s: %d sessions", tt.reason, len(ss))
		}
		checkExact(t, ss)
		for _, w := range res.Warnings {
			if strings.Contains(w.Error(), "not fitted") {
				t.Errorf("%s: %v", tt.reason, w)
			}
		}
		for _, s := range ss {
			if tt.fit == "pad" && !strings.HasPrefix(s.Turns[0].Prompt, set.Entries[s.Index%len(set.Entries)].Turns[0].Prompt) {
				t.Errorf("%s: session %d does not start with its entry's prompt: %q", tt.reason, s.Index, s.Turns[0].Prompt)
			}
			if n := s.Turns[0].InputTokens - s.Turns[0].SystemTokens; tt.fit != "exact" && fmt.Sprint(n) != tt.input {
				t.Errorf("%s: session %d has %d tokens", tt.reason, s.Index, n)
			}
		}
	}
}

func TestDatasetPassedOver(t *testing.T) {
	t.Parallel()
	set := readSet(t, "prompts.jsonl")
	tok, _ := o200k(t)
	// pad cannot shorten: with input 10 the prompt of 11 is passed over.
	s := datasetClientSpec(t, 4, "{path: prompts.jsonl, fit: pad}", "    input: 10\n    output: 16\n")
	ss, res, _ := genDataset(t, s, set)
	checkExact(t, ss)
	for _, s := range ss {
		if s.Turns[0].InputTokens-s.Turns[0].SystemTokens != 10 {
			t.Errorf("session %d: %d input tokens", s.Index, s.Turns[0].InputTokens)
		}
	}
	if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0].Error(), "not fitted exactly") {
		t.Errorf("warnings %v", res.Warnings)
	}
	// min_input filters on the prompt's own length.
	shortest := len(tok.Encode(set.Entries[1].Turns[0].Prompt))
	s = datasetClientSpec(t, 6, fmt.Sprintf("{path: prompts.jsonl, min_input: %d}", shortest+1), "    output: 8\n")
	ss, res, _ = genDataset(t, s, set)
	// The filter counts entries, not tries: 3 of the 4 (10, 7 and 10
	// tokens) however often the 6 sessions pass them.
	if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0].Error(), "passed over: 3 outside min_input..max_input") {
		t.Errorf("warnings %v", res.Warnings)
	}
	for _, s := range ss {
		if n := len(tok.Encode(s.Turns[0].Prompt)); n <= shortest {
			t.Errorf("session %d: a prompt of %d tokens passed min_input %d", s.Index, n, shortest+1)
		}
	}
	// No prompt serves: an error, not a wrong length.
	s = datasetClientSpec(t, 2, "{path: prompts.jsonl, fit: trim}", "    input: 5k\n    output: 8\n")
	tok2, synth := o200k(t)
	g, err := New(s, tok2, synth, Options{Datasets: map[string]*dataset.Set{"d": set}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Generate(context.Background(), func(*trace.Session) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "can be made exactly 5000 tokens") {
		t.Errorf("error %v", err)
	}
}

func TestDatasetShuffle(t *testing.T) {
	t.Parallel()
	set := readSet(t, "prompts.jsonl")
	order := func(block string) []string {
		ss, _, _ := genDataset(t, datasetClientSpec(t, 4, block, "    output: 8\n"), set)
		var out []string
		for _, s := range ss {
			out = append(out, s.Turns[0].Prompt)
		}
		return out
	}
	seq, shuf := order("prompts.jsonl"), order("{path: prompts.jsonl, order: shuffle}")
	if slices.Equal(seq, shuf) {
		t.Errorf("shuffle kept file order %q", seq)
	}
	if again := order("{path: prompts.jsonl, order: shuffle}"); !slices.Equal(shuf, again) {
		t.Errorf("shuffle is not deterministic: %q then %q", shuf, again)
	}
	slices.Sort(seq)
	slices.Sort(shuf)
	if !slices.Equal(seq, shuf) {
		t.Errorf("shuffle is not a permutation: %q and %q", seq, shuf)
	}
}

func TestDatasetNoReplies(t *testing.T) {
	t.Parallel()
	set := readSet(t, "prompts.csv")
	tok, synth := o200k(t)
	_, err := New(datasetClientSpec(t, 2, "prompts.csv", "    output: dataset\n"), tok, synth, Options{Datasets: map[string]*dataset.Set{"d": set}})
	if err == nil || !strings.Contains(err.Error(), "records no replies") {
		t.Errorf("error %v", err)
	}
	_, err = New(datasetClientSpec(t, 2, "prompts.csv", "    output: 4\n"), tok, synth, Options{})
	if err == nil || !strings.Contains(err.Error(), "was not read") {
		t.Errorf("error %v", err)
	}
}

func TestDatasetChat(t *testing.T) {
	t.Parallel()
	set, err := dataset.Read(os.DirFS("../content/dataset/testdata"), "sharegpt.json", dataset.Options{Conversations: true})
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := o200k(t)
	n := func(s string) int { return len(tok.Encode(s)) }
	s := datasetClientSpec(t, 3, "sharegpt.json", "    output: dataset\n    session: {kind: chat, history: pinned, think: 2s}\n")
	ss, _, _ := genDataset(t, s, set)
	for i, s := range ss {
		e := set.Entries[i]
		if len(s.Turns) != len(e.Turns) {
			t.Fatalf("session %d: %d turns, want the conversation's %d", i, len(s.Turns), len(e.Turns))
		}
		context := n(e.System)
		for k, tt := range s.Turns {
			context += n(e.Turns[k].Prompt)
			if tt.Prompt != e.Turns[k].Prompt || tt.Reply != e.Turns[k].Reply || tt.InputTokens != context || tt.OutputTokens != n(e.Turns[k].Reply) {
				t.Errorf("session %d turn %d: %+v, want input %d", i, k, tt, context)
			}
			if k > 0 && (tt.Parent == nil || *tt.Parent != k-1 || tt.WaitUS != 2e6) {
				t.Errorf("session %d turn %d: parent %v wait %d", i, k, tt.Parent, tt.WaitUS)
			}
			context += n(e.Turns[k].Reply)
		}
		if s.Turns[0].System != e.System {
			t.Errorf("session %d: system %q", i, s.Turns[0].System)
		}
	}
	// A turns law caps the conversation; an output law draws each reply's length.
	s = datasetClientSpec(t, 3, "sharegpt.json", "    output: 7\n    session: {kind: chat, turns: 1}\n")
	ss, _, _ = genDataset(t, s, set)
	for _, s := range ss {
		if len(s.Turns) != 1 || s.Turns[0].OutputTokens != 7 || s.Turns[0].Reply != "" {
			t.Errorf("session %d: %+v", s.Index, s.Turns)
		}
	}
}
