package cli

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestExitCodes runs surge into each exit code that is not a plain
// success, end to end, each in a second or two: a spec error is 2 (in
// run as in validate), an unreachable target 3 before its schedule
// starts, a run that aborts on its errors 3 after recording them.
func TestExitCodes(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	invalid := writeSpec(t, tmp, "bad.yaml", "version: 1\nclients:\n  - {name: c, model: m, rate: fast, input: 10, output: 4}\n")
	quick := writeSpec(t, tmp, "quick.yaml", "version: 1\nrequests: 40\nclients:\n  - {name: c, model: m, rate: 100/s, input: 10, output: 4}\n")
	failing := httptest.NewServer(fakeServer{failEvery: 1, count: new(atomic.Int64)})
	defer failing.Close()
	tests := []struct {
		reason string
		args   []string
		code   int
		want   []string // on stderr
		ran    bool     // the schedule started: there are records
	}{
		{"validate: an invalid spec", []string{"validate", invalid}, exitUsage, []string{"bad.yaml:3:"}, false},
		{"run: an invalid spec", []string{"run", invalid}, exitUsage, []string{"bad.yaml:3:"}, false},
		{"run: nothing listens at the target", []string{"run", "../../examples/chat.yaml", "--target", "http://127.0.0.1:9"}, exitUnreachable,
			[]string{"http://127.0.0.1:9", "not reachable", "--no-preflight"}, false},
		{"sweep: nothing listens at the target", []string{"sweep", quick, "--rates", "5", "--target", "http://127.0.0.1:9", "-o", filepath.Join(tmp, "sweep")},
			exitUnreachable, []string{"http://127.0.0.1:9", "not reachable"}, false},
		{"run: a target that fails the preflight", []string{"run", quick, "--target", failing.URL}, exitUnreachable,
			[]string{failing.URL, "500", "--no-preflight"}, false},
		{"run: aborted on its errors", []string{"run", quick, "--target", failing.URL, "--no-preflight", "--max-error-rate", "0.5", "--no-scrape"}, exitUnreachable,
			[]string{"run aborted: 20 of the first 20 requests failed"}, true},
		{"run: an error rate out of range", []string{"run", quick, "--max-error-rate", "5"}, exitUsage, []string{"--max-error-rate 5"}, false},
	}
	for i, tt := range tests {
		dir := filepath.Join(tmp, "run", string(rune('a'+i)))
		args := tt.args
		if args[0] == "run" {
			args = append(args, "-o", dir)
		}
		code, _, errOut := run(t, args...)
		if code != tt.code {
			t.Errorf("%s: exit %d, want %d\n%s", tt.reason, code, tt.code, errOut)
		}
		for _, w := range tt.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", tt.reason, w, errOut)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "records.jsonl")); (err == nil) != tt.ran {
			t.Errorf("%s: records written %v, want %v", tt.reason, err == nil, tt.ran)
		}
	}
}

// TestRunProgressLog: with stderr not a terminal, a run prints a
// progress line every --progress, then the report, and last the paths
// of its bundle and report.html.
func TestRunProgressLog(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	spec := writeSpec(t, tmp, "s.yaml", "version: 1\nduration: 2s\nclients:\n  - {name: c, model: Llama-3.1-8B, rate: 10/s, input: 32, output: 4}\n")
	dir := filepath.Join(tmp, "run")
	code, out, errOut := run(t, "run", spec, "-o", dir, "--progress", "200ms")
	if code != exitOK || !strings.Contains(out, "requests") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	n := 0
	for l := range strings.Lines(errOut) {
		if strings.Contains(l, "% ") && strings.Contains(l, " sent ") {
			n++
		}
	}
	if n < 2 {
		t.Errorf("%d progress lines in a run of 2 s with one every 200 ms, want at least 2:\n%s", n, errOut)
	}
	last := "surge: bundle " + dir + ", report " + filepath.Join(dir, "report.html") + "\n"
	if !strings.HasSuffix(errOut, last) {
		t.Errorf("stderr does not end with %q:\n%s", last, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.html")); err != nil {
		t.Error(err)
	}
}
