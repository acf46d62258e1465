package report

import (
	"bytes"
	"errors"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"surge/metrics"
	"surge/sweep"
	"surge/trace"
)

// evil is text from outside surge (an error message, a model name) that
// must reach the page as text, never as markup.
const evil = "<script>alert(1)</script>"

// syntheticRun is a 10 s open-loop run of 300 requests at 30 req/s from
// two clients, latencies growing with load, with a warmup second, a
// failure whose message is evil, another with evil as its model, a
// timeout and a drop.
func syntheticRun() *trace.Records {
	rng := rand.New(rand.NewPCG(1, 2))
	rs := &trace.Records{Header: trace.RunHeader{
		Format: trace.RecordsFormat, Tool: "surge test", WorkloadHash: "sha256:0123456789abcdef0123", SpecHash: "sha256:feedfacefeedface",
		Seed: 7, Tokenizer: "o200k_base", Target: "http://127.0.0.1:8000", API: "chat",
		Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), WarmupUS: 1_000_000,
		SLO: []trace.SLO{{Metric: "ttft", Percentile: 99, BoundUS: 400_000}},
	}}
	for i := range 300 {
		at := int64(i) * 33_333
		ttft := int64(50_000 + rng.ExpFloat64()*40_000 + float64(i)*300)
		n := 20 + rng.IntN(200)
		itl := make([]int64, n-1)
		var sum int64
		for j := range itl {
			itl[j] = int64(15_000 + rng.ExpFloat64()*5_000)
			sum += itl[j]
		}
		r := trace.Record{
			Client: []string{"chat", "rag"}[i%2], Session: i, Model: "llama-3.1-8b", Warmup: at < 1_000_000,
			IntendedUS: at, SentUS: at + 300, TTFTUS: ttft, TTFOUS: ttft, E2EUS: ttft + sum, ITLUS: itl,
			InputTokens: 500, ClientInputTokens: 500, ServerInputTokens: 512, OutputTokens: n, ServerOutputTokens: n, Chunks: n,
			Status: 200, FinishReason: "length",
		}
		switch i {
		case 100:
			r.ErrorClass, r.Error, r.Status, r.ITLUS, r.E2EUS = trace.ErrHTTP, evil, 500, nil, 2_000
		case 150:
			r.Model = evil
		case 200:
			r.ErrorClass, r.Error, r.Status, r.ITLUS, r.E2EUS = trace.ErrTimeout, "deadline exceeded", 0, nil, 3_000_000
		case 250:
			r = trace.Record{Client: "chat", Session: i, IntendedUS: at, SentUS: at, ErrorClass: trace.ErrDropped}
		}
		rs.Records = append(rs.Records, r)
	}
	rs.End = &trace.RunEnd{DurationUS: 12_000_000, Scheduled: 300, Sent: 299, Dropped: 1}
	return rs
}

// serverSamples are 1 s samples of a server filling its KV cache.
func serverSamples() []ServerSample {
	var ss []ServerSample
	for i := range 13 {
		ss = append(ss, ServerSample{AtUS: int64(i) * 1e6, KVCacheUsage: min(1, float64(i)/10), Running: 4 + i, Waiting: max(0, i-8)})
	}
	return ss
}

// syntheticSweep is a rate sweep of six points whose TTFT knees at the
// fourth, the last one saturated, with a TTFT SLO the first four pass.
func syntheticSweep() *sweep.Result {
	r := &sweep.Result{
		Spec: "examples/" + evil + ".yaml", SpecHash: "sha256:abc", Target: "http://127.0.0.1:8000", Mode: sweep.Rate,
		SLO:        []trace.SLO{{Metric: "ttft", Percentile: 99, BoundUS: 500_000}, {Metric: "e2e", Percentile: 99, BoundUS: 8_000_000}},
		Saturation: 11.5,
	}
	loads := []float64{2, 4, 6, 8, 10, 12}
	ttft := []float64{60_000, 70_000, 90_000, 150_000, 900_000, 4_000_000}
	for i, l := range loads {
		p := sweep.Point{
			Load: l, SendRate: l * 1.02, Throughput: min(l*0.99, 10.5), OutputTokS: 150 * l, Measured: 600,
			TTFT: sweep.Quantiles{P50: ttft[i] / 3, P99: ttft[i]},
			TPOT: sweep.Quantiles{P50: 20_000, P99: 35_000 + 5_000*float64(i)},
			E2E:  sweep.Quantiles{P50: 2_000_000 + ttft[i], P99: 4_000_000 + 2*ttft[i]},
			Dir:  filepath.Join("points", "rate-"+strings.TrimSuffix(num(l), ".0")),
		}
		pass := ttft[i] <= 500_000
		out := sweep.Pass
		if !pass {
			out = sweep.Fail
		}
		p.SLO = &sweep.Verdict{Pass: pass, Checks: []sweep.Check{{SLO: r.SLO[0], N: 600, Exceeded: i, ObservedUS: ttft[i], Outcome: out}}}
		if i == 5 {
			p.Saturated, p.Stopped = true, "queue grew for 20 s"
		}
		p.Decide()
		r.Points = append(r.Points, p)
	}
	r.Points[0].Summary = metrics.Summarize(syntheticRun(), metrics.Options{})
	r.KneeTTFT = &sweep.Knee{Metric: "ttft.p99", Index: 3, Throughput: r.Points[3].Throughput, LatencyUS: ttft[3]}
	r.MaxPassing = 3
	r.Operating = &sweep.Operating{Load: 6.4, Throughput: 6.3, Headroom: 0.2, Basis: "max passing load 8 req/s"}
	return r
}

