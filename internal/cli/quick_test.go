package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"surge/bundle"
)

// TestQuickRun runs vllm bench serve's flags without a SPEC against the
// built-in engine, then the spec --print-spec writes for them, and checks
// that both send the same workload and that the bundle keeps the spec.
func TestQuickRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	flags := []string{"--random-input-len", "128", "--random-output-len", "4", "--request-rate", "400", "--num-prompts", "20", "--random-range-ratio", "0.5", "--seed", "7"}
	code, out, errOut := run(t, append([]string{"run", "-o", filepath.Join(dir, "quick")}, flags...)...)
	if code != exitOK || !strings.Contains(out, "TTFT") {
		t.Fatalf("quick run exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	quick := readRun(t, filepath.Join(dir, "quick"))
	if len(quick.Records) != 20 {
		t.Errorf("%d records, want --num-prompts 20", len(quick.Records))
	}
	code, printed, errOut := run(t, append([]string{"run", "--print-spec"}, flags...)...)
	if code != exitOK || !strings.Contains(printed, "seed: 7\n") || !strings.Contains(printed, "rate: 400/s") {
		t.Fatalf("--print-spec exit %d\nstdout:\n%s\nstderr:\n%s", code, printed, errOut)
	}
	path := writeSpec(t, dir, "bench.yaml", printed)
	if code, out, errOut = run(t, "run", path, "-o", filepath.Join(dir, "spec")); code != exitOK {
		t.Fatalf("run of the printed spec exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if h := readRun(t, filepath.Join(dir, "spec")).Header.WorkloadHash; h != quick.Header.WorkloadHash || h == "" {
		t.Errorf("the printed spec sends workload %s, the flags %s", h, quick.Header.WorkloadHash)
	}
	f, err := os.Open(filepath.Join(dir, "quick", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := bundle.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if m.Spec == nil || m.Spec.Resolved != printed || m.Spec.Given != printed {
		t.Errorf("manifest spec %+v, want the printed spec given and resolved", m.Spec)
	}
}

// TestQuickDataset runs the first requests of a BurstGPT file at a rate,
// as vllm bench serve's --dataset-name burstgpt does.
func TestQuickDataset(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "run")
	code, out, errOut := run(t, "run", "--dataset-name", "burstgpt", "--dataset-path", "../../trace/importers/testdata/burstgpt.csv",
		"--num-prompts", "5", "--request-rate", "100", "-o", dir)
	if code != exitOK || !strings.Contains(out, "TTFT") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	rs := readRun(t, dir)
	if len(rs.Records) != 5 || rs.Records[0].Model != "Llama-3.1-8B" {
		t.Errorf("%d records, the first %+v; want 5 of the built-in engine's model", len(rs.Records), rs.Records[0])
	}
}

func TestQuickErrors(t *testing.T) {
	t.Parallel()
	spec := writeSpec(t, t.TempDir(), "s.yaml", "version: 1\nrequests: 1\nclients: [{name: a, model: m, rate: 1/s, input: 1, output: 1}]\n")
	tests := []struct {
		reason string
		args   []string
		want   string
	}{
		{"a quick flag beside a SPEC", []string{"run", spec, "--request-rate", "5"}, "--request-rate build a workload of their own: give them without " + spec},
		{"neither a SPEC nor a quick flag", []string{"run"}, "give a SPEC or TRACE, or vllm bench serve's flags, e.g. surge run --random-input-len 1024"},
		{"two SPECs", []string{"run", spec, spec}, "accepts at most 1 arg"},
		{"an unknown flag suggests the nearest", []string{"run", "--request-rat", "5"}, "unknown flag: --request-rat; did you mean --request-rate?"},
		{"a dataset surge does not import as vllm names it", []string{"run", "--dataset-name", "hf"}, "--dataset-name hf: want random, sharegpt, burstgpt or mooncake"},
		{"a dataset without its file", []string{"run", "--dataset-name", "sharegpt"}, "--dataset-name sharegpt needs --dataset-path FILE"},
		{"a file without its dataset", []string{"run", "--dataset-path", "x.json"}, "--dataset-path needs --dataset-name"},
		{"random lengths beside a dataset", []string{"run", "--dataset-name", "burstgpt", "--dataset-path", "x.csv", "--random-input-len", "9"}, "--random-input-len does not apply to --dataset-name burstgpt"},
		{"a percentile the report does not show", []string{"run", "--num-prompts", "5", "--metric-percentiles", "75"}, "surge reports p50, p90, p95, p99 and p99.9 of every metric, not 75"},
		{"a metric vllm does not name", []string{"run", "--num-prompts", "5", "--percentile-metrics", "ttft,goodput"}, `unknown metric "goodput"`},
		{"a range ratio of 1", []string{"run", "--random-range-ratio", "1"}, "--random-range-ratio 1: want a ratio in [0, 1)"},
		{"a target without the model to send", []string{"run", "--num-prompts", "5", "--target", "http://127.0.0.1:9"}, "--model: name the model to send"},
	}
	for _, tt := range tests {
		code, out, errOut := run(t, tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) || out != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and %q", tt.reason, code, out, errOut, exitUsage, tt.want)
		}
	}
}
