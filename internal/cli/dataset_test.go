package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenDatasetExample runs surge gen on examples/dataset.yaml: its
// trace names the sample file's hash for each client and surge gen warns
// that the 24 prompts repeat.
func TestGenDatasetExample(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "t.jsonl")
	code, _, errOut := run(t, "gen", "../../examples/dataset.yaml", "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	header, _, _ := strings.Cut(string(b), "\n")
	if n := strings.Count(header, `"dataset":{"path":"data/conversations.json","format":"sharegpt","hash":"sha256:`); n != 3 {
		t.Errorf("the header names the dataset %d times, want 3:\n%s", n, header)
	}
	if !strings.Contains(errOut, `client "sharegpt": dataset ../../examples/data/conversations.json has 24 prompts for`) {
		t.Errorf("no warning that prompts repeat:\n%s", errOut)
	}
}
