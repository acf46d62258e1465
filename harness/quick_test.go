package harness

import (
	"context"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"surge/spec"
)

func TestQuickCheck(t *testing.T) {
	t.Parallel()
	ok := spec.BenchOptions{Model: "m", NumPrompts: 4}
	for _, tt := range []struct {
		q    Quick
		want string // "" for no error
	}{
		{Quick{Bench: ok}, ""},
		{Quick{Bench: ok, Dataset: "random"}, ""},
		{Quick{Bench: ok, Dataset: "burstgpt", Path: "b.csv"}, ""},
		{Quick{Bench: ok, Path: "b.csv"}, "--dataset-path needs --dataset-name"},
		{Quick{Bench: ok, Dataset: "azure", Path: "a.csv"}, "--dataset-name azure: want random"},
		{Quick{Bench: ok, Dataset: "sharegpt"}, "needs --dataset-path"},
		{Quick{Bench: spec.BenchOptions{Model: "m", NumPrompts: -1}}, "--num-prompts"},
	} {
		err := tt.q.Check()
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%+v: Check() = %v, want %q", tt.q, err, tt.want)
		}
	}
}

// TestQuickLoad: the random dataset compiles to its spec's workload, with
// the edit applied and the canonical spec kept; a dataset is imported.
func TestQuickLoad(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../trace/importers/testdata/burstgpt.csv")
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{"b.csv": {Data: data}}
	q := Quick{Bench: spec.BenchOptions{Model: "m", InputLen: 64, OutputLen: 8, NumPrompts: 6, RequestRate: 5}}
	w, err := q.Load(context.Background(), fsys, func(s *spec.Spec) error { s.Requests = 3; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Sessions) != 3 || w.Sessions[0].Turns[0].InputTokens != 64 || len(w.SpecText) == 0 || w.Spec == nil {
		t.Errorf("random: %d sessions, %d input tokens, spec text %d bytes", len(w.Sessions), w.Sessions[0].Turns[0].InputTokens, len(w.SpecText))
	}
	q.Dataset, q.Path = "burstgpt", "b.csv"
	d, err := q.Load(context.Background(), fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Sessions) != 6 || d.SpecPath != "b.csv" {
		t.Errorf("dataset: %d sessions of %s, want the first 6 of b.csv", len(d.Sessions), d.SpecPath)
	}
	if _, err := (Quick{Bench: q.Bench, Dataset: "sharegpt"}).Load(context.Background(), fsys, nil); !as[ConfigError](err) {
		t.Errorf("a dataset without its file: %v, want a ConfigError", err)
	}
}
