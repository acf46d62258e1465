package recompute

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"surge/internal/testbin"
)

// simArgs run the built-in engine in virtual time.
var simArgs = []string{"--model", "llama-3.1-8b", "--gpu", "h100"}

// plainSpec is two open-loop clients with warmup and SLOs.
const plainSpec = `version: 1
name: plain
seed: 11
tokenizer: o200k_base
duration: 30s
warmup: 3s
clients:
  - name: chat
    model: meta-llama/Llama-3.1-8B-Instruct
    rate: 6/s
    input: {dist: lognormal, median: 600, sigma: 0.8, min: 16, max: 6k}
    output: {dist: lognormal, median: 150, sigma: 0.7, max: 1k}
    sampling: {max_tokens: output, exact_output: true}
  - name: batch
    model: meta-llama/Llama-3.1-8B-Instruct
    rate: 2/s
    arrival: {process: gamma, cv: 2}
    input: {dist: uniform, min: 1000, max: 3000}
    output: {dist: uniform, min: 1, max: 40}
    sampling: {max_tokens: output, exact_output: true}
slo:
  ttft: {p90: 150ms}
  tpot: {p99: 40ms}
  e2e: {p50: 3s}
`

// simRun simulates spec into a fresh directory and returns it.
func simRun(t *testing.T, spec string, extra ...string) string {
	t.Helper()
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "run")
	args := append([]string{"sim", writeSpec(t, tmp, spec), "-o", dir}, simArgs...)
	mustSurge(t, []int{0}, append(args, extra...)...)
	return dir
}

func TestPlainRun(t *testing.T) {
	t.Parallel()
	dir := simRun(t, plainSpec)
	checkDir(t, dir, "plain")
}

// liveSpec is a short open-loop workload for runs in real time against
// the built-in engine: about two seconds.
const liveSpec = `version: 1
name: live
seed: 7
tokenizer: o200k_base
requests: 70
warmup: 400ms
clients:
  - name: chat
    model: Llama-3.1-8B
    rate: 40/s
    input: {dist: uniform, min: 50, max: 400}
    output: {dist: uniform, min: 4, max: 24}
    sampling: {max_tokens: output, exact_output: true}
%s
slo:
%s
`

// liveRun runs spec in real time against the built-in engine into dir.
func liveRun(t *testing.T, spec, dir string, extra ...string) {
	t.Helper()
	args := append([]string{"run", writeSpec(t, t.TempDir(), spec), "--no-scrape", "-o", dir}, extra...)
	mustSurge(t, []int{0}, args...)
}

// faults are injected by the faulted run: every kind that ends quickly.
const faults = `    faults:
      empty_prompt: 8%
      invalid_params: 8%
      malformed_json: 6%
      churn: 6%
      cancel: {share: 8%, after_tokens: 2}`

func TestFaultedRun(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "run")
	liveRun(t, fmt.Sprintf(liveSpec, faults, "  ttft: {p90: 500ms}\n  e2e: {p50: 2s}"), dir)
	rs, rep := checkDir(t, dir, "faulted")
	faulted := 0
	for _, r := range rs.Recs {
		if measured(r) && r.Fault != "" {
			t.Fatalf("measured() keeps a faulted record: %+v", r)
		}
		if !r.Warmup && r.Fault != "" {
			faulted++
		}
	}
	if faulted == 0 || rep.Faults == nil {
		t.Fatalf("%d faulted records outside the warmup, fault report %v: the run injected nothing to check", faulted, rep.Faults)
	}
}

// TestNoStreamRun checks a run whose requests were not streamed: no token
// times were seen, so TTFT, TTFO, ITL and TPOT must be absent (or n=0)
// rather than E2E and 0; every other figure recomputes as usual.
func TestNoStreamRun(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "run")
	liveRun(t, fmt.Sprintf(liveSpec, "", "  ttft: {p90: 500ms}\n  e2e: {p90: 2s}"), dir, "--no-stream")
	rs, rep := checkDir(t, dir, "no-stream")
	for _, r := range rs.Recs {
		if !r.NotStreamed {
			t.Fatalf("a record of a --no-stream run is not marked not_streamed: %+v", r)
		}
	}
	for _, name := range []string{"ttft", "ttfo", "itl", "tpot", "ttft_lag", "ttfo_lag"} {
		if m := rep.All.Latency[name]; m != nil && m.N != 0 {
			t.Errorf("no-stream: %s has n=%d (mean %v), want not applicable", name, m.N, m.Mean)
		}
	}
}

// TestShardedRun runs the live workload as two shards, one directory each,
// and recomputes the merged report from the shards' records, merged here:
// offsets rebased onto the earliest start (docs/records.md).
func TestShardedRun(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	spec := fmt.Sprintf(liveSpec, "", "  ttft: {p90: 500ms}")
	var shards []*records
	for i := range 2 {
		dir := filepath.Join(root, "runs", fmt.Sprintf("shard-%d", i))
		liveRun(t, spec, dir, "--shard", fmt.Sprintf("%d/2", i))
		shards = append(shards, readRecords(t, dir))
	}
	merged := merge(t, shards)
	runs := filepath.Join(root, "runs")
	out := mustSurge(t, []int{0}, "report", runs, "--format", "json")
	var rep reportJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("surge report --format json: %v\n%s", err, out)
	}
	checkRun(t, merged, rep, "sharded")
	page := filepath.Join(root, "report.html")
	txt := mustSurge(t, []int{0}, "report", runs, "--html", page)
	checkFormats(t, "sharded", txt, readText(t, root, "report.html"), rep)
	if n := len(merged.Recs); n != 70 {
		t.Errorf("the shards hold %d records, want the workload's 70", n)
	}
}

