package spec

import (
	"strings"
	"testing"
)

// datasetSpec is a spec with one client whose lines are client.
func datasetSpec(client string) []byte {
	return []byte("version: 1\nrequests: 10\nclients:\n  - name: c\n    model: m\n    rate: 1/s\n" + client)
}

func TestDatasetDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		client string
		want   Dataset
		input  bool
		chat   bool
		reason string
	}{
		{"    dataset: prompts.json\n    output: dataset\n",
			Dataset{Path: "prompts.json", Order: OrderSequential, Fit: FitKeep, Replies: true}, false, false, "a bare path, output from the replies"},
		{"    dataset: c.json\n    output: dataset\n    session: {kind: chat, history: pinned}\n",
			Dataset{Path: "c.json", Order: OrderSequential, Fit: FitKeep, Replies: true}, false, true, "chat sessions need no turns"},
		{"    dataset: {path: p.csv, format: csv, field: question, order: shuffle, min_input: 4, max_input: 2k, fit: exact}\n    input: 512\n    output: 128\n",
			Dataset{Path: "p.csv", Format: "csv", Field: "question", Order: OrderShuffle, MinInput: 4, MaxInput: 2000, Fit: FitExact}, true, false, "every key"},
	}
	for _, tt := range tests {
		s, err := Parse("d.yaml", datasetSpec(tt.client))
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		if tt.chat != (s.Clients[0].Session.Kind == KindChat) || s.Clients[0].Session.Turns != nil {
			t.Errorf("%s: session %+v", tt.reason, s.Clients[0].Session)
		}
		c := s.Clients[0]
		if *c.Dataset != tt.want || (c.Input != nil) != tt.input || (c.Output == nil) != tt.want.Replies {
			t.Errorf("%s: dataset %+v, input %v, output %v", tt.reason, *c.Dataset, c.Input, c.Output)
		}
		if !strings.Contains(string(s.Canonical()), "dataset: {path: ") {
			t.Errorf("%s: canonical form has no dataset:\n%s", tt.reason, s.Canonical())
		}
	}
}

func TestDatasetErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ client, want string }{
		{"    dataset: {format: csv}\n    output: 1\n", "missing key path"},
		{"    dataset: {path: a, fitt: trim}\n    output: 1\n", `unknown key (did you mean "fit"?)`},
		{"    dataset: {path: a, format: xml}\n    output: 1\n", "unknown dataset format"},
		{"    dataset: {path: a, order: random}\n    output: 1\n", "unknown order"},
		{"    dataset: {path: a}\n    input: 100\n    output: 1\n", "fit keep sends each prompt of the dataset as it is: remove input"},
		{"    dataset: {path: a, fit: trim}\n    output: 1\n", "missing key input"},
		{"    dataset: {path: a}\n", "missing key output"},
		{"    dataset: {path: a, min_input: 10, max_input: 5}\n    output: 1\n", "max_input 5 is below min_input 10"},
		{"    dataset: {path: a, format: sharegpt, field: q}\n    output: 1\n", "remove field"},
		{"    dataset: ''\n    output: 1\n", "the dataset path is empty"},
		{"    dataset: a\n    output: 1\n    session: {kind: rag}\n", "single requests or chat sessions"},
		{"    dataset: {path: a, fit: trim}\n    input: 9\n    output: 1\n    session: {kind: chat}\n", "chat sessions send a dataset's conversations as they are"},
		{"    dataset: a\n    output: 1\n    correlation: 0.5\n", "remove correlation"},
		{"    dataset: a\n    output: 1\n    fit: trim\n", "fit goes under dataset"},
		{"    dataset: a\n    output: 1\n    api: embeddings\n", "api embeddings embeds synthesised texts"},
		{"    dataset: a\n    output: 1\n    api: rerank\n", "api rerank scores synthesised documents: remove dataset"},
	}
	for _, tt := range tests {
		_, err := Parse("d.yaml", datasetSpec(tt.client))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.client, err, tt.want)
		}
	}
}
