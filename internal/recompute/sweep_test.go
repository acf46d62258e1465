package recompute

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sweepJSON is the part of sweep.json this suite checks.
type sweepJSON struct {
	SLO        []slo       `json:"slo"`
	Points     []pointJSON `json:"points"`
	MaxPassing int         `json:"max_passing"`
	Search     *struct {
		MaxLoad float64 `json:"max_load"`
	} `json:"search"`
}

type pointJSON struct {
	Load        float64       `json:"load"`
	SendRate    float64       `json:"send_rate_per_s"`
	InFlight    float64       `json:"mean_in_flight"`
	Throughput  float64       `json:"throughput_rps"`
	OutputTokS  float64       `json:"output_tok_s"`
	Measured    int           `json:"measured"`
	TTFT        quantilesJSON `json:"ttft_us"`
	TPOT        quantilesJSON `json:"tpot_us"`
	E2E         quantilesJSON `json:"e2e_us"`
	Saturated   bool          `json:"saturated"`
	Stopped     string        `json:"stopped"`
	Interrupted bool          `json:"interrupted"`
	Verdict     string        `json:"verdict"`
	SLO         *struct {
		Pass   bool        `json:"pass"`
		Checks []checkJSON `json:"checks"`
	} `json:"slo"`
	Dir string `json:"dir"`
}

type quantilesJSON struct {
	P50 float64 `json:"p50"`
	P99 float64 `json:"p99"`
}

type checkJSON struct {
	Metric     string  `json:"metric"`
	Percentile float64 `json:"percentile"`
	N          int     `json:"n"`
	Exceeded   int     `json:"exceeded"`
	ObservedUS float64 `json:"observed_us"`
	Outcome    string  `json:"outcome"`
	NeedMore   int     `json:"need_more"`
}

// sweepSpec saturates the simulated engine near 15 requests per second.
const sweepSpec = `version: 1
name: sweep
seed: 3
tokenizer: o200k_base
duration: 20s
warmup: 2s
clients:
  - name: chat
    model: meta-llama/Llama-3.1-8B-Instruct
    rate: 10/s
    input: {dist: lognormal, median: 800, sigma: 0.8, min: 16, max: 6k}
    output: {dist: lognormal, median: 120, sigma: 0.6, max: 600}
    sampling: {max_tokens: output, exact_output: true}
`

// TestSweep recomputes every point of a simulated sweep that has passing,
// inconclusive, failing and saturated points from the point's records,
// and checks that sweep.json, report.txt and report.html give each point
// the same verdict word.
func TestSweep(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "sweep")
	mustSurge(t, []int{0, 1}, "sweep", writeSpec(t, tmp, sweepSpec), "--sim", "--rates", "5,12,15,18",
		"--min-requests", "300", "--precision", "0.15", "--slo", "ttft.p95<=150ms,tpot.p50<=11ms", "-o", dir)
	var sw sweepJSON
	readJSON(t, dir, "sweep.json", &sw)
	words := map[string]int{}
	var want []string
	for i, p := range sw.Points {
		w := checkPoint(t, dir, i, p, sw.SLO)
		words[w]++
		want = append(want, w)
	}
	for _, w := range []string{"pass", "inconclusive", "fail", "saturated"} {
		if words[w] == 0 {
			t.Errorf("the sweep has no %s point (%v): it no longer covers every verdict", w, words)
		}
	}
	checkSweepFormats(t, readText(t, dir, "report.txt"), readText(t, dir, "report.html"), sw, want)
	// The highest passing point is the highest load whose word is pass.
	best, bestLoad := -1, 0.0
	for i, w := range want {
		if w == "pass" && sw.Points[i].Load >= bestLoad {
			best, bestLoad = i, sw.Points[i].Load
		}
	}
	if sw.MaxPassing != best {
		t.Errorf("max_passing %d, recomputed %d", sw.MaxPassing, best)
	}
	if sw.Search != nil && best >= 0 && !near(sw.Search.MaxLoad, bestLoad) {
		t.Errorf("search max_load %v, recomputed %v", sw.Search.MaxLoad, bestLoad)
	}
}

