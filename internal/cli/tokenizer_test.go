package cli

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOpenTokenizer(t *testing.T) {
	t.Parallel()
	rel := filepath.Join("..", "..", "content", "testdata", "hf", "tiny.json")
	abs, err := filepath.Abs(rel)
	if err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(t.TempDir(), "Tiny-Model")
	data, err := os.ReadFile(rel)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(model, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(model, "tokenizer.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ arg, reason, want string }{
		{"cl100k_base", "a built-in", "cl100k_base"},
		{rel, "a relative path through ..", "hf:tiny"},
		{abs, "an absolute path", "hf:tiny"},
		{model, "a model directory", "hf:Tiny-Model"},
	} {
		tok, err := openTokenizer(tc.arg)
		if err != nil {
			t.Errorf("%s: openTokenizer(%q): %v", tc.reason, tc.arg, err)
			continue
		}
		if tok.Name() != tc.want {
			t.Errorf("%s: openTokenizer(%q).Name() = %q, want %q", tc.reason, tc.arg, tok.Name(), tc.want)
		}
	}
	if _, err := openTokenizer(filepath.Join(t.TempDir(), "none.json")); err == nil {
		t.Error("a missing file opened")
	}
}
