package content

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestOpen(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "Tiny-Model")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(tinyPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		arg, reason, wantName string
	}{
		{"o200k_base", "a built-in name", "o200k_base"},
		{"cl100k_base", "the other built-in", "cl100k_base"},
		{tinyPath, "a tokenizer.json file, named after the file", "hf:tiny"},
		{filepath.Join(dir, "tokenizer.json"), "a file in a model directory, named after the directory", "hf:Tiny-Model"},
		{dir, "a model directory holding tokenizer.json", "hf:Tiny-Model"},
	}
	for _, tc := range tests {
		tok, err := Open(tc.arg)
		if err != nil {
			t.Errorf("%s: Open(%q): %v", tc.reason, tc.arg, err)
			continue
		}
		if tok.Name() != tc.wantName {
			t.Errorf("%s: Open(%q).Name() = %q, want %q", tc.reason, tc.arg, tok.Name(), tc.wantName)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	tests := []struct {
		arg, reason, want string
	}{
		{"llama3", "neither a built-in nor a file",
			`tokenizer "llama3": not a built-in (o200k_base, cl100k_base) and no file at that path`},
		{empty, "a directory without tokenizer.json", "not a built-in (o200k_base, cl100k_base) and no file at that path"},
		{filepath.Join("testdata", "hf", "gen_vectors.mjs"), "a file that is not JSON", "tokenizer.json: invalid character"},
	}
	for _, tc := range tests {
		_, err := Open(tc.arg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Open(%q) error %v, want one containing %q", tc.reason, tc.arg, err, tc.want)
		}
	}
}

func TestBuiltinNamesLoad(t *testing.T) {
	t.Parallel()
	// builtinNames must stay in step with Builtin's table.
	for _, name := range builtinNames() {
		if _, err := Builtin(name); err != nil {
			t.Errorf("builtinNames lists %q but Builtin fails: %v", name, err)
		}
	}
	if len(builtins) != len(builtinNames()) {
		t.Errorf("Builtin knows %d encodings, builtinNames lists %d", len(builtins), len(builtinNames()))
	}
}

func TestOpenFS(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(tinyPath)
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{
		"tiny.json":                        {Data: data},
		"models/Tiny-Model/tokenizer.json": {Data: data},
		"models/empty/README":              {Data: []byte("no tokenizer here")},
		"bad.json":                         {Data: []byte("{")},
	}
	for _, tc := range []struct {
		arg, reason, wantName, wantErr string
	}{
		{"o200k_base", "a built-in name, whatever fsys holds", "o200k_base", ""},
		{"tiny.json", "a tokenizer.json file, named after the file", "hf:tiny", ""},
		{"models/Tiny-Model/tokenizer.json", "a file in a model directory, named after the directory", "hf:Tiny-Model", ""},
		{"models/Tiny-Model", "a model directory holding tokenizer.json", "hf:Tiny-Model", ""},
		{"models/empty", "a directory without tokenizer.json", "", "not a built-in (o200k_base, cl100k_base) and no file at that path"},
		{"llama3", "neither a built-in nor a file", "", `tokenizer "llama3": not a built-in`},
		{"bad.json", "a file that is not a tokenizer.json", "", "loading tokenizer bad.json: "},
	} {
		tok, err := OpenFS(fsys, tc.arg)
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: OpenFS(%q) error %v, want one containing %q", tc.reason, tc.arg, err, tc.wantErr)
			}
		case err != nil:
			t.Errorf("%s: OpenFS(%q): %v", tc.reason, tc.arg, err)
		case tok.Name() != tc.wantName:
			t.Errorf("%s: OpenFS(%q).Name() = %q, want %q", tc.reason, tc.arg, tok.Name(), tc.wantName)
		}
	}
}

func TestReadHFMatchesLoadHF(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(tinyPath)
	if err != nil {
		t.Fatal(err)
	}
	read, err := ReadHF(bytes.NewReader(data), "Tiny-Model/tokenizer.json")
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadHF(tinyPath)
	if err != nil {
		t.Fatal(err)
	}
	if read.Name() != "hf:Tiny-Model" {
		t.Errorf("Name() = %q, want hf:Tiny-Model (after the directory)", read.Name())
	}
	if r, l := read.(*hfTokenizer).Hash(), loaded.(*hfTokenizer).Hash(); r != l {
		t.Errorf("Hash() = %q from a reader, %q from the file", r, l)
	}
	const text = "Hello, world! 123 tokens"
	if got, want := read.Encode(text), loaded.Encode(text); !slices.Equal(got, want) {
		t.Errorf("Encode(%q) = %v from a reader, %v from the file", text, got, want)
	}
}