// checkPoint recomputes point i of a sweep from its records and returns
// the verdict word it should have (docs/sweep.md, The verdict word).
func checkPoint(t *testing.T, root string, i int, p pointJSON, slos []slo) string {
	t.Helper()
	dir := filepath.Join(root, p.Dir)
	rs := readRecords(t, dir)
	rs = withoutTokenTimes(rs)
	rs.Header.SLO = slos
	c := checker{t: t, what: fmt.Sprintf("sweep point %d (load %v)", i, p.Load)}
	var ms []record
	for _, r := range rs.Recs {
		if measured(r) {
			ms = append(ms, r)
		}
	}
	ws, we := window(ms)
	f := scope(ms, rs.Header, ws, we, 0.99)
	c.eqInt("measured", int64(p.Measured), int64(f.requests))
	c.eqFloat("send_rate_per_s", p.SendRate, f.sendRate)
	_, inFlight := concurrency(rs.Recs, ws, we)
	c.eqFloat("mean_in_flight", p.InFlight, inFlight)
	c.eqFloat("throughput_rps", p.Throughput, f.reqPerS)
	secs := float64(we-ws) / 1e6
	c.eqFloat("output_tok_s", p.OutputTokS, float64(f.outputTokens)/secs)
	for _, q := range []struct {
		name string
		got  quantilesJSON
		d    dist
	}{{"ttft", p.TTFT, f.lat["ttft_lag"]}, {"tpot", p.TPOT, f.lat["tpot"]}, {"e2e", p.E2E, f.lat["e2e_lag"]}} {
		c.eqFloat(q.name+" p50", q.got.P50, q.d.pct(50))
		c.eqFloat(q.name+" p99", q.got.P99, q.d.pct(99))
	}
	// The point's own report must say the same.
	var rep reportJSON
	readJSON(t, dir, "report.json", &rep)
	c.eqFloat("throughput_rps against its report.json", p.Throughput, rep.All.Throughput.RequestsPerS)

	outcomes := map[string]bool{}
	switch {
	case len(slos) == 0:
		if p.SLO != nil {
			t.Errorf("%s: SLO checks %+v without SLOs", c.what, *p.SLO)
		}
	case p.SLO == nil || len(p.SLO.Checks) != len(f.slos):
		t.Errorf("%s: SLO checks %+v, recomputed %d", c.what, p.SLO, len(f.slos))
	default:
		for j, w := range f.slos {
			g := p.SLO.Checks[j]
			n := fmt.Sprintf("slo %s p%v", g.Metric, g.Percentile)
			c.eqInt(n+" n", int64(g.N), int64(w.requests))
			c.eqInt(n+" exceeded", int64(g.Exceeded), int64(w.exceeded))
			c.eqFloat(n+" observed_us", g.ObservedUS, w.observed)
			c.eqStr(n+" outcome", g.Outcome, w.verdict)
			c.eqInt(n+" need_more", int64(g.NeedMore), int64(w.needMore))
			outcomes[w.verdict] = true
		}
	}
	sat, shortfall := unsustained(rs.Recs, ms)
	if m := regexp.MustCompile(`completed (\d+) requests while (\d+) were sent`).FindStringSubmatch(p.Stopped); m != nil {
		if got := m[2] + "/" + m[1]; got != shortfall {
			t.Errorf("%s: stopped %q: sent/completed %s, recomputed %s", c.what, p.Stopped, got, shortfall)
		}
	}
	if sat && !p.Saturated {
		t.Errorf("%s: not saturated, but over its loaded interval %s requests were sent/completed", c.what, shortfall)
	}
	if p.Saturated && !sat && !strings.Contains(p.Stopped, "grew without bound") {
		t.Errorf("%s: saturated (%q), but the unsustained-load test recomputes no (%s sent/completed)", c.what, p.Stopped, shortfall)
	}
	var word string
	switch {
	case p.Interrupted || f.requests == 0:
		word = "inconclusive"
	case p.Saturated:
		word = "saturated"
	case len(slos) == 0:
		word = "" // kept up, and nothing to judge: no word
	case outcomes["fail"]:
		word = "fail"
	case outcomes["not enough samples"]:
		word = "inconclusive"
	default:
		word = "pass"
	}
	c.eqStr("verdict", p.Verdict, word)
	if p.SLO != nil && p.SLO.Pass != (word == "pass") {
		t.Errorf("%s: slo.pass %v with the verdict %s", c.what, p.SLO.Pass, word)
	}
	return word
}

