package cli

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"surge/metrics"
	"surge/trace"
)

// TestRunAndReport runs a spec against a streaming test server and checks
// the records, the report files, and that `surge report` on the records
// prints exactly what `surge run` printed.
func TestRunAndReport(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(fakeServer{ttft: 20 * time.Millisecond, itl: 2 * time.Millisecond, tokens: 8})
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "run")
	code, out, errOut := run(t, "run", "testdata/run.yaml", "--target", srv.URL, "-o", dir)
	if code != exitOK {
		t.Fatalf("run exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	rs := readRun(t, dir)
	if len(rs.Records) != 60 || rs.End == nil || rs.End.Interrupted || rs.End.Sent != 60 {
		t.Fatalf("%d records, end %+v; want 60 and a clean end", len(rs.Records), rs.End)
	}
	// The server waits 20 ms before the first token. Counted from the
	// intended send, which is never after the actual one, TTFT is at least
	// that on any machine; counted from the send stamp, which a loaded
	// machine can take late, it is only with SURGE_STRICT_TIMING.
	strict := os.Getenv("SURGE_STRICT_TIMING") != ""
	for _, r := range rs.Records {
		if !r.OK() || r.ServerOutputTokens != 8 || r.Chunks != 8 || len(r.ITLUS) != 7 ||
			r.FirstByteUS < 0 || r.TTFTUS < r.FirstByteUS || metrics.FromIntended(&r, r.TTFTUS) < 20_000 || (strict && r.TTFTUS < 20_000) {
			t.Fatalf("record %+v", r)
		}
	}
	if rs.Header.SLO[0].BoundUS != 2e6 || rs.Header.WorkloadHash == "" {
		t.Errorf("header %+v lacks the SLO or workload hash", rs.Header)
	}
	for _, name := range []string{"report.txt", "report.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	code, again, _ := run(t, "report", dir)
	if code != exitOK || again != out {
		t.Errorf("surge report printed:\n%s\nsurge run printed:\n%s", again, out)
	}
	if !strings.Contains(out, "TTFT") || !strings.Contains(out, "ttft p99") {
		t.Errorf("report lacks TTFT or the SLO:\n%s", out)
	}
}

func TestRunErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		args   []string
		code   int
		want   string
	}{
		{"the built-in engine takes no key", []string{"run", "testdata/run.yaml", "--api-key-env", "HOME"}, exitUsage, "needs --target"},
		{"the built-in engine needs a catalog GPU", []string{"run", "testdata/run.yaml", "--gpu", "tpu9"}, exitUsage, "--gpu"},
		{"the target must be a URL", []string{"run", "testdata/run.yaml", "--target", "localhost:8000"}, exitUsage, "want a URL"},
		{"credentials in the target are never echoed", []string{"run", "testdata/run.yaml", "--target", "ftp://user:secret@host"}, exitUsage, "ftp://host"},
		{"an unset key variable is named", []string{"run", "testdata/run.yaml", "--target", "http://127.0.0.1:1", "--api-key-env", "SURGE_TEST_UNSET_KEY"}, exitUsage, "SURGE_TEST_UNSET_KEY"},
		{"--drop needs a cap", []string{"run", "testdata/run.yaml", "--target", "http://127.0.0.1:1", "--drop"}, exitUsage, "--drop needs"},
	}
	for _, tt := range tests {
		code, _, errOut := run(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) || strings.Contains(errOut, "secret") {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", tt.reason, code, errOut, tt.code, tt.want)
		}
	}
}

