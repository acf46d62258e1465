package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateLimits checks that validate refuses impossible values and
// specs past the size or nesting bound with their positions, and says ok
// with warnings to absurd but legal ones (it said ok to 1e18 requests,
// 1e9/s and a 100-year duration, and ran out of memory on nesting).
func TestValidateLimits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const client = "clients:\n  - {name: a, model: m, rate: 5/s, input: 10, output: 10}\n"
	tests := []struct {
		name, text string
		code       int
		stdout     string // a piece of it
		stderr     string // a piece of it
	}{
		{"requests.yaml", "version: 1\nrequests: 1e18\n" + client, exitUsage, "", "requests.yaml:2:11: requests: requests 1000000000000000000 is more than 1000000000 (spec.MaxRequests)"},
		{"rate.yaml", "version: 1\nduration: 1m\nrate: 1e9/s\nclients:\n  - {name: a, model: m, input: 10, output: 10}\n", exitUsage, "", "rate.yaml:3:7: rate: 1e+09/s is above a million a second"},
		{"century.yaml", "version: 1\nduration: 876000h\n" + client, exitUsage, "", "century.yaml:2:11: duration: 876000h is longer than a year"},
		{"nested.yaml", "version: 1\nclients: " + strings.Repeat("[", 100_000), exitUsage, "", "nested.yaml:2:73: spec nests more than 64 levels deep here (spec.MaxDepth)"},
		{"season.yaml", "version: 1\nduration: 2400h\n" + client, exitOK, "season.yaml: ok (1 client, 1 warning)", "season.yaml:2:11: warning: duration: a run of 2400h, over a month"},
		{"plain.yaml", "version: 1\nduration: 10m\n" + client, exitOK, "plain.yaml: ok (1 client)\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := writeSpec(t, dir, tt.name, tt.text)
			code, out, errOut := run(t, "validate", path)
			out = strings.ReplaceAll(out, filepath.Dir(path)+string(filepath.Separator), "")
			errOut = strings.ReplaceAll(errOut, filepath.Dir(path)+string(filepath.Separator), "")
			if code != tt.code || !strings.Contains(out, tt.stdout) || !strings.Contains(errOut, tt.stderr) || (tt.stderr == "" && errOut != "") {
				t.Errorf("exit %d\nstdout: %s\nstderr: %s\nwant exit %d, stdout with %q, stderr with %q", code, out, errOut, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}