// runCharts and sweepCharts are the ids of the charts each report must
// have.
var (
	runChartIDs = []string{"chart-latency-cdf", "chart-ttft-hist", "chart-itl-hist", "chart-e2e-hist",
		"chart-rate", "chart-output-tokens", "chart-in-flight", "chart-ttft-series", "chart-server-kv", "chart-server-queue"}
	sweepChartIDs = []string{"chart-sweep-ttft", "chart-sweep-tpot", "chart-sweep-e2e", "chart-sweep-throughput", "chart-sweep-tokens"}
)

// fullInput is a report of a sweep and of one run with server samples.
func fullInput() HTMLInput {
	rs := syntheticRun()
	return HTMLInput{
		Summary: metrics.Summarize(rs, metrics.Options{PerClient: true}),
		Records: rs, Sweep: syntheticSweep(), Server: serverSamples(), Title: "report of " + evil,
	}
}

// render writes the HTML report of in.
func render(t *testing.T, in HTMLInput) string {
	t.Helper()
	var b bytes.Buffer
	if err := HTML(&b, in); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// svgTag finds the opening tag of the chart svg with the given id.
func svgTag(page, id string) string {
	return regexp.MustCompile(`<svg id="` + regexp.QuoteMeta(id) + `"[^>]*>`).FindString(page)
}

func TestHTMLCharts(t *testing.T) {
	t.Parallel()
	rs := syntheticRun()
	tests := []struct {
		name   string
		reason string
		in     HTMLInput
		want   []string
		absent []string
	}{
		{"full", "a sweep and a run with records and server samples have every chart",
			fullInput(), append(ids(runChartIDs), sweepChartIDs...), nil},
		{"summary only", "without records only the server charts remain of the run's",
			HTMLInput{Summary: metrics.Summarize(rs, metrics.Options{}), Server: serverSamples()},
			[]string{"chart-server-kv", "chart-server-queue"}, append(ids(runChartIDs[:8]), sweepChartIDs...)},
		{"records only", "records alone are summarised; no server samples means no server charts",
			HTMLInput{Records: rs}, runChartIDs[:8], []string{"chart-server-kv", "chart-sweep-ttft"}},
		{"sweep only", "a sweep alone has its charts and no run section",
			HTMLInput{Sweep: syntheticSweep()}, sweepChartIDs, runChartIDs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			page := render(t, tt.in)
			for _, id := range tt.want {
				tag := svgTag(page, id)
				if tag == "" {
					t.Errorf("%s: no chart %s", tt.reason, id)
					continue
				}
				if !strings.Contains(tag, `width="640" height="360"`) || !strings.Contains(tag, `viewBox="0 0 480 270"`) {
					t.Errorf("chart %s is not 640×360 px over 480×270 pt: %s", id, tag)
				}
			}
			for _, id := range tt.absent {
				if strings.Contains(page, `id="`+id+`"`) {
					t.Errorf("%s: unexpected chart %s", tt.reason, id)
				}
			}
			if n := strings.Count(page, "<svg "); n != len(tt.want) {
				t.Errorf("%s: %d charts, want %d", tt.reason, n, len(tt.want))
			}
		})
	}
}

// ids copies a list of chart ids, so appending to the copy leaves the
// original alone.
func ids(list []string) []string { return append([]string(nil), list...) }

func TestHTMLEscapes(t *testing.T) {
	t.Parallel()
	page := render(t, fullInput())
	if strings.Contains(page, "<script") {
		i := strings.Index(page, "<script")
		t.Fatalf("raw <script> in the page: …%s…", page[max(0, i-80):min(len(page), i+80)])
	}
	escaped := "&lt;script&gt;alert(1)&lt;/script&gt;"
	// The title (twice), the error message, the model name and the sweep's
	// spec path each carry it.
	if n := strings.Count(page, escaped); n < 5 {
		t.Errorf("escaped script text appears %d times, want at least 5 (title ×2, error, model, spec)", n)
	}
	for _, s := range []string{"<link", "src=", `href="http`, "@import", "url("} {
		if strings.Contains(page, s) {
			t.Errorf("the page loads something: it contains %q", s)
		}
	}
}

