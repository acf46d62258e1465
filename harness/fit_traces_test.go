package harness

import (
	"context"
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"

	"surge/fit"
	"surge/spec"
	"surge/trace/importers"
)

// sharedTraces is the folder of public traces the team shares.
const sharedTraces = "/work/shared/traces"

// fitTraceLimit is how many sessions of each shared file the fits read,
// to keep the test short.
const fitTraceLimit = 300

// TestFitSharedTraces imports and fits every file of the shared traces,
// the first fitTraceLimit sessions of each: each either gives a spec
// that parses, or is a file that holds no requests (a ServeGen client's
// length laws) and is refused saying so; the WEKA summary CSV, which
// holds none either, is fitted from what its rows imply. None may
// fail otherwise, or panic. Without the folder the test is skipped, but
// fails in CI (CI=true), where the traces must be present.
func TestFitSharedTraces(t *testing.T) {
	t.Parallel()
	fsys := os.DirFS(sharedTraces)
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(".csv.json.jsonl", path.Ext(p)) && path.Ext(p) != "" {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the shared traces are missing in CI: %v (%d files)", err, len(files))
		}
		t.Skipf("shared traces not available at %s: %v", sharedTraces, err)
	}
	refused := map[string]string{
		"-dataset.json": "a ServeGen client's length laws",
	}
	for _, name := range files {
		err := fitOne(fsys, name)
		want := ""
		for suffix, msg := range refused {
			if strings.HasSuffix(name, suffix) {
				want = msg
			}
		}
		if err != nil && strings.Contains(err.Error(), "the files hold no requests") && silent(t, fsys, name) {
			continue // a ServeGen client without traffic in the 14 days
		}
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: %v, want a refusal saying %q", name, err, want)
		}
	}
}

// silent reports whether name is a ServeGen window CSV whose every window
// has rate 0.
func silent(t *testing.T, fsys fs.FS, name string) bool {
	data, err := fs.ReadFile(fsys, name)
	if err != nil || !strings.Contains(name, "servegen") {
		return false
	}
	for line := range strings.Lines(string(data)) {
		if f := strings.Split(line, ","); len(f) < 2 || strings.Trim(f[1], "0.") != "" {
			return false
		}
	}
	t.Logf("%s: no traffic in any window", name)
	return true
}

// fitOne fits the first sessions of one file and parses the spec.
func fitOne(fsys fs.FS, name string) error {
	tr, err := FitTraffic(context.Background(), fsys, []string{name}, importers.ImportOptions{Reshape: importers.Reshape{Limit: fitTraceLimit}}, "")
	if err != nil {
		return err
	}
	clients, err := fit.Clients(tr, false)
	if err != nil {
		return err
	}
	y, err := fit.Spec(name, clients)
	if err != nil {
		return err
	}
	_, err = spec.Parse(name, y)
	return err
}
