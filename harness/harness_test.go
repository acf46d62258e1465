package harness

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"surge/client"
	"surge/driver"
	"surge/internal/selftest"
	"surge/metrics"
	"surge/report"
	"surge/trace"
)

// TestVerdict: an interrupted run comes first, then a run in which
// nothing succeeded, then a questionable measurement, then the SLOs,
// each only when asked for.
func TestVerdict(t *testing.T) {
	t.Parallel()
	valid := &metrics.Measurement{Verdict: metrics.MeasurementValid}
	bad := &metrics.Measurement{Verdict: metrics.MeasurementQuestionable, Reasons: []string{"saturated"}}
	pass := []metrics.SLOCheck{{SLO: trace.SLO{Metric: "ttft", Percentile: 99}, Verdict: metrics.VerdictPass}}
	fail := []metrics.SLOCheck{{SLO: trace.SLO{Metric: "ttft", Percentile: 99}, Verdict: metrics.VerdictFail}}
	sum := func(sent, ok int, m *metrics.Measurement, slos []metrics.SLOCheck) *metrics.Summary {
		s := &metrics.Summary{Measurement: m}
		s.All.Sent, s.All.OK, s.All.SLOs = sent, ok, slos
		return s
	}
	tests := []struct {
		reason      string
		cfg         Config
		sum         *metrics.Summary
		interrupted bool
		want        func(error) bool
	}{
		{"a clean run", Config{FailOnSLO: true, FailOnInvalid: true}, sum(5, 5, valid, pass), false, isNil},
		{"interrupted first", Config{}, sum(5, 0, bad, fail), true, is(ErrInterrupted)},
		{"nothing succeeded", Config{}, sum(5, 0, valid, nil), false, as[NoSuccessError]},
		{"nothing sent is no failure", Config{}, sum(0, 0, valid, nil), false, isNil},
		{"questionable, not asked", Config{}, sum(5, 5, bad, fail), false, isNil},
		{"questionable before the SLOs", Config{FailOnSLO: true, FailOnInvalid: true}, sum(5, 5, bad, fail), false, as[QuestionableError]},
		{"a failed SLO", Config{FailOnSLO: true}, sum(5, 5, valid, fail), false, as[SLOError]},
		{"no SLO to fail on", Config{FailOnSLO: true}, sum(5, 5, valid, nil), false, is(ErrNoSLO)},
	}
	for _, tt := range tests {
		if got := verdict(&tt.cfg, tt.sum, tt.interrupted); !tt.want(got) {
			t.Errorf("%s: verdict %v", tt.reason, got)
		}
	}
}

func isNil(err error) bool { return err == nil }

func is(target error) func(error) bool {
	return func(err error) bool { return errors.Is(err, target) }
}

func as[E error](err error) bool {
	var e E
	return errors.As(err, &e)
}

// failing is a workload of n single requests with text, sent at once.
func failing(t *testing.T, n int) *Workload {
	t.Helper()
	w := &Workload{Header: trace.Header{Text: true, Salt: trace.SaltNone, Clients: []trace.ClientInfo{{Name: "c", Model: "m"}}}}
	tw, err := trace.NewWriter(io.Discard, w.Header)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		s := &trace.Session{Client: "c", Index: i, API: "chat", Turns: []trace.Turn{{Prompt: "hello", InputTokens: 1, OutputTokens: 1}}}
		if err := tw.Write(s); err != nil {
			t.Fatal(err)
		}
		w.Sessions = append(w.Sessions, s)
	}
	if w.Hash, err = tw.Close(); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestRunAgainstAFailingServer: a server that refuses everything gives a
