package harness

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"surge/fit"
	"surge/trace/importers"
)

// TestDriftSharedTraces fits a spec to the first half hour of Azure's
// conversation trace and grades the second half against it (a little
// drift: it passes), then grades the same half hour against a spec fitted
// to Azure's coding trace (another service: its rate, gaps and lengths
// are all off, and the report fails).
func TestDriftSharedTraces(t *testing.T) {
	t.Parallel()
	root := filepath.Join(sharedTraces, "azure-llm-2023")
	if _, err := os.Stat(root); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the shared traces are missing in CI: %v", err)
		}
		t.Skipf("shared traces not available: %v", err)
	}
	fsys := os.DirFS("/")
	rel := func(p string) string { return strings.TrimPrefix(p, "/") }
	conv, code := rel(filepath.Join(root, "AzureLLMInferenceTrace_conv.csv")), rel(filepath.Join(root, "AzureLLMInferenceTrace_code.csv"))
	dir := t.TempDir()
	fitTo := func(file string, from, to time.Duration) string {
		_, _, y := fitFiles(t, fsys, []string{file}, importers.ImportOptions{Reshape: importers.Reshape{From: from, To: to}}, "fitted")
		p := filepath.Join(dir, filepath.Base(file)+".yaml")
		if err := os.WriteFile(p, y, 0o644); err != nil {
			t.Fatal(err)
		}
		return rel(p)
	}
	second := importers.ImportOptions{Reshape: importers.Reshape{From: 30 * time.Minute}}
	for _, tc := range []struct {
		name, spec string
		drift      bool
		off        []string // measures that must be off
	}{
		{"same trace, next half hour", fitTo(conv, 0, 30*time.Minute), false, nil},
		{"another trace", fitTo(code, 0, 0), true, []string{fit.DriftRate, fit.DriftCV, fit.DriftInput, fit.DriftOutput}},
	} {
		opts := FitOptions{Import: second, Drift: DriftOptions{Against: tc.spec, Bounds: fit.DefaultDriftBounds, JSON: true}}
		out, err := Drift(context.Background(), fsys, []string{conv}, opts)
		if (err != nil) != tc.drift {
			t.Errorf("%s: error %v, want drift %v\n%s", tc.name, err, tc.drift, out)
		}
		var r fit.DriftReport
		if jerr := json.Unmarshal(out, &r); jerr != nil || len(r.Clients) != 1 {
			t.Fatalf("%s: the JSON report %s: %v", tc.name, out, jerr)
		}
		for _, m := range r.Clients[0].Measures {
			t.Logf("%s: %s log %.4g spec %.4g distance %.3f bound %.3f", tc.name, m.Name, m.Log, m.Spec, m.Distance, m.Bound)
			if want := strings.Contains(strings.Join(tc.off, ","), m.Name); m.Off != want {
				t.Errorf("%s: %s off %v, want %v", tc.name, m.Name, m.Off, want)
			}
		}
	}
}
