package harness_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"surge/bundle"
	"surge/content"
	"surge/content/dataset"
	"surge/harness"
	"surge/trace"
)

// genTrace runs harness.Gen (surge gen) on the spec at name, from the
// repository's root, and reads the trace back.
func genTrace(t *testing.T, name string) (trace.Header, []*trace.Session) {
	t.Helper()
	var buf bytes.Buffer
	if _, err := harness.Gen(context.Background(), &buf, os.DirFS(".."), name, harness.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	r, err := trace.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var ss []*trace.Session
	for {
		s, err := r.Read()
		if err != nil {
			break
		}
		ss = append(ss, s)
	}
	return r.Header, ss
}

// TestGenDataset checks the prompts of surge gen over a spec with a
// ShareGPT dataset: each client names the file's hash; the keep client
// sends the file's first human messages as they are, the trim client
// sends starts of them exactly as long as input_tokens says, by a fresh
// encoding.
func TestGenDataset(t *testing.T) {
	t.Parallel()
	h, ss := genTrace(t, "harness/testdata/dataset-sharegpt.yaml")
	set, err := dataset.Read(os.DirFS("../content/dataset/testdata"), "sharegpt.json", dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range h.Clients {
		if c.Dataset == nil || c.Dataset.Hash != set.Hash {
			t.Errorf("client %s: header dataset %+v, want hash %s", c.Name, c.Dataset, set.Hash)
		}
	}
	tok, err := content.Builtin("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	firsts := map[string]bool{}
	for _, e := range set.Entries {
		firsts[e.Turns[0].Prompt] = true
	}
	counts := map[string]int{}
	for _, s := range ss {
		counts[s.Client]++
		tt := s.Turns[0]
		if got := len(tok.Encode(tt.Prompt)) + len(tok.Encode(tt.System)); got != tt.InputTokens {
			t.Errorf("%s session %d: %d tokens, input_tokens %d: %q", s.Client, s.Index, got, tt.InputTokens, tt.Prompt)
		}
		switch s.Client {
		case "keep":
			if !firsts[tt.Prompt] {
				t.Errorf("keep session %d: %q is no prompt of the file", s.Index, tt.Prompt)
			}
		case "trim":
			if n := tt.InputTokens - tt.SystemTokens; n < 2 || n > 9 || !startsOne(tt.Prompt, firsts) {
				t.Errorf("trim session %d: %d tokens, %q", s.Index, n, tt.Prompt)
			}
		}
	}
	if counts["keep"] != 20 || counts["trim"] != 20 {
		t.Errorf("sessions by client %v, want 20 each", counts)
	}
}

// TestGenParquet checks surge gen over a spec with a Parquet dataset: the
// keep client sends the column's strings as they are, the exact client
// each of them trimmed or padded to its input_tokens, by a fresh encoding.
func TestGenParquet(t *testing.T) {
	t.Parallel()
	h, ss := genTrace(t, "harness/testdata/dataset-parquet.yaml")
	set, err := dataset.Read(os.DirFS("../content/dataset/testdata"), "prompts.parquet", dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := h.Clients[1].Dataset; d == nil || d.Hash != set.Hash || d.Format != "parquet" || d.Fit != "exact" {
		t.Errorf("header dataset %+v, want the file's hash %s", d, set.Hash)
	}
	tok, err := content.Builtin("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	prompts := map[string]bool{}
	for _, e := range set.Entries {
		prompts[e.Turns[0].Prompt] = true
	}
	for _, s := range ss {
		tt := s.Turns[0]
		if got := len(tok.Encode(tt.Prompt)); got != tt.InputTokens {
			t.Errorf("%s session %d: %d tokens, input_tokens %d: %q", s.Client, s.Index, got, tt.InputTokens, tt.Prompt)
		}
		ok := prompts[tt.Prompt]
		if s.Client == "exact" {
			ok = tt.InputTokens >= 4 && tt.InputTokens <= 40 && (startsOne(tt.Prompt, prompts) || startsWithOne(tt.Prompt, prompts))
		}
		if !ok {
			t.Errorf("%s session %d: %q is not made from the file's prompts", s.Client, s.Index, tt.Prompt)
		}
	}
	if len(ss) != 30 {
		t.Errorf("%d sessions, want 30", len(ss))
	}
}

// TestBundleDatasets checks that a run's manifest names the dataset files
// of its trace's clients.
func TestBundleDatasets(t *testing.T) {
	t.Parallel()
	w, err := harness.Load(context.Background(), os.DirFS(".."), "harness/testdata/dataset-parquet.yaml", harness.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := harness.NewVirtual(harness.Engine{Model: "llama-3.1-8b", GPU: harness.DefaultEngineGPU, TP: 1}, 1, "round-robin")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := harness.Run(context.Background(), harness.Config{Workload: w, Virtual: v, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, bundle.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := bundle.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"keep", "exact"} {
		if d := m.Datasets[c]; d == nil || d.Hash != w.Header.Clients[0].Dataset.Hash || d.Format != "parquet" {
			t.Errorf("manifest dataset of %s: %+v", c, d)
		}
	}
}

// startsWithOne reports whether one of texts begins s.
func startsWithOne(s string, texts map[string]bool) bool {
	for text := range texts {
		if strings.HasPrefix(s, text) {
			return true
		}
	}
	return false
}

// startsOne reports whether s begins one of texts, but for the mark a
// cut may end in (content.Trim).
func startsOne(s string, texts map[string]bool) bool {
	for _, m := range []string{"…", "...", "."} {
		if t, ok := strings.CutSuffix(s, m); ok {
			s = t
			break
		}
	}
	for text := range texts {
		if strings.HasPrefix(text, s) {
			return true
		}
	}
	return false
}
