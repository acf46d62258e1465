package interop

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// strict says whether wall-clock-sensitive bounds are asserted tightly
// (SURGE_STRICT_TIMING set: the machine is quiet).
func strict() bool { return os.Getenv("SURGE_STRICT_TIMING") != "" }

// run is one surge run: the trace it sent and what it wrote.
type run struct {
	dir   string
	res   result
	trace []session
	recs  records
}

// traces compiles specs to traces with surge gen, once per spec text,
// so runs that differ only in their flags send the same trace.
type traces struct {
	dir   string
	paths map[string]string
}

// newTraces returns a cache of traces kept in a temporary directory of t.
func newTraces(t *testing.T) *traces {
	return &traces{dir: t.TempDir(), paths: map[string]string{}}
}

// gen returns the path of spec's trace, compiling it on first use.
func (c *traces) gen(t *testing.T, spec string) string {
	t.Helper()
	if path, ok := c.paths[spec]; ok {
		return path
	}
	n := strconv.Itoa(len(c.paths))
	specPath := writeSpec(t, c.dir, "spec"+n+".yaml", spec)
	path := filepath.Join(c.dir, "trace"+n+".jsonl")
	mustSurge(t, c.dir, "gen", specPath, "-o", path)
	c.paths[spec] = path
	return path
}

// runTrace runs the trace at path against p with surge run and extra
// flags, and reads back the trace and the records. It checks the bundle
// (see checkBundle) but goes on whatever surge run's exit code, so later
// checks still report.
func runTrace(t *testing.T, p *peer, path string, flags ...string) run {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	res := surge(t, dir, append([]string{"run", path, "--target", p.url, "-o", out}, flags...)...)
	if _, err := os.Stat(filepath.Join(out, "records.jsonl")); err != nil {
		t.Fatalf("no records: %v\n%s", err, res)
	}
	r := run{dir: out, res: res, trace: readTrace(t, path), recs: readRecords(t, out)}
	checkBundle(t, r, !contains(flags, "--no-scrape"))
	return r
}

// contains says whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkBundle checks that a run exited 0 and left a full evidence bundle
// that surge inspect accepts and surge report re-renders to the same
// reports, with the target's metrics scraped unless scraped is false.
func checkBundle(t *testing.T, r run, scraped bool) {
	t.Helper()
	if r.res.code != 0 {
		t.Errorf("surge run exited %d, want 0 (every request of a healthy run succeeded or failed on purpose)\n%s", r.res.code, r.res)
	}
	files := []string{"records.jsonl", "report.txt", "report.json", "report.html", "trace.jsonl", "manifest.json"}
	if scraped {
		files = append(files, "server_metrics.jsonl")
	}
	missing := false
	for _, name := range files {
		fi, err := os.Stat(filepath.Join(r.dir, name))
		switch {
		case err != nil:
			t.Errorf("bundle: %v", err)
			missing = true
		case fi.Size() == 0:
			t.Errorf("bundle: %s is empty", name)
		}
	}
	if scraped {
		checkScraped(t, r.dir)
	}
	if missing {
		return
	}
	if res := surge(t, r.dir, "inspect", r.dir); res.code != 0 {
		t.Errorf("surge inspect of the run's bundle failed\n%s", res)
	}
	// surge report DIR re-renders the run's own report from its records.
	for _, f := range []struct{ file, format string }{{"report.txt", "text"}, {"report.json", "json"}} {
		res := surge(t, r.dir, "report", r.dir, "--format", f.format)
		want, err := os.ReadFile(filepath.Join(r.dir, f.file))
		if err != nil {
			t.Fatal(err)
		}
		if res.code != 0 || res.stdout != string(want) {
			t.Errorf("surge report DIR --format %s differs from the run's %s\n%s\nrun's %s:\n%s", f.format, f.file, res, f.file, tail(string(want), 40))
		}
	}
}

// checkScraped checks that server_metrics.jsonl holds at least one
// successful scrape with samples.
func checkScraped(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, "server_metrics.jsonl")
	if _, err := os.Stat(path); err != nil {
		return // reported by checkBundle
	}
	samples := 0
	readLines(t, path, func(i int, line []byte) {
		if i > 0 && strings.Contains(string(line), `"samples":[{`) {
			samples++
		}
	})
	if samples == 0 {
		t.Errorf("%s: no scrape with samples", path)
	}
}