// merge merges shards' records as docs/records.md says: offsets rebased
// onto the earliest start; the merged run ends with its last shard.
func merge(t *testing.T, shards []*records) *records {
	t.Helper()
	starts := make([]time.Time, len(shards))
	earliest := time.Time{}
	for i, s := range shards {
		st, err := time.Parse(time.RFC3339Nano, s.Header.Start)
		if err != nil {
			t.Fatalf("shard %d start %q: %v", i, s.Header.Start, err)
		}
		starts[i] = st
		if earliest.IsZero() || st.Before(earliest) {
			earliest = st
		}
	}
	m := &records{Header: shards[0].Header, End: &end{}}
	for i, s := range shards {
		shift := starts[i].Sub(earliest).Microseconds()
		for _, r := range s.Recs {
			r.IntendedUS += shift
			r.SentUS += shift
			m.Recs = append(m.Recs, r)
		}
		if s.End == nil {
			m.End = nil
		} else if m.End != nil {
			m.End.Interrupted = m.End.Interrupted || s.End.Interrupted
		}
	}
	return m
}

// TestInterruptedRunNoEndLine recomputes the report of a run that died
// before its end line: the records of a simulated run without their last
// line, reported again with surge report.
func TestInterruptedRunNoEndLine(t *testing.T) {
	t.Parallel()
	src := simRun(t, plainSpec)
	b, err := os.ReadFile(filepath.Join(src, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	if !strings.Contains(lines[len(lines)-1], `"surge_end"`) {
		t.Fatalf("last line is not the end line: %.200s", lines[len(lines)-1])
	}
	dir := filepath.Join(t.TempDir(), "cut")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "records.jsonl"), []byte(strings.Join(lines[:len(lines)-1], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := reportOf(t, dir)
	if !rep.Interrupted {
		t.Errorf("a run without its end line is not reported as interrupted")
	}
}

// reportOf runs surge report over dir in JSON, text and HTML, recomputes
// the JSON from dir's records and checks the other two against it.
func reportOf(t *testing.T, dir string) reportJSON {
	t.Helper()
	out := mustSurge(t, []int{0, 130}, "report", dir, "--format", "json")
	var rep reportJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("surge report --format json: %v\n%.500s", err, out)
	}
	checkRun(t, readRecords(t, dir), rep, filepath.Base(dir))
	page := filepath.Join(t.TempDir(), "report.html")
	txt := mustSurge(t, []int{0, 130}, "report", dir, "--html", page)
	checkFormats(t, filepath.Base(dir), txt, readText(t, filepath.Dir(page), "report.html"), rep)
	return rep
}

// TestInterruptedRunEndLine interrupts a simulation, before any measured
// request and in the middle: its end line says interrupted, requests in
// flight end cancelled, and the report of the records must say the same.
func TestInterruptedRunEndLine(t *testing.T) {
	t.Parallel()
	for _, left := range []int64{1, 2} {
		t.Run(fmt.Sprintf("checks-%d", left), func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			dir := filepath.Join(tmp, "run")
			ctx := testbin.NewCountdown(context.Background(), left)
			args := append([]string{"sim", writeSpec(t, tmp, plainSpec), "-o", dir}, simArgs...)
			if code, out, errOut := surge(ctx, args...); code != 130 {
				t.Fatalf("interrupted sim: exit %d, want 130\n%s\n%s", code, out, errOut)
			}
			rs, rep := checkDir(t, dir, "interrupted")
			if rs.End == nil || !rs.End.Interrupted || !rep.Interrupted {
				t.Errorf("end line %+v, report interrupted %v: want both interrupted", rs.End, rep.Interrupted)
			}
			reportOf(t, dir)
		})
	}
}

// multiTurnSpec is chat sessions of several turns with think times and a
// shared system prompt.
const multiTurnSpec = `version: 1
name: multiturn
seed: 5
tokenizer: o200k_base
duration: 40s
warmup: 8s
clients:
  - name: assistant
    model: meta-llama/Llama-3.1-8B-Instruct
    rate: 2/s
    session:
      kind: chat
      turns: {dist: uniform, min: 2, max: 5}
      think: {dist: lognormal, median: 3s, sigma: 0.6, max: 20s}
      history: live
    input: {dist: lognormal, median: 120, sigma: 0.7, max: 2k}
    output: {dist: lognormal, median: 100, sigma: 0.6, max: 1k}
    prefix: {pool: 4, length: "lognormal(median=800, sigma=0.3)", zipf: 1.2}
    sampling: {exact_output: true}
slo:
  ttft: {p90: 300ms}
  tpot: {p99: 20ms}
`

func TestMultiTurnRun(t *testing.T) {
	t.Parallel()
	dir := simRun(t, multiTurnSpec)
	_, rep := checkDir(t, dir, "multi-turn")
	if rep.All.Sessions == nil || rep.All.Sessions.Complete == 0 {
		t.Errorf("no complete sessions reported: %+v", rep.All.Sessions)
	}
}
