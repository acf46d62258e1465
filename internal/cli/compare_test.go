package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"surge/harness"
	"surge/metrics/compare"
)

// runCompareCmd runs surge compare ARGS and returns the exit code, stdout
// and stderr as Main would. It registers the command on the root when
// the root does not have it yet, then maps errors to exit codes as Main
// does; once newRoot registers newCompare, run(t, "compare", …) is the
// same.
func runCompareCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRoot(strings.NewReader(""), &out, &errOut)
	if c, _, err := root.Find([]string{"compare"}); err != nil || c == root {
		root.AddCommand(newCompare())
	}
	root.SetArgs(append([]string{"compare"}, args...))
	err := root.ExecuteContext(context.Background())
	code := exitOK
	if err != nil {
		errOut.WriteString("surge: " + err.Error() + "\n")
		code = exitFailure
		var usage usageError
		if errors.As(err, &usage) {
			code = exitUsage
		}
	}
	return code, out.String(), errOut.String()
}

// simRun runs surge sim on examples/chat.yaml for 120 s of schedule
// (about 460 measured requests, enough for p99 intervals) with the
// extra flags and returns the run directory.
func simRun(t *testing.T, dir, name string, flags ...string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	args := append([]string{"sim", "../../examples/chat.yaml", "--model", "llama-3.1-8b", "--duration", "120s", "-o", out}, flags...)
	if code, stdout, stderr := run(t, args...); code != exitOK {
		t.Fatalf("surge %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, stdout, stderr)
	}
	return out
}

// TestCompareSimRuns is the acceptance test: two runs of one workload on
// one engine show no significant change on any row and pass their gates;
// a run on a slower engine (an H100 against an H200: less memory
// bandwidth, so slower decoding) is a significant regression and
// --fail-on exits 1 naming the gate.
func TestCompareSimRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base := simRun(t, dir, "base", "--gpu", "h200")
	again := simRun(t, dir, "again", "--gpu", "h200")
	slower := simRun(t, dir, "slower", "--gpu", "h100")
	gates := "--fail-on=tpot.p50:+10%,e2e.p90:+10%,output_throughput:-5%"

	code, out, errOut := runCompareCmd(t, base, again, gates, "--format", "json")
	if code != exitOK {
		t.Fatalf("same engine: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	var same compare.Result
	if err := json.Unmarshal([]byte(out), &same); err != nil {
		t.Fatal(err)
	}
	if len(same.Rows) < 20 || len(same.Gates) != 3 {
		t.Fatalf("same engine: %d rows, %d gates", len(same.Rows), len(same.Gates))
	}
	for _, r := range same.Rows {
		if r.Significant || !r.Judged() {
			t.Errorf("same engine: %s significant %v, judged %v (%s)", r.Name(), r.Significant, r.Judged(), r.Note)
		}
	}

	code, out, errOut = runCompareCmd(t, base, slower, gates)
	t.Logf("slower engine:\n%s%s", out, errOut)
	if code != exitFailure {
		t.Fatalf("slower engine: exit %d, want %d", code, exitFailure)
	}
	for _, want := range []string{"tpot.p50:+10% fail", "e2e.p90:+10% fail"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "output_throughput:-5% ") {
		t.Errorf("throughput gate failed: an open-loop workload completes the same requests:\n%s", errOut)
	}
	for _, want := range []string{"tpot.p50", "FAIL", "PASS", "built-in engines differ: gpu: base H200"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
}

// TestCompareWorkloads: runs of different workloads are refused, and
// compared when allowed, with the output saying so.
func TestCompareWorkloads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := simRun(t, dir, "a", "--gpu", "h100", "--duration", "20s")
	b := simRun(t, dir, "b", "--gpu", "h100", "--duration", "20s", "--seed", "7")
	code, _, errOut := runCompareCmd(t, a, b)
	if code != exitFailure || !strings.Contains(errOut, "different workloads") || !strings.Contains(errOut, "--allow-different-workload") {
		t.Errorf("different workloads: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut := runCompareCmd(t, a, b, "--allow-different-workload", "--format", "markdown")
	if code != exitOK || !strings.Contains(out, "**Warning: different workloads**") || !strings.Contains(out, "| ttft.p50 |") {
		t.Errorf("allowed: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

func TestCompareUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		args   []string
		code   int
		want   string
	}{
		{"two runs are needed", []string{"a"}, exitUsage, "accepts 2 arg"},
		{"an unknown gate metric is named", []string{"a", "b", "--fail-on", "tft.p99:+10%"}, exitUsage, `unknown metric "tft"`},
		{"a gate needs a sign", []string{"a", "b", "--fail-on", "ttft.p99:10%"}, exitUsage, "needs a sign"},
		{"alpha is a level", []string{"a", "b", "--alpha", "5"}, exitUsage, "--alpha 5"},
		{"formats are listed", []string{"a", "b", "--format", "html"}, exitUsage, "text, markdown or json"},
		{"a missing run is a plain failure", []string{"nowhere", "b"}, exitFailure, "reading records"},
	}
	for _, tt := range tests {
		code, _, errOut := runCompareCmd(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", tt.reason, code, errOut, tt.code, tt.want)
		}
	}
}

// TestCompareSelfUnjudgedGate: a 100-request run compared with itself
// passes a p99 gate it has too few requests to judge (exit 0, the gate
// shown as unjudged); --fail-on-unjudged makes the same gate fail.
func TestCompareSelfUnjudgedGate(t *testing.T) {
	t.Parallel()
	a := simRun(t, t.TempDir(), "a", "--gpu", "h100", "--duration", "600s", "--requests", "100")
	code, out, errOut := runCompareCmd(t, a, a, "--fail-on", "ttft.p99:+10%")
	if code != exitOK || !strings.Contains(out, "UNJUDGED") || !strings.Contains(out, "1 unjudged, not counted") {
		t.Errorf("a run against itself: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	code, _, errOut = runCompareCmd(t, a, a, "--fail-on", "ttft.p99:+10%", "--fail-on-unjudged")
	if code != exitFailure || !strings.Contains(errOut, "ttft.p99:+10% unjudged") {
		t.Errorf("--fail-on-unjudged: exit %d, stderr %q; want 1 naming the gate", code, errOut)
	}
}

// TestCompareBuiltinEngineRuns: two surge runs of the built-in engine
// (each on a random loopback port) compare by engine, not by address;
// one with another --max-num-seqs is named by that flag.
func TestCompareBuiltinEngineRuns(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	spec := writeSpec(t, tmp, "s.yaml", `version: 1
seed: 5
duration: 2s
clients:
  - name: c
    model: Llama-3.1-8B
    rate: 10/s
    input: 50
    output: 10
`)
	runs := map[string][]string{"a": nil, "b": nil, "c": {"--max-num-seqs", "64"}}
	for name, flags := range runs {
		args := append([]string{"run", spec, "-o", filepath.Join(tmp, name), "--no-scrape"}, flags...)
		if code, out, errOut := run(t, args...); code != exitOK {
			t.Fatalf("surge %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
	}
	_, out, errOut := runCompareCmd(t, filepath.Join(tmp, "a"), filepath.Join(tmp, "b"))
	if strings.Contains(out, "differ") {
		t.Errorf("one engine config twice: something differs:\n%s%s", out, errOut)
	}
	_, out, errOut = runCompareCmd(t, filepath.Join(tmp, "a"), filepath.Join(tmp, "c"))
	if !strings.Contains(out, "built-in engines differ: max-num-seqs: base default, candidate 64") || strings.Contains(out, "targets differ") {
		t.Errorf("another --max-num-seqs: the flag is not named:\n%s%s", out, errOut)
	}
}

// TestCompareFailsALargeShift: max-num-seqs 2 queues every request, so
// p99 TTFT is hundreds of times the base's; 100 requests are too few for
// p99's own interval, but the rank test finds the distributions apart, so
// the gate fails rather than staying unjudged, and the row is marked.
func TestCompareFailsALargeShift(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := simRun(t, dir, "a", "--gpu", "h100", "--duration", "600s", "--requests", "100")
	b := simRun(t, dir, "b", "--gpu", "h100", "--duration", "600s", "--requests", "100", "--max-num-seqs", "2")
	code, out, errOut := runCompareCmd(t, a, b, "--fail-on", "ttft.p99:+10%")
	if code != exitFailure || !strings.Contains(out+errOut, "large change past the threshold") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "%?") {
		t.Errorf("the underpowered row is not marked:\n%s", out)
	}
}

// TestEngineNameIsSimTarget: surge run names its built-in engine as
// surge sim names its target (after sim://), so compare can set one
// against the other (harness tests several engines named per served
// model).
func TestEngineNameIsSimTarget(t *testing.T) {
	t.Parallel()
	var e engineFlags
	e.register(pflag.NewFlagSet("test", pflag.ContinueOnError), "")
	if err := e.fs.Parse([]string{"--max-num-seqs", "64", "--no-prefix-caching"}); err != nil {
		t.Fatal(err)
	}
	v, err := simFlags{hw: harness.Engine{Model: "llama-3.1-8b", GPU: "h100", TP: 1}, replicas: 1, router: "round-robin", engine: e}.virtual()
	if err != nil {
		t.Fatal(err)
	}
	target := v.Target
	name := harness.EngineName(llamaH100(t), e.settings())
	if want := "Llama-3.1-8B@H100-SXMx1?max-num-seqs=64&prefix-caching=off"; name != want || target != "sim://"+name {
		t.Errorf("engine name %q, sim target %q; want %q and sim:// before it", name, target, want)
	}
}