// Result, not an error, once past the preflight: its records, reports
// and manifest, and a NoSuccessError verdict; Bare leaves only the
// records and reports.
func TestRunAgainstAFailingServer(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"no"}}`, http.StatusBadRequest)
	}))
	defer srv.Close()
	for _, bare := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "run")
		w := failing(t, 3)
		res, err := Run(context.Background(), Config{Workload: w, Dir: dir, Target: srv.URL, Bare: bare, Scrape: Scrape{Off: true}, NoPreflight: true})
		if err != nil {
			t.Fatalf("bare %v: %v", bare, err)
		}
		if !as[NoSuccessError](res.Verdict) || res.Summary.All.Sent != 3 || res.Dir != dir {
			t.Errorf("bare %v: verdict %v, sent %d, dir %q", bare, res.Verdict, res.Summary.All.Sent, res.Dir)
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		want := []string{"manifest.json", "records.jsonl", "report.html", "report.json", "report.txt", "trace.jsonl"}
		if bare {
			want = []string{"records.jsonl", "report.html", "report.json", "report.txt"}
		}
		if !slices.Equal(names, want) {
			t.Errorf("bare %v: files %v, want %v", bare, names, want)
		}
	}
}

// TestRunConfigErrors: a mistake in the Config is a ConfigError, before
// anything is written.
func TestRunConfigErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		cfg    Config
	}{
		{"a bad URL", Config{Target: "localhost:8000"}},
		{"a model without a server", Config{Target: "other=http://127.0.0.1:1"}},
		{"an unknown accelerator", Config{Engine: Engine{GPU: "no-such-gpu"}}},
		{"too many shards for a closed loop", Config{Shard: &trace.Shard{Index: 0, Count: 3}}},
		{"an unknown API", Config{API: "classify"}},
		{"a negative cap", Config{MaxConcurrency: -1}},
		{"dropping without a cap", Config{Drop: true}},
		{"a salt of a kilobyte", Config{Salt: strings.Repeat("s", 1024)}},
		{"a negative timeout", Config{Client: client.Config{IdleTimeout: -time.Second}}},
		{"negative retries", Config{Retry: driver.RetryPolicy{Max: -1}}},
		{"an engine setting out of range", Config{Engine: Engine{Settings: EngineSettings{MemoryUtilization: 2}}}},
		{"an error rate above one", Config{MaxErrorRate: 1.5}},
		{"a negative progress period", Config{ProgressEvery: -time.Second}},
		{"a start long past", Config{StartAt: time.Now().Add(-time.Hour)}},
		{"no workload", Config{}},
	}
	for _, tt := range tests {
		dir := filepath.Join(t.TempDir(), "run")
		tt.cfg.Dir = dir
		if tt.reason != "no workload" {
			tt.cfg.Workload = failing(t, 1)
			tt.cfg.Workload.Header.Clients[0].Concurrency = 2
		}
		_, err := Run(context.Background(), tt.cfg)
		if !as[ConfigError](err) {
			t.Errorf("%s: error %v, want a ConfigError", tt.reason, err)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s: the directory was made", tt.reason)
		}
	}
}

// TestRunToRecords: without a Dir, a run, real or virtual, writes its
// whole records file to Records and nothing to the filesystem, and its
// Result reports those records. It changes the working directory, so it
// does not run in parallel.
func TestRunToRecords(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"no"}}`, http.StatusBadRequest)
	}))
	defer srv.Close()
	v, err := NewVirtual(Engine{Model: "llama-3.1-8b", GPU: DefaultEngineGPU, TP: 1}, 1, "round-robin")
	if err != nil {
		t.Fatal(err)
	}
	cwd := t.TempDir()
	t.Chdir(cwd)
	for _, cfg := range []Config{
		{Target: srv.URL, NoPreflight: true},
		{Virtual: v},
	} {
		var out bytes.Buffer
		cfg.Workload, cfg.Records = failing(t, 3), &out
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("virtual %v: %v", cfg.Virtual != nil, err)
		}
		rs, err := trace.ReadRecords(&out)
		if err != nil || rs.End == nil || len(rs.Records) != 3 {
			t.Fatalf("virtual %v: Records got no whole records file (%v)", cfg.Virtual != nil, err)
		}
		if res.Dir != "" || res.Summary.All.Sent != 3 || res.Summary.All.OK != okOf(rs) || res.Report == "" {
			t.Errorf("virtual %v: Result dir %q, sent %d, ok %d (records: %d), report %d bytes",
				cfg.Virtual != nil, res.Dir, res.Summary.All.Sent, res.Summary.All.OK, okOf(rs), len(res.Report))
		}
	}
	if left, _ := os.ReadDir(cwd); len(left) > 0 {
		t.Errorf("the working directory holds %v, want nothing", left)
	}
}