// key names a request of a trace.
type key struct {
	client         string
	session, index int
}

// turns indexes the trace's turns by client, session and turn.
func turns(tr []session) map[key]turn {
	m := map[key]turn{}
	for _, s := range tr {
		for i, tu := range s.Turns {
			m[key{s.Client, s.Index, i}] = tu
		}
	}
	return m
}

// checkComplete checks that every request of the trace was sent and
// recorded once, and that every failed request carried a fault on
// purpose (no unexplained errors).
func checkComplete(t *testing.T, r run) {
	t.Helper()
	want := turns(r.trace)
	seen := map[key]bool{}
	for _, rec := range r.recs.Requests {
		k := key{rec.Client, rec.Session, rec.Turn}
		if _, ok := want[k]; !ok {
			t.Errorf("record %s is no request of the trace", rec)
		}
		if seen[k] {
			t.Errorf("record %s appears twice", rec)
		}
		seen[k] = true
		if rec.ErrorClass != "" && rec.Fault == "" {
			t.Errorf("record %s failed without a fault: %s: %s (status %d)", rec, rec.ErrorClass, rec.Error, rec.Status)
		}
		if rec.ErrorClass == "" && rec.Status != 200 {
			t.Errorf("record %s succeeded with status %d", rec, rec.Status)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("%d of the trace's %d requests recorded", len(seen), len(want))
	}
	e := r.recs.End
	if e.Interrupted || e.Scheduled != len(want) || e.Sent != len(want) {
		t.Errorf("end line: interrupted %v, scheduled %d, sent %d; want false, %d, %d", e.Interrupted, e.Scheduled, e.Sent, len(want), len(want))
	}
}

// checkPrompts checks every healthy request's prompt length against
// llama-server's own tokenizer: the trace's prompt has the trace's
// input_tokens, and so has the prompt as sent (the run's salt in place of
// its first tokens), as the record's input_tokens and client_input_tokens
// say. The server's
// prompt_tokens must exceed that by the same number in every request:
// the BOS token for completions (1), the chat template for chat; the
// excess is returned.
func checkPrompts(t *testing.T, p *peer, r run) int {
	t.Helper()
	want := turns(r.trace)
	offsets := map[int]int{}
	for _, rec := range r.recs.Requests {
		if rec.Fault != "" || rec.ErrorClass != "" {
			continue
		}
		tu := want[key{rec.Client, rec.Session, rec.Turn}]
		if n := tokenize(t, p, tu.Prompt); n != tu.InputTokens {
			t.Errorf("%s: the trace's prompt is %d tokens by %s's tokenizer, the trace says %d", rec, n, p.name, tu.InputTokens)
		}
		sent := tokenize(t, p, salted(t, r.recs.Salt, tu.Prompt))
		if sent != tu.InputTokens || rec.InputTokens != sent || rec.ClientInputTokens != sent {
			t.Errorf("%s: the prompt as sent, salted, is %d tokens by %s's tokenizer; the trace says %d, the record input_tokens %d, client_input_tokens %d", rec, sent, p.name, tu.InputTokens, rec.InputTokens, rec.ClientInputTokens)
		}
		offsets[rec.ServerInputTokens-sent]++
	}
	if len(offsets) != 1 {
		t.Errorf("the server's prompt_tokens minus the prompt's tokens should be one constant (BOS, template); got {excess: requests} %v", offsets)
	}
	for off := range offsets {
		return off
	}
	return 0
}

// checkTimings compares each streamed request's client-side timings
// with llama-server's own (records' server_ttft_us is its prompt_ms,
// server_e2e_us its prompt_ms + predicted_ms): the client's TTFT holds the
// server's prefill, and the client's mean gap between tokens agrees with
// predicted_ms / (predicted_n − 1), per request and at the median.
func checkTimings(t *testing.T, r run) {
	t.Helper()
	relTol, absTol, medTol, ttftSlack := 0.30, 3000.0, 0.15, int64(20000)
	if strict() {
		relTol, absTol, medTol, ttftSlack = 0.10, 500, 0.05, 200
	}
	var client, server, prefill []float64
	for _, rec := range r.recs.Requests {
		if rec.Fault != "" || rec.ErrorClass != "" {
			continue
		}
		if rec.ServerTTFTUS == 0 || rec.ServerE2EUS == 0 {
			t.Errorf("%s: no server timings recorded (llama-server sends timings in its last chunk)", rec)
			continue
		}
		// Both clocks are this machine's monotonic clock, and the server's
		// prefill starts after the request was written and ends before the
		// first token is sent, so the client's TTFT holds it. The client
		// stamps the send after its write returns, though, so when the
		// machine is loaded and the client descheduled the stamp comes
		// late and TTFT reads short: only a quiet machine gets a tight
		// bound per request; a loaded one the median below.
		if rec.TTFTUS+ttftSlack < rec.ServerTTFTUS {
			t.Errorf("%s: client TTFT %d µs < the server's prompt_ms %d µs by more than %d µs", rec, rec.TTFTUS, rec.ServerTTFTUS, ttftSlack)
		}
		prefill = append(prefill, float64(rec.TTFTUS-rec.ServerTTFTUS))
		n := rec.ServerOutputTokens
		if n < 2 {
			continue
		}
		if rec.Chunks != n || len(rec.ITLUS) != n-1 {
			t.Errorf("%s: %d chunks and %d gaps for %d tokens (llama-server streams one token per event)", rec, rec.Chunks, len(rec.ITLUS), n)
			continue
		}
		var sum int64
		for _, g := range rec.ITLUS {
			sum += g
		}
		c := float64(sum) / float64(n-1)
		s := float64(rec.ServerE2EUS-rec.ServerTTFTUS) / float64(n-1)
		if math.Abs(c-s) > math.Max(absTol, relTol*s) {
			t.Errorf("%s: client mean ITL %.0f µs, server predicted_ms/(n−1) %.0f µs (n %d): apart by more than %.0f µs or %.0f%%", rec, c, s, n, absTol, 100*relTol)
		}
		client, server = append(client, c), append(server, s)
	}
	if len(client) == 0 || len(prefill) == 0 {
		t.Errorf("no streamed request to compare timings of")
		return
	}
	if m := median(prefill); m < 0 {
		t.Errorf("median over the run of client TTFT − server prompt_ms is %.0f µs: the client's TTFT should hold the server's prefill", m)
	}
	mc, ms := median(client), median(server)
	if math.Abs(mc-ms) > medTol*ms {
		t.Errorf("median over the run: client mean ITL %.0f µs, server %.0f µs: apart by more than %.0f%%", mc, ms, 100*medTol)
	}
	t.Logf("ITL per request, median of %d: client %.0f µs, server %.0f µs", len(client), mc, ms)
}

// median returns the median of xs (the mean of the middle two for an
// even count).
func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// report is the part of report.json the tests read.
type report struct {
	All struct {
		Requests int `json:"requests"`
		OK       int `json:"ok"`
		Errors   struct {
			Failed int `json:"failed"`
		} `json:"errors"`
		Throughput struct {
			Requests         int     `json:"requests"`
			RequestsPerS     float64 `json:"requests_per_s"`
			OutputTokensPerS float64 `json:"output_tokens_per_s"`
		} `json:"throughput"`
		PrefixCache *struct {
			Reported     bool     `json:"reported"`
			PromptTokens int      `json:"prompt_tokens"`
			CachedTokens int      `json:"cached_tokens"`
			HitRate      *float64 `json:"hit_rate"`
		} `json:"prefix_cache"`
		Latency map[string]struct {
			N           int `json:"n"`
			Percentiles []struct {
				P     float64 `json:"p"`
				Value float64 `json:"value"`
			} `json:"percentiles"`
		} `json:"latency"`
	} `json:"all"`
	Implied *struct {
		PromptTokens int `json:"prompt_tokens"`
		CachedTokens int `json:"cached_tokens"`
	} `json:"implied_prefix_reuse"`
	Faults *struct {
		Classes []struct {
			Kind     string         `json:"kind"`
			Requests int            `json:"requests"`
			OK       int            `json:"ok"`
			ByClass  map[string]int `json:"by_class"`
		} `json:"classes"`
	} `json:"faults"`
}

// percentile returns the report's pP of a latency metric, in µs.
func (r report) percentile(t *testing.T, metric string, p float64) float64 {
	t.Helper()
	for _, q := range r.All.Latency[metric].Percentiles {
		if q.P == p {
			return q.Value
		}
	}
	t.Fatalf("report.json has no %s p%v", metric, p)
	return 0
}

// readReport reads DIR/report.json.
func readReport(t *testing.T, dir string) report {
	t.Helper()
	var r report
	readReportInto(t, dir, &r)
	return r
}

// readReportInto decodes DIR/report.json into v.
func readReportInto(t *testing.T, dir string, v any) {
	t.Helper()
	readJSON(t, filepath.Join(dir, "report.json"), v)
}

// checkReportCounts checks that report.json counts the healthy requests
// the records hold, with no failures, and that the measurement's run,
// tokens and errors checks pass.
func checkReportCounts(t *testing.T, r run) {
	t.Helper()
	checkCounts(t, r)
	checkMeasurement(t, r.dir, "run", "tokens", "errors")
}

// checkCounts checks that report.json counts the healthy requests the
// records hold, with no failures.
func checkCounts(t *testing.T, r run) {
	t.Helper()
	healthy := 0
	for _, rec := range r.recs.Requests {
		if rec.Fault == "" {
			healthy++
		}
	}
	rep := readReport(t, r.dir)
	if rep.All.Requests != healthy || rep.All.OK != healthy || rep.All.Errors.Failed != 0 {
		t.Errorf("report.json: %d requests, %d ok, %d failed; the records hold %d healthy requests, all ok", rep.All.Requests, rep.All.OK, rep.All.Errors.Failed, healthy)
	}
}

// checkMeasurementFails checks that the report's measurement check name
// failed, saying why.
func checkMeasurementFails(t *testing.T, dir, name, why string) {
	t.Helper()
	var rep struct {
		Measurement *struct {
			Verdict string `json:"verdict"`
			Checks  []struct {
				Name   string `json:"name"`
				OK     bool   `json:"ok"`
				Detail string `json:"detail"`
			} `json:"checks"`
		} `json:"measurement"`
	}
	readJSON(t, filepath.Join(dir, "report.json"), &rep)
	if rep.Measurement == nil {
		t.Fatalf("report.json has no measurement verdict")
	}
	for _, c := range rep.Measurement.Checks {
		if c.Name == name && (c.OK || !strings.Contains(c.Detail, why)) {
			t.Errorf("measurement check %q: ok %v, %q; want it failed with %q", name, c.OK, c.Detail, why)
		}
	}
	if rep.Measurement.Verdict != "questionable" {
		t.Errorf("measurement %q, want questionable", rep.Measurement.Verdict)
	}
}

// checkMeasurement checks that the report's verdict on the measurement
// passes the named checks (those that do not depend on the machine's
// load: the client's schedule lag does).
func checkMeasurement(t *testing.T, dir string, names ...string) {
	t.Helper()
	var rep struct {
		Measurement *struct {
			Checks []struct {
				Name    string `json:"name"`
				OK      bool   `json:"ok"`
				Applies bool   `json:"applies"`
				Detail  string `json:"detail"`
			} `json:"checks"`
		} `json:"measurement"`
	}
	readJSON(t, filepath.Join(dir, "report.json"), &rep)
	if rep.Measurement == nil {
		t.Errorf("report.json has no measurement verdict")
		return
	}
	for _, name := range names {
		found := false
		for _, c := range rep.Measurement.Checks {
			if c.Name != name {
				continue
			}
			found = true
			if !c.OK || !c.Applies {
				t.Errorf("measurement check %q: ok %v, applies %v: %s", name, c.OK, c.Applies, c.Detail)
			}
		}
		if !found {
			t.Errorf("report.json measurement has no check %q", name)
		}
	}
}