func TestHTMLContent(t *testing.T) {
	t.Parallel()
	page := render(t, fullInput())
	for _, want := range []struct{ text, reason string }{
		{"Content-Security-Policy", "the page forbids every load"},
		{`<a href="#point-1">1</a>`, "the point with a summary is linked to its section"},
		{`<section id="point-1" class="point">`, "and has the section"},
		{"saturated: queue grew for 20 s", "the saturated point says why it stopped"},
		{"knee of ttft.p99", "the knee is named"},
		{"max passing SLO", "the highest passing point is named"},
		{"6.4 req/s, expecting 6.30 req/s: 20.0% below max passing load 8 req/s", "the operating point and its basis"},
		{"ttft p99 ≤ 400 ms", "the run's SLO is shown"},
		{"input client→server", "the token audit is shown"},
		{"deadline exceeded", "error messages are listed"},
		{"HTTP 500", "errors by status"},
		{"sha256:feedfacefeedface", "the spec hash is shown"},
		{"end of warmup", "the time series mark the warmup's end"},
		{`<a href="points/rate-2.00/report.html">report.html</a>`, "each point links its own report, relative to the sweep's directory"},
		{`<a href="points/rate-12/report.html">report.html</a>`, "the last point too"},
		{`<th class="num">n</th>`, "a header of figures is right-aligned with them"},
		{`<th>ms</th>`, "a header of names is not"},
		{`<td class="num">2,628</td>`, "figures are right-aligned"},
		{`<td>E2E</td>`, "names are left-aligned"},
		{`<td>deadline exceeded</td>`, "so are messages"},
		{"p99, p90 (dashed) and p50 TTFT", "TTFT over time has three percentiles"},
	} {
		if !strings.Contains(page, want.text) {
			t.Errorf("%s: no %q", want.reason, want.text)
		}
	}
}

func TestNumericCell(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"1,234", true}, {"0.213", true}, {"-0.0316", true}, {"+20.2%", true}, {"313 ms", true},
		{"250–500", true}, {"> 5.00", true}, {"—", true}, {"n/a", true}, {"19.8 req/s", true},
		{"TTFT", false}, {"ttft p99 ≤ 400 ms", false}, {"vllm:time_to_first_token_seconds", false},
		{"266 of 266", false}, {"HTTP 500", false}, {"", false},
	} {
		if got := numeric(tt.text); got != tt.want {
			t.Errorf("numeric(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestHTMLNothing(t *testing.T) {
	t.Parallel()
	if err := HTML(&bytes.Buffer{}, HTMLInput{}); !errors.Is(err, errNothing) {
		t.Errorf("empty input: %v, want errNothing", err)
	}
	if err := HTML(failWriter{}, fullInput()); err == nil {
		t.Error("a failing writer gave no error")
	}
}

func TestChartsPNG(t *testing.T) {
	t.Parallel()
	// A sweep and the server's samples: five charts, since rasterising
	// all thirteen takes 20 s under the race detector.
	dir := t.TempDir()
	rs := syntheticRun()
	in := HTMLInput{Summary: metrics.Summarize(rs, metrics.Options{}), Sweep: syntheticSweep(), Server: serverSamples()}
	paths, err := ChartsPNG(dir, in)
	if err != nil {
		t.Fatal(err)
	}
	want := append(ids(sweepChartIDs), "chart-server-kv", "chart-server-queue")
	if len(paths) != len(want) {
		t.Fatalf("%d PNG files, want %d: %v", len(paths), len(want), paths)
	}
	for i, p := range paths {
		if filepath.Base(p) != want[i]+".png" {
			t.Errorf("file %d is %s, want %s.png", i, p, want[i])
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if b := img.Bounds(); b.Dx() != 2*chartW || b.Dy() != 2*chartH {
			t.Errorf("%s is %v, want %d×%d", p, b, 2*chartW, 2*chartH)
		}
		if !varied(img) {
			t.Errorf("%s is blank", p)
		}
	}
	if _, err := ChartsPNG(filepath.Join(dir, "missing"), in); err == nil {
		t.Error("writing into a missing directory gave no error")
	}
}

// TestHTMLPooledRates checks that the HTML report shows the rates the
// text report shows for embeddings inputs and rerank documents.
func TestHTMLPooledRates(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{"embeddings": "inputs/s (embeddings)", "rerank": "49.2 documents/s (rerank, score)"} {
		if page := render(t, HTMLInput{Summary: summarize(t, name)}); !strings.Contains(page, want) {
			t.Errorf("%s: no %q", name, want)
		}
	}
}
