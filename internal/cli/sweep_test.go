package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"surge/metrics"
	"surge/sweep"
)

// readSweepResult reads DIR/sweep.json.
func readSweepResult(t *testing.T, dir string) *sweep.Result {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res sweep.Result
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	return &res
}

// TestSweepSimAuto runs the README's chat workload through an automatic
// sweep in virtual time on the default engine (Llama-3.1-8B on one H100):
// it measures saturation, goes past it, finds the knee below it, brackets
// the highest rate meeting the spec's SLOs, and writes the reports, the
// HTML one with the sweep's charts.
func TestSweepSimAuto(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "sweep")
	code, out, e := run(t, "sweep", "../../examples/chat.yaml", "--sim", "--auto", "-o", dir)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, e, out)
	}
	res := readSweepResult(t, dir)
	if res.Saturation <= 0 || len(res.Points) < 8 || !strings.HasPrefix(res.Target, "sim://Llama-3.1-8B@H100") {
		t.Fatalf("saturation %g, %d points, target %s", res.Saturation, len(res.Points), res.Target)
	}
	k := res.KneeTTFT
	if k == nil || k.Throughput >= res.Points[len(res.Points)-1].Throughput || res.Points[k.Index].Saturated {
		t.Errorf("TTFT knee %+v: want one below the highest throughput, at a point that kept up", k)
	}
	var saturated bool
	for _, p := range res.Points {
		saturated = saturated || p.Saturated
		if _, err := os.Stat(filepath.Join(dir, p.Dir, "records.jsonl")); err != nil {
			t.Errorf("point %g: %v", p.Load, err)
		}
	}
	if !saturated {
		t.Error("no point past saturation")
	}
	sr := res.Search
	if sr == nil || sr.MaxLoad <= 0 || res.MaxPassing < 0 || res.Points[res.MaxPassing].Load != sr.MaxLoad {
		t.Fatalf("search %+v, max passing %d", sr, res.MaxPassing)
	}
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{`id="chart-sweep-ttft"`, `id="chart-sweep-e2e"`, "knee"} {
		if !strings.Contains(string(html), id) {
			t.Errorf("report.html lacks %s", id)
		}
	}
	if !strings.Contains(out, "knee        ttft.p99 at") || !strings.Contains(out, "slo search") || !strings.Contains(out, "operate at") {
		t.Errorf("text report lacks the knee, search or operating point:\n%s", out)
	}
	// surge report re-renders the sweep from its directory.
	code, again, e := run(t, "report", dir, "--html", filepath.Join(dir, "again.html"))
	if code != exitOK || again != out {
		t.Errorf("report of the sweep directory: exit %d\n%s\ndiffers from the sweep's own:\n%s", code, e+again, out)
	}
}

// liveSweepSpec is a small workload for the built-in engine in real time:
// 8-token answers on an L40S limited to 4 sequences at once, which serves
// about 15 requests per second, and a median TTFT objective, which 40
// requests per point can judge.
const liveSweepSpec = `version: 1
seed: 5
duration: 3s
warmup: 500ms
clients:
  - name: tiny
    model: Llama-3.1-8B
    rate: 10/s
    input: 200
    output: 8
    sampling: {exact_output: true}
slo:
  ttft: {p50: 150ms}
`

