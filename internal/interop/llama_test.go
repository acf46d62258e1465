package interop

import (
	"fmt"
	"path/filepath"
	"testing"
)

// llamaSpec is a closed-loop workload for llama-server with the default
// -np 8 (prompt and output within 1,024 tokens per slot).
func llamaSpec(api string, concurrency, requests int) string {
	return fmt.Sprintf(`version: 1
name: interop-llama-%[1]s
seed: 7
tokenizer: TOKENIZER
requests: %[3]d
clients:
  - name: c
    model: model
    api: %[1]s
    concurrency: %[2]d
    input: {dist: uniform, min: 30, max: 400}
    output: 24
    prompt: mixed
    sampling: {exact_output: true}
`, api, concurrency, requests)
}

// TestLlamaServer drives llama-server (model "model", 8 slots) with
// chat and completions, streamed and not, one and eight requests in
// flight, a faulted run and a sweep, as a user would with surge's
// binary, and checks each run against the server's own accounting.
func TestLlamaServer(t *testing.T) {
	srv := startLlama(t, "model")
	tr := newTraces(t)
	cases := []struct {
		name        string
		api         string
		concurrency int
		requests    int
		stream      bool
	}{
		{"completions/stream/c1", "completions", 1, 8, true},
		{"completions/stream/c8", "completions", 8, 24, true},
		{"completions/no-stream/c8", "completions", 8, 24, false},
		{"chat/stream/c1", "chat", 1, 8, true},
		{"chat/stream/c8", "chat", 8, 24, true},
		{"chat/no-stream/c1", "chat", 1, 8, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if smoke() && c.name != "chat/stream/c8" {
				t.Skip("-short: only chat/stream/c8")
			}
			var flags []string
			if !c.stream {
				flags = append(flags, "--no-stream")
			}
			r := runTrace(t, srv, tr.gen(t, llamaSpec(c.api, c.concurrency, c.requests)), flags...)
			checkComplete(t, r)
			checkReportCounts(t, r)
			off := checkPrompts(t, srv, r)
			switch c.api {
			case "completions":
				if off != 1 {
					t.Errorf("completions: the server's prompt_tokens exceed the prompt's by %d, want 1 (BOS)", off)
				}
			case "chat":
				// The Llama 3 template of one user message: BOS, the user
				// header (3 tokens and "\n\n"), <|eot_id|>, the assistant
				// header (4 tokens).
				if off != 10 {
					t.Errorf("chat: the server's prompt_tokens exceed the prompt's by %d, want 10 (Llama 3's template of one message)", off)
				}
			}
			for _, rec := range r.recs.Requests {
				if rec.ServerOutputTokens != 24 || rec.OutputTokens != 24 {
					t.Errorf("%s: %d output tokens asked, %d by the server's usage; want 24 and 24 (ignore_eos)", rec, rec.OutputTokens, rec.ServerOutputTokens)
				}
			}
			if c.stream {
				checkTimings(t, r)
			}
		})
	}

	t.Run("faults", func(t *testing.T) {
		if smoke() {
			t.Skip("-short")
		}
		testLlamaFaults(t, srv, tr)
	})
	t.Run("server-timings", func(t *testing.T) {
		if smoke() {
			t.Skip("-short")
		}
		testServerTimings(t, srv, tr)
	})
	t.Run("sweep", func(t *testing.T) {
		if smoke() {
			t.Skip("-short")
		}
		testLlamaSweep(t, srv)
	})
	t.Run("styles", func(t *testing.T) {
		if smoke() {
			t.Skip("-short")
		}
		testLlamaStyles(t, srv, tr)
	})
}

// testLlamaStyles runs a mix of task styles and languages, as
// examples/mixed-tasks.yaml does, and checks that every prompt reaches
// the server at its exact length (the server's prompt_tokens are the
// prompt's and Llama 3's template of one message) and that report.json
// breaks the requests down by style, each style's requests adding up to
// the run's.
func testLlamaStyles(t *testing.T, srv *peer, tr *traces) {
	spec := `version: 1
name: interop-llama-styles
seed: 11
tokenizer: TOKENIZER
requests: 32
clients:
  - name: c
    model: model
    api: chat
    concurrency: 4
    input: {dist: uniform, min: 60, max: 400}
    output: 8
    content: {code: 1, analysis: 1, creative: 1, math: 1, translation: 1, adversarial: 1}
    sampling: {exact_output: true}
`
	r := runTrace(t, srv, tr.gen(t, spec))
	checkComplete(t, r)
	checkReportCounts(t, r)
	if off := checkPrompts(t, srv, r); off != 10 {
		t.Errorf("the server's prompt_tokens exceed the prompts' by %d, want 10 (Llama 3's template of one message)", off)
	}
	var rep struct {
		Styles []struct {
			Style string `json:"style"`
			OK    int    `json:"ok"`
		} `json:"styles"`
	}
	readReportInto(t, r.dir, &rep)
	ok := 0
	for _, s := range rep.Styles {
		ok += s.OK
	}
	if len(rep.Styles) < 4 || ok != len(r.recs.Requests) {
		t.Errorf("report.json styles %+v: %d requests ok in all, want at least 4 styles adding up to the run's %d", rep.Styles, ok, len(r.recs.Requests))
	}
}

