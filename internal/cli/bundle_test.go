package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"surge/bundle"
)

const bundleSpec = `version: 1
seed: 4
requests: 30
slo:
  ttft: {p90: 2s}
clients:
  - name: web
    model: Llama-3.1-8B
    rate: 40/s
    input: 100
    output: 8
`

// TestBundle runs a workload against the built-in engine with a password
// in the target URL and an API key in the environment, then checks the
// bundle: neither secret in any file; the manifest's workload hash is
// the one surge inspect computes of trace.jsonl; inspect checks every
// file; and the bundle copied elsewhere re-renders to the identical
// report.json; the engine's metrics were scraped and its TTFT set beside
// the client's. It sets an environment variable, so it does not run in
// parallel.
func TestBundle(t *testing.T) {
	const password, key = "hunter2-pw", "sk-test-0123456789"
	t.Setenv("SURGE_TEST_BUNDLE_KEY", key)
	tmp := t.TempDir()
	spec := writeSpec(t, tmp, "web.yaml", bundleSpec)
	target := strings.Replace(startEngine(t), "http://", "http://alice:"+password+"@", 1)
	dir := filepath.Join(tmp, "run")
	if code, out, e := run(t, "run", spec, "--target", target, "--api-key-env", "SURGE_TEST_BUNDLE_KEY", "-o", dir); code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", code, out, e)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{password, key, "alice"} {
			if strings.Contains(string(data), secret) {
				t.Errorf("%s holds the secret %q", e.Name(), secret)
			}
		}
	}
	if _, ok := readManifest(t, dir).Files[bundle.ServerMetricsFile]; !ok {
		t.Errorf("the bundle has no %s", bundle.ServerMetricsFile)
	}
	if text, _ := os.ReadFile(filepath.Join(dir, "report.txt")); !strings.Contains(string(text), "ttft  vllm:time_to_first_token_seconds") {
		t.Errorf("report.txt does not set the engine's TTFT beside the client's:\n%s", text)
	}
	m := readManifest(t, dir)
	if m.Server == nil || m.Server.Model != "Llama-3.1-8B" || m.Spec == nil || m.Spec.Given != bundleSpec || len(m.Command) < 4 {
		t.Errorf("manifest: %+v", m)
	}
	code, out, e := run(t, "inspect", filepath.Join(dir, "trace.jsonl"), "--json")
	var sum struct {
		WorkloadHash string `json:"workload_hash"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &sum) != nil || sum.WorkloadHash != m.WorkloadHash {
		t.Errorf("inspect of trace.jsonl: exit %d, hash %q; manifest %q\n%s", code, sum.WorkloadHash, m.WorkloadHash, e)
	}
	if code, out, e := run(t, "inspect", dir); code != exitOK || !strings.Contains(out, "(trace.jsonl matches)") || strings.Contains(out, "✗") {
		t.Errorf("inspect of the bundle: exit %d\n%s%s", code, out, e)
	}
	moved := filepath.Join(tmp, "elsewhere")
	if err := os.CopyFS(moved, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	code, again, e := run(t, "report", moved, "--format", "json")
	want, _ := os.ReadFile(filepath.Join(dir, "report.json"))
	if code != exitOK || again != string(want) {
		t.Errorf("report of the moved bundle: exit %d, %d bytes, report.json has %d\n%s", code, len(again), len(want), e)
	}
	// A changed file fails the check.
	if err := os.WriteFile(filepath.Join(moved, "records.jsonl"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, e := run(t, "inspect", moved); code != exitFailure || !strings.Contains(e, "records.jsonl") {
		t.Errorf("inspect of a tampered bundle: exit %d, %s", code, e)
	}
}

func readManifest(t *testing.T, dir string) *bundle.Manifest {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, bundle.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := bundle.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