// TestSweepSLOSearchLive runs the SLO search against the built-in engine
// in real time. Whatever the timing, every point's verdict word agrees
// with its slo.pass, the limit the search reports passed, its check ran
// 10% above it, and the note says what the check found: within
// run-to-run noise when it passed at or above a load that failed, out of
// runs when it passed below one. Whether 12 req/s passes at all depends
// on the machine keeping the engine's pace (on a loaded one its steps run
// late and its TTFT grows), so that is asserted under SURGE_STRICT_TIMING
// only.
func TestSweepSLOSearchLive(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	spec := writeSpec(t, tmp, "tiny.yaml", liveSweepSpec)
	dir := filepath.Join(tmp, "sweep")
	code, out, e := run(t, "sweep", spec, "--rates", "12,24", "--gpu", "l40s", "--max-num-seqs", "4",
		"--min-requests", "40", "--precision", "0.25", "-o", dir)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, e, out)
	}
	t.Logf("sweep report:\n%s", out)
	res := readSweepResult(t, dir)
	if !strings.HasPrefix(res.Target, "http://127.0.0.1:") {
		t.Errorf("target %q: want the built-in engine", res.Target)
	}
	for _, p := range res.Points {
		if p.SLO == nil || p.SLO.Pass != (p.Verdict == sweep.WordPass) {
			t.Errorf("point %g: verdict %q, slo %+v", p.Load, p.Verdict, p.SLO)
		}
	}
	sr := res.Search
	if sr == nil {
		t.Fatalf("no search\n%s", out)
	}
	if sr.MaxLoad == 0 {
		if os.Getenv("SURGE_STRICT_TIMING") != "" {
			t.Fatalf("search %+v: no rate passed; 12 req/s should on a quiet machine\n%s", sr, out)
		}
		if !strings.Contains(sr.Note, "no load passed") && !strings.Contains(sr.Note, "not enough requests") {
			t.Errorf("nothing passed, yet the note says %q", sr.Note)
		}
		return
	}
	if sr.Bracket == 0 { // every load passed: the engine kept up with 24 req/s
		if !strings.Contains(sr.Note, "every load passed") {
			t.Errorf("every load passed, yet the note says %q", sr.Note)
		}
		return
	}
	if sr.CheckLoad != sr.MaxLoad*sweep.CheckFactor {
		t.Fatalf("search %+v: want the limit's check 10%% higher\n%s", sr, out)
	}
	var best, check *sweep.Point
	for i := range res.Points {
		switch res.Points[i].Load {
		case sr.MaxLoad:
			best = &res.Points[i]
		case sr.CheckLoad:
			check = &res.Points[i]
		}
	}
	if best == nil || check == nil {
		t.Fatalf("points %+v lack the limit %g or its check %g", res.Points, sr.MaxLoad, sr.CheckLoad)
	}
	if best.Verdict != sweep.WordPass {
		t.Errorf("the limit %g req/s did not pass: %s (%s)", sr.MaxLoad, best.Verdict, best.Reason)
	}
	checkPassed := check.Verdict == sweep.WordPass
	want := "did not"
	switch {
	case checkPassed && sr.Bracket > 0 && sr.CheckLoad >= sr.Bracket:
		want = "noise"
	case checkPassed:
		want = "ran out of runs"
	}
	if checkPassed != sr.CheckPass || !strings.Contains(sr.Note, want) {
		t.Errorf("check at %g passed %v, search says %v: %q, want it to say %q", sr.CheckLoad, checkPassed, sr.CheckPass, sr.Note, want)
	}
}

func TestSweepRefusesBadFlags(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--rates", "1,2", "--auto"}, "exactly one of"},
		{[]string{}, "exactly one of"},
		{[]string{"--rates", "1,x"}, `--rates "x"`},
		{[]string{"--concurrency", "1.5"}, "whole number"},
		{[]string{"--auto", "--headroom", "1.5"}, "--headroom"},
		{[]string{"--auto", "--slo", "ttft.p99<2s"}, "--slo"},
		{[]string{"--auto", "--sim", "--target", "http://127.0.0.1:1"}, "choose one target"},
	} {
		code, _, e := run(t, append([]string{"sweep", "../../examples/chat.yaml"}, tt.args...)...)
		if code != exitUsage || !strings.Contains(e, tt.want) {
			t.Errorf("sweep %v: exit %d, %q; want a usage error about %q", tt.args, code, e, tt.want)
		}
	}
}

// agreeSpec is a small workload for sweeps in virtual time: 8-token
// answers on an L40S limited to 4 sequences at once, with a median TTFT
// objective that low loads pass and high ones fail.
const agreeSpec = `version: 1
seed: 7
duration: 4s
warmup: 200ms
clients:
  - name: tiny
    model: Llama-3.1-8B
    rate: 10/s
    input: 200
    output: 8
    sampling: {exact_output: true}
slo:
  ttft: {p50: 60ms}
`