// TestRunAuditsAndErrors runs against a server that fails every tenth
// request with HTTP 500 and reports two more completion tokens than it
// streams: the report must count the failures apart and flag the usage.
func TestRunAuditsAndErrors(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(fakeServer{ttft: 5 * time.Millisecond, itl: time.Millisecond, tokens: 8, usageOff: 2, failEvery: 10, count: new(atomic.Int64)})
	defer srv.Close()
	code, out, errOut := run(t, "run", "testdata/run.yaml", "--target", srv.URL, "-o", filepath.Join(t.TempDir(), "run"))
	if code != exitOK {
		t.Fatalf("run exit %d: %s", code, errOut)
	}
	for _, want := range []string{"http 6", "status 500 ×6", "completion_tokens ≠ streamed token events in 50 of 50"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// TestRunPacing runs open loop at 500 req/s for 2 s against a zero-delay
// streaming server and checks the pacing from the records. Always checked,
// whatever the machine's load: all 1000 requests succeed, their intended
// offsets are exactly 2000 µs apart and none was sent before its time (a
// loaded machine makes sends late, never early). The achieved rate
// (± 1 %) and the p99 schedule lag (≤ 20 ms, where a quiet machine sees
// about 1 ms) measure the load of the package's other tests (real-time
// engines, under -race) as much as the pacing, so they are asserted only
// with SURGE_STRICT_TIMING, when .ci/run runs this test alone; the precise
// figures are in BENCHMARKS.md (bench/drive.sh).
func TestRunPacing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for 2 s of real time")
	}
	srv := httptest.NewServer(fakeServer{tokens: 16})
	defer srv.Close()
	tmp := t.TempDir()
	spec := writeSpec(t, tmp, "pace.yaml", "version: 1\nrequests: 1000\nclients:\n  - {name: c, model: m, rate: 500/s, arrival: {process: constant}, input: 20, output: 16}\n")
	dir := filepath.Join(tmp, "run")
	if code, _, e := run(t, "run", spec, "--target", srv.URL, "-o", dir); code != exitOK {
		t.Fatalf("run exit %d: %s", code, e)
	}
	rs := readRun(t, dir)
	const n, gapUS = 1000, 2000
	if len(rs.Records) != n {
		t.Fatalf("%d records, want %d", len(rs.Records), n)
	}
	lags, sent, intended := make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
	for _, r := range rs.Records {
		if !r.OK() {
			t.Fatalf("failed request: %+v", r)
		}
		lags = append(lags, r.SentUS-r.IntendedUS)
		sent = append(sent, r.SentUS)
		intended = append(intended, r.IntendedUS)
	}
	slices.Sort(lags)
	slices.Sort(sent)
	slices.Sort(intended)
	for i := 1; i < n; i++ {
		if d := intended[i] - intended[i-1]; d != gapUS {
			t.Fatalf("intended offsets %d and %d µs are %d µs apart, want %d (constant 500/s)", intended[i-1], intended[i], d, gapUS)
		}
	}
	rate := (n - 1) / (float64(sent[n-1]-sent[0]) / 1e6)
	t.Logf("achieved %.2f req/s; schedule lag p50 %dus p99 %dus", rate, lags[500], lags[990])
	if lags[0] < 0 {
		t.Errorf("a request was sent %d µs before its time", -lags[0])
	}
	if os.Getenv("SURGE_STRICT_TIMING") == "" {
		return
	}
	if rate < 495 || rate > 505 {
		t.Errorf("achieved %.2f req/s, want 500 ± 1%%", rate)
	}
	if lags[990] > 20_000 {
		t.Errorf("schedule lag p99 %dus, want under 20 ms", lags[990])
	}
}

// TestRunTraceKeepsSLOs runs a trace made by gen: the SLOs of its spec
// travel in the trace header into the records and the report.
func TestRunTraceKeepsSLOs(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(fakeServer{tokens: 4})
	defer srv.Close()
	tmp := t.TempDir()
	tr := filepath.Join(tmp, "t.jsonl")
	if code, _, e := run(t, "gen", "testdata/run.yaml", "-o", tr); code != exitOK {
		t.Fatalf("gen exit %d: %s", code, e)
	}
	code, out, e := run(t, "run", tr, "--target", srv.URL, "-o", filepath.Join(tmp, "run"))
	if code != exitOK || !strings.Contains(out, "ttft p99") {
		t.Errorf("exit %d, report lacks the spec's SLO:\n%s\n%s", code, out, e)
	}
}

// TestRunAllFailedExitsNonZero: a run in which no request succeeded must
// not look like a good run to a script.
func TestRunAllFailedExitsNonZero(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(fakeServer{failEvery: 1, count: new(atomic.Int64)})
	defer srv.Close()
	code, out, e := run(t, "run", "testdata/run.yaml", "--target", srv.URL, "--no-preflight", "-o", filepath.Join(t.TempDir(), "run"))
	if code != exitFailure || !strings.Contains(e, "no request succeeded") || !strings.Contains(out, "errors") {
		t.Errorf("exit %d, stderr %q; want exit 1 after the report", code, e)
	}
}

// TestRunBuiltinEngine runs with no --target: surge starts the built-in
// engine on a loopback port and drives it, simulating --engine-model for
// a model ("m") the catalog does not know.
func TestRunBuiltinEngine(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "run")
	code, out, e := run(t, "run", "testdata/run.yaml", "-o", dir, "--engine-model", "llama-3.1-8b")
	if code != exitOK || !strings.Contains(e, "driving the built-in engine") {
		t.Fatalf("exit %d\nstderr:\n%s\nstdout:\n%s", code, e, out)
	}
	rs := readRun(t, dir)
	f, err := os.Open(filepath.Join(dir, "trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := trace.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	planned := map[int]int{}
	for s, err := tr.Read(); err == nil; s, err = tr.Read() {
		planned[s.Index] = s.Turns[0].InputTokens
	}
	for _, r := range rs.Records {
		// Output 8 tokens, asked for with max_tokens 8: the engine ends at
		// its natural length or at the cap. The run's salt takes the place
		// of every prompt's first tokens, so the requested count, the
		// client's and the server's are the trace's.
		if !r.OK() || r.ServerOutputTokens < 1 || r.ServerOutputTokens > 8 || r.InputTokens != planned[r.Session] ||
			r.ServerInputTokens != r.ClientInputTokens || r.ClientInputTokens != r.InputTokens {
			t.Fatalf("record %+v; the trace's input_tokens %d", r, planned[r.Session])
		}
	}
	if !strings.HasPrefix(rs.Header.Salt, "[surge ") {
		t.Errorf("records header salt %q, want the run's nonce", rs.Header.Salt)
	}
	if len(rs.Records) != 60 {
		t.Errorf("%d records, want 60", len(rs.Records))
	}
}
