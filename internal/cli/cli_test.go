package cli

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"surge/trace"
)

var update = flag.Bool("update", false, "rewrite golden files")

// run runs surge with args and returns its exit code, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// writeSpec writes text to dir/name and returns the path.
func writeSpec(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (rerun with -update if intended):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestValidateReportsEveryMistake(t *testing.T) {
	t.Parallel()
	code, out, errOut := run(t, "validate", "testdata/three-mistakes.yaml")
	if code != exitUsage || out != "" {
		t.Errorf("exit %d, stdout %q; want exit 2 (a spec error) and nothing on stdout", code, out)
	}
	golden(t, "three-mistakes.stderr", errOut)
	if n := len(regexp.MustCompile(`(?m)^testdata/three-mistakes.yaml:\d+:\d+: `).FindAllString(errOut, -1)); n != 3 {
		t.Errorf("%d positioned errors, want 3:\n%s", n, errOut)
	}
}

func TestValidateExamples(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../examples/*.yaml")
	if len(files) < 3 {
		t.Fatalf("found %d examples, want at least 3", len(files))
	}
	code, out, errOut := run(t, append([]string{"validate"}, files...)...)
	if code != exitOK || strings.Count(out, ": ok") != len(files) {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

func TestGenInspect(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	code, _, genErr := run(t, "gen", "testdata/small.yaml", "-o", a)
	if code != exitOK {
		t.Fatalf("gen exit %d: %s", code, genErr)
	}
	if code, _, e := run(t, "gen", "testdata/small.yaml", "-o", b); code != exitOK {
		t.Fatalf("second gen exit %d: %s", code, e)
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if len(da) == 0 || !bytes.Equal(da, db) {
		t.Fatal("two gens of the same spec and seed differ")
	}
	hash := regexp.MustCompile(`workload (sha256:[0-9a-f]{64})`).FindStringSubmatch(genErr)
	if hash == nil {
		t.Fatalf("gen did not print the workload hash: %q", genErr)
	}
	code, out, errOut := run(t, "inspect", a)
	if code != exitOK {
		t.Fatalf("inspect exit %d: %s", code, errOut)
	}
	for _, want := range []string{"workload   " + hash[1], "sessions   200 (200 requests)", "chat", "api", "input tokens (log bins)"} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect output lacks %q:\n%s", want, out)
		}
	}
	code, js, _ := run(t, "inspect", "--json", a)
	if code != exitOK || !strings.Contains(js, `"workload_hash": "`+hash[1]+`"`) {
		t.Errorf("inspect --json exit %d:\n%s", code, js)
	}
}

func TestGenOverrides(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "t.jsonl")
	code, _, e := run(t, "gen", "testdata/small.yaml", "--requests", "50", "--seed", "5", "--no-text", "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, e)
	}
	data, _ := os.ReadFile(out)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 51 || !strings.Contains(lines[0], `"seed":5`) || strings.Contains(string(data), `"prompt"`) {
		t.Errorf("got %d lines, header %s", len(lines), lines[0])
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		args   []string
		code   int
		want   string
	}{
		{"gen needs a spec", []string{"gen"}, exitUsage, "accepts 1 arg"},
		{"counts are numbers", []string{"gen", "testdata/small.yaml", "--requests", "lots"}, exitUsage, "--requests"},
		{"a zero count would silently keep the spec's", []string{"gen", "testdata/small.yaml", "--requests", "0"}, exitUsage, "positive count"},
		{"a zero duration likewise", []string{"gen", "testdata/small.yaml", "--duration", "0s"}, exitUsage, "positive duration"},
		{"unknown flags are usage errors", []string{"gen", "x.yaml", "--bogus"}, exitUsage, "unknown flag"},
		{"validate needs a spec", []string{"validate"}, exitUsage, "at least one spec"},
		{"a missing spec names the file", []string{"gen", "testdata/does-not-exist.yaml"}, exitFailure, "no such file"},
		{"a missing output folder names the folder, not a temp file", []string{"gen", "testdata/small.yaml", "-o", "no/such/dir/t.jsonl"}, exitFailure, "folder no/such/dir does not exist"},
		{"a spec is not a trace", []string{"inspect", "testdata/small.yaml"}, exitFailure, "testdata/small.yaml:1: header"},
	}
	for _, tt := range tests {
		code, _, errOut := run(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("%s: surge %v: exit %d, stderr %q; want exit %d and %q", tt.reason, tt.args, code, errOut, tt.code, tt.want)
		}
	}
}

// TestInspectGolden pins inspect's text output for a small trace.
func TestInspectGolden(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "small.jsonl")
	if code, _, e := run(t, "gen", "testdata/small.yaml", "-o", out); code != exitOK {
		t.Fatalf("gen exit %d: %s", code, e)
	}
	code, text, e := run(t, "inspect", out)
	if code != exitOK {
		t.Fatalf("inspect exit %d: %s", code, e)
	}
	golden(t, "small.inspect", strings.Replace(text, out, "small.jsonl", 1))
}

func TestVersion(t *testing.T) {
	t.Parallel()
	code, out, _ := run(t, "version")
	if code != exitOK || !strings.HasPrefix(out, "surge ") || !strings.Contains(out, "go1.") {
		t.Errorf("version: exit %d, %q", code, out)
	}
}

// readRun reads the records a run wrote to dir.
func readRun(t *testing.T, dir string) *trace.Records {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rs, err := trace.ReadRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}