// okOf counts the successful records of rs.
func okOf(rs *trace.Records) int {
	n := 0
	for _, r := range rs.Records {
		if r.Error == "" {
			n++
		}
	}
	return n
}

// TestRunRecordsPlace: a run needs exactly one place for its records.
func TestRunRecordsPlace(t *testing.T) {
	t.Parallel()
	for _, cfg := range []Config{
		{Workload: failing(t, 1)},
		{Workload: failing(t, 1), Dir: t.TempDir(), Records: io.Discard},
	} {
		if _, err := Run(context.Background(), cfg); !as[ConfigError](err) {
			t.Errorf("dir %q, records %v: err %v, want a ConfigError", cfg.Dir, cfg.Records != nil, err)
		}
	}
}

// TestRunWarnsPastTheCeiling: a workload asking more of the client than
// half the saved self-test's ceiling is warned of on Log, before the
// run; within it, or without a self-test, nothing is said.
func TestRunWarnsPastTheCeiling(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"no"}}`, http.StatusBadRequest)
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "selftest.json")
	saved := selftest.Result{Version: "v1", CPUs: runtime.NumCPU(), Tokens: 64, At: time.Now().UTC(),
		Points: []selftest.Point{{Concurrency: 64, RequestsPerS: 1_000, TokenEventsPerS: 64_000}}}
	if err := selftest.Save(path, saved); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		concurrency int
		ceiling     string
		warn        bool
	}{{400, path, true}, {2, path, false}, {400, "", false}} {
		w := failing(t, 1)
		w.Header.Clients[0].Concurrency = tt.concurrency
		var log strings.Builder
		_, err := Run(context.Background(), Config{Workload: w, Records: io.Discard, Target: srv.URL, NoPreflight: true,
			Tool: "v1", Ceiling: tt.ceiling, Log: &log})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(log.String(), "ceiling"); got != tt.warn {
			t.Errorf("%d in flight, ceiling %q: warned %v, want %v\n%s", tt.concurrency, tt.ceiling, got, tt.warn, log.String())
		}
	}
}

// TestRunTextWidth: the Result's text report is Config.TextWidth wide (a
// terminal's), the bundle's report.txt report.TextWidth wide whatever it
// is, so that surge report re-renders it as it was.
func TestRunTextWidth(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"no"}}`, http.StatusBadRequest)
	}))
	defer srv.Close()
	widest := func(s string) int {
		n := 0
		for _, l := range strings.Split(s, "\n") {
			n = max(n, utf8.RuneCountInString(l))
		}
		return n
	}
	for _, cols := range []int{0, report.MinTextWidth, 200} {
		dir := filepath.Join(t.TempDir(), "run")
		res, err := Run(context.Background(), Config{Workload: failing(t, 3), Dir: dir, Target: srv.URL, Scrape: Scrape{Off: true}, NoPreflight: true, TextWidth: cols})
		if err != nil {
			t.Fatal(err)
		}
		file, err := os.ReadFile(filepath.Join(dir, "report.txt"))
		if err != nil {
			t.Fatal(err)
		}
		want := cmp.Or(cols, report.TextWidth)
		if w := widest(res.Report); w > want || (cols == 200 && w <= report.TextWidth) {
			t.Errorf("TextWidth %d: the Result's report is %d columns wide", cols, w)
		}
		if w := widest(string(file)); w > report.TextWidth || (cols == 0 && string(file) != res.Report) {
			t.Errorf("TextWidth %d: report.txt is %d columns wide, or not the Result's at the default width", cols, w)
		}
	}
}