// htmlVerdict finds each point's row in a sweep's report.html and its
// last cell, the verdict.
var htmlVerdict = regexp.MustCompile(`<tr><td[^>]*><a href="#point-(\d+)">\d+</a></td>.*<td[^>]*>([a-z]+)[^<]*</td><td[^>]*>([a-z]+)[^<]*</td>(?:<td><a href="[^"]*">report.html</a></td>)?</tr>`)

// TestSweepFilesAgree runs small sweeps in virtual time and reads back
// what they wrote: each point's throughput is the one in its own
// report.json, and its verdict is the same word in sweep.json (where the
// old slo.pass agrees with it), report.txt and report.html.
func TestSweepFilesAgree(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	spec := writeSpec(t, tmp, "agree.yaml", agreeSpec)
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"concurrency", []string{"--concurrency", "1,32", "--requests", "60", "--min-requests", "0"}},
		{"rates", []string{"--rates", "4,40", "--min-requests", "0"}},
	} {
		dir := filepath.Join(tmp, tt.name)
		args := append([]string{"sweep", spec, "--sim", "--gpu", "l40s", "--max-num-seqs", "4", "-o", dir}, tt.args...)
		code, out, e := run(t, args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s\n%s", tt.name, code, e, out)
		}
		res := readSweepResult(t, dir)
		text, err := os.ReadFile(filepath.Join(dir, "report.txt"))
		if err != nil {
			t.Fatal(err)
		}
		html, err := os.ReadFile(filepath.Join(dir, "report.html"))
		if err != nil {
			t.Fatal(err)
		}
		inHTML, measuredHTML := map[int]string{}, map[int]string{}
		for _, m := range htmlVerdict.FindAllStringSubmatch(string(html), -1) {
			i, _ := strconv.Atoi(m[1])
			inHTML[i-1], measuredHTML[i-1] = m[2], m[3]
		}
		rows := strings.Split(strings.SplitN(string(text), "\n\n", 3)[1], "\n")[2:] // under the header's two rows
		if len(rows) != len(res.Points) {
			t.Fatalf("%s: %d rows in report.txt for %d points:\n%s", tt.name, len(rows), len(res.Points), text)
		}
		words := map[sweep.Word]bool{}
		for i, p := range res.Points {
			var rep struct {
				All struct {
					Throughput struct {
						RequestsPerS float64 `json:"requests_per_s"`
					} `json:"throughput"`
				} `json:"all"`
				Measurement *metrics.Measurement `json:"measurement"`
			}
			data, err := os.ReadFile(filepath.Join(dir, p.Dir, "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &rep); err != nil {
				t.Fatal(err)
			}
			if got := rep.All.Throughput.RequestsPerS; p.Throughput != got || !(got > 0) {
				t.Errorf("%s %g: sweep.json %g req/s, its report.json %g", tt.name, p.Load, p.Throughput, got)
			}
			if p.SLO == nil || p.SLO.Pass != (p.Verdict == sweep.WordPass) {
				t.Errorf("%s %g: verdict %q with slo %+v", tt.name, p.Load, p.Verdict, p.SLO)
			}
			if f := strings.Fields(rows[i]); len(f) < 9 || f[8] != string(p.Verdict) {
				t.Errorf("%s %g: report.txt row %q, sweep.json says %q", tt.name, p.Load, rows[i], p.Verdict)
			}
			if rep.Measurement == nil || p.Measurement == nil || p.Measurement.Line() != rep.Measurement.Line() {
				t.Errorf("%s %g: sweep.json measurement %+v, its report.json %+v", tt.name, p.Load, p.Measurement, rep.Measurement)
			} else if f := strings.Fields(rows[i]); len(f) < 10 || f[9] != p.Measurement.Verdict || measuredHTML[i] != p.Measurement.Verdict {
				t.Errorf("%s %g: report.txt row %q and report.html %q, sweep.json's measurement %q", tt.name, p.Load, rows[i], measuredHTML[i], p.Measurement.Verdict)
			}
			if inHTML[i] != string(p.Verdict) {
				t.Errorf("%s %g: report.html says %q, sweep.json %q", tt.name, p.Load, inHTML[i], p.Verdict)
			}
			words[p.Verdict] = true
		}
		if len(words) < 2 {
			t.Errorf("%s: every point %v: want the sweep to tell loads apart", tt.name, words)
		}
	}
}