// unsustained is the unsustained-load test of docs/sweep.md: over the
// loaded interval, from the first measured intended send to the last
// measured send, the server completed at least 10% fewer requests than
// were sent, a shortfall also over 3·√(mean in flight). It returns the
// verdict and "sent/completed".
func unsustained(all, ms []record) (bool, string) {
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, r := range ms {
		if isDropped(r) {
			continue
		}
		lo, hi = min(lo, r.IntendedUS), max(hi, r.SentUS)
	}
	sent, done := 0, 0
	for _, r := range all {
		if r.Fault != "" || isDropped(r) {
			continue
		}
		if r.SentUS >= lo && r.SentUS <= hi {
			sent++
		}
		if c, ok := completion(r); ok && isOK(r) && c >= lo && c <= hi {
			done++
		}
	}
	_, inFlight := concurrency(all, lo, hi)
	short := float64(sent - done)
	return short >= 0.1*float64(sent) && short > 3*math.Sqrt(inFlight), fmt.Sprintf("%d/%d", sent, done)
}

// wordFirst says whether cell starts with the verdict word: "fail: tpot
// p50 …", "pass — ttft …", "inconclusive   highest pass".
func wordFirst(cell, word string) bool {
	rest, ok := strings.CutPrefix(cell, word)
	return ok && (rest == "" || strings.ContainsAny(rest[:1], " :—"))
}

// checkSweepFormats checks that report.txt and report.html print each
// point's verdict word and throughput as sweep.json does, and that the
// word is the one recomputed.
func checkSweepFormats(t *testing.T, txt, page string, sw sweepJSON, want []string) {
	t.Helper()
	var textRows []map[string]string
	lines := strings.Split(txt, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "offered") && !strings.HasPrefix(l, "concurrency ") {
			continue
		}
		at := strings.Index(l, "verdict")
		for _, body := range lines[i+1:] {
			if strings.TrimSpace(body) == "" {
				break
			}
			f := strings.Fields(body)
			row := map[string]string{"load": f[0], "req/s": f[2]}
			if at >= 0 && at < len(body) {
				row["verdict"] = strings.TrimSpace(body[at:])
			}
			textRows = append(textRows, row)
		}
		break
	}
	var htmlRowsOf []map[string]string
	rows := htmlRows(page)
	for i, r := range rows {
		if len(r) < 3 || r[0] != "#" {
			continue
		}
		for _, body := range rows[i+1:] {
			if len(body) != len(r) {
				break
			}
			row := map[string]string{}
			for j, name := range r {
				row[name] = body[j]
			}

			htmlRowsOf = append(htmlRowsOf, row)
		}
		break
	}
	if len(textRows) != len(sw.Points) || len(htmlRowsOf) != len(sw.Points) {
		t.Fatalf("sweep: %d points in sweep.json, %d rows in report.txt, %d in report.html", len(sw.Points), len(textRows), len(htmlRowsOf))
	}
	for i, p := range sw.Points {
		what := fmt.Sprintf("sweep point %d (load %v)", i, p.Load)
		shown := want[i]
		if shown == "" {
			shown = "no SLO"
		}
		tw, hw := textRows[i]["verdict"], htmlRowsOf[i]["verdict"]
		if !wordFirst(tw, shown) || !wordFirst(hw, shown) || p.Verdict != want[i] {
			t.Errorf("%s verdict: text %q, HTML %q, sweep.json %q; recomputed %q", what, tw, hw, p.Verdict, want[i])
		}
		for _, s := range []string{textRows[i]["req/s"], htmlRowsOf[i]["req/s"]} {
			if !rounded(s, p.Throughput) {
				t.Errorf("%s req/s: printed %q, sweep.json %v", what, s, p.Throughput)
			}
		}
	}
}

// TestConcurrencySweep recomputes a closed-loop sweep without SLOs: each
// point's throughput over its window, the mean in flight, and no word
// for a point that kept up.
func TestConcurrencySweep(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "sweep")
	mustSurge(t, []int{0}, "sweep", writeSpec(t, tmp, sweepSpec), "--sim", "--concurrency", "2,16",
		"--min-requests", "150", "-o", dir)
	var sw sweepJSON
	readJSON(t, dir, "sweep.json", &sw)
	if len(sw.Points) != 2 {
		t.Fatalf("%d points, want 2", len(sw.Points))
	}
	var want []string
	for i, p := range sw.Points {
		want = append(want, checkPoint(t, dir, i, p, nil))
		if p.Throughput <= 0 {
			t.Errorf("concurrency %v: throughput %v req/s", p.Load, p.Throughput)
		}
	}
	checkSweepFormats(t, readText(t, dir, "report.txt"), readText(t, dir, "report.html"), sw, want)
}