// testLlamaFaults runs a workload with faults injected on purpose and
// checks that every failure is one of them, that each kind of fault got
// the answer llama-server gives it, and that the report counts the
// faults apart from the healthy requests.
func testLlamaFaults(t *testing.T, srv *peer, tr *traces) {
	// invalid_params is left out: it may send max_tokens -1, which
	// llama-server takes as "until the context is full" (seconds per
	// request with a model that never stops).
	spec := `version: 1
name: interop-llama-faults
seed: 3
tokenizer: TOKENIZER
requests: 40
clients:
  - name: c
    model: model
    api: chat
    concurrency: 4
    input: {dist: uniform, min: 30, max: 200}
    output: 16
    sampling: {exact_output: true}
    faults:
      empty_prompt: 5%
      malformed_json: 5%
      churn: 5%
      over_context: {share: 5%, tokens: 2000}
      cancel: {share: 10%, after_tokens: 4}
`
	r := runTrace(t, srv, tr.gen(t, spec))
	checkComplete(t, r)
	checkReportCounts(t, r)
	byKind := map[string]int{}
	for _, rec := range r.recs.Requests {
		if rec.Fault == "" {
			continue
		}
		byKind[rec.Fault]++
		var wantClass string
		switch rec.Fault {
		case "malformed_json", "over_context":
			wantClass = "http"
		case "cancel":
			wantClass = "cancelled"
		}
		if rec.ErrorClass != wantClass {
			t.Errorf("%s: error class %q (%s), want %q", rec, rec.ErrorClass, rec.Error, wantClass)
		}
		if rec.Fault == "over_context" && rec.Status != 400 {
			t.Errorf("%s: status %d, want llama-server's 400 exceed_context_size_error", rec, rec.Status)
		}
	}
	if len(byKind) < 4 {
		t.Errorf("faults injected %v: want most kinds of the spec at least once", byKind)
	}
	rep := readReport(t, r.dir)
	if rep.Faults == nil {
		t.Fatalf("report.json has no faults section; the records carry %v", byKind)
	}
	got := map[string]int{}
	for _, c := range rep.Faults.Classes {
		got[c.Kind] = c.Requests
	}
	if fmt.Sprint(got) != fmt.Sprint(byKind) {
		t.Errorf("report.json faults by kind %v, the records %v", got, byKind)
	}
}

// testLlamaSweep runs a two-point concurrency sweep and checks that each
// point ran cleanly and that the sweep's figures for a point are the
// point's own report's.
func testLlamaSweep(t *testing.T, srv *peer) {
	dir := t.TempDir()
	spec := writeSpec(t, dir, "spec.yaml", llamaSpec("completions", 1, 12))
	out := filepath.Join(dir, "sweep")
	mustSurge(t, dir, "sweep", spec, "--concurrency", "1,4", "--min-requests", "0", "--target", srv.url, "-o", out)
	var sw struct {
		Points []struct {
			Load          float64            `json:"load"`
			ThroughputRPS float64            `json:"throughput_rps"`
			OutputTokS    float64            `json:"output_tok_s"`
			TTFT          map[string]float64 `json:"ttft_us"`
			E2E           map[string]float64 `json:"e2e_us"`
			Dir           string             `json:"dir"`
		} `json:"points"`
	}
	readJSON(t, filepath.Join(out, "sweep.json"), &sw)
	if len(sw.Points) != 2 || sw.Points[0].Load != 1 || sw.Points[1].Load != 4 {
		t.Fatalf("sweep.json points %+v, want concurrency 1 and 4", sw.Points)
	}
	for _, p := range sw.Points {
		pdir := filepath.Join(out, p.Dir)
		recs := readRecords(t, pdir)
		for _, rec := range recs.Requests {
			if rec.ErrorClass != "" {
				t.Errorf("point %v: %s failed: %s: %s", p.Load, rec, rec.ErrorClass, rec.Error)
			}
		}
		if len(recs.Requests) != 12 {
			t.Errorf("point %v: %d records, want 12", p.Load, len(recs.Requests))
		}
		rep := readReport(t, pdir)
		same := func(what string, sweep, point float64) {
			if d := sweep - point; d > 1e-6*point || -d > 1e-6*point {
				t.Errorf("point %v: %s is %.6g in sweep.json but %.6g in the point's report.json (one figure, two values)", p.Load, what, sweep, point)
			}
		}
		same("requests/s", p.ThroughputRPS, rep.All.Throughput.RequestsPerS)
		same("output tokens/s", p.OutputTokS, rep.All.Throughput.OutputTokensPerS)
		same("TTFT+lag p99", p.TTFT["p99"], rep.percentile(t, "ttft_lag", 99))
		same("E2E+lag p50", p.E2E["p50"], rep.percentile(t, "e2e_lag", 50))
	}
	if res := surge(t, dir, "report", out); res.code != 0 {
		t.Errorf("surge report of the sweep directory failed\n%s", res)
	}
}
