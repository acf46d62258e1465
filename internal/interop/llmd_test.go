package interop

import (
	"fmt"
	"math"
	"testing"
)

// llmdSpec is a closed-loop workload for llm-d-inference-sim.
func llmdSpec(api string, concurrency, requests int, extra string) string {
	return fmt.Sprintf(`version: 1
name: interop-llmd-%[1]s
seed: 11
tokenizer: TOKENIZER
requests: %[3]d
clients:
  - name: c
    model: fake
    api: %[1]s
    concurrency: %[2]d
    input: {dist: uniform, min: 20, max: 200}
    output: 16
    sampling: {exact_output: true}
%[4]s`, api, concurrency, requests, extra)
}

// TestLLMDSim drives llm-d-inference-sim, with its prefix cache on, in
// streamed and non-streamed runs, a workload with shared system prompts,
// and against a second sim that fails requests on purpose.
func TestLLMDSim(t *testing.T) {
	srv := startLLMD(t, "--enable-kvcache", "--kv-cache-size", "100000", "--block-size", "16",
		"--max-num-seqs", "16", "--time-to-first-token", "5ms", "--inter-token-latency", "1ms", "--seed", "1")
	tr := newTraces(t)

	for _, c := range []struct {
		name   string
		stream bool
	}{{"completions/stream/c8", true}, {"completions/no-stream/c8", false}} {
		t.Run(c.name, func(t *testing.T) {
			if smoke() && !c.stream {
				t.Skip("-short")
			}
			var flags []string
			if !c.stream {
				flags = append(flags, "--no-stream")
			}
			r := runTrace(t, srv, tr.gen(t, llmdSpec("completions", 8, 32, "")), flags...)
			checkComplete(t, r)
			checkOtherTokenizer(t, r)
			var ttft []float64
			for _, rec := range r.recs.Requests {
				if rec.ServerOutputTokens != 16 {
					t.Errorf("%s: the server's completion_tokens %d, want 16 (ignore_eos)", rec, rec.ServerOutputTokens)
				}
				// The sim waits 5 ms before the first token. On a loaded
				// machine the client's send stamp can come late (see
				// checkTimings), so per request only when timing is strict.
				if c.stream && strict() && rec.TTFTUS < 5000 {
					t.Errorf("%s: TTFT %d µs, below the sim's fixed 5 ms", rec, rec.TTFTUS)
				}
				ttft = append(ttft, float64(rec.TTFTUS))
			}
			if m := median(ttft); c.stream && m < 5000 {
				t.Errorf("median TTFT %.0f µs, below the sim's fixed 5 ms", m)
			}
		})
	}

	// The Responses and Messages APIs, streamed as their typed events and
	// whole, in conversations: every token an event, the usage read
	// from response.completed or message_start and message_delta.
	for _, api := range []string{"responses", "messages"} {
		for _, stream := range []bool{true, false} {
			name := api + "/stream"
			if !stream {
				name = api + "/no-stream"
			}
			t.Run(name, func(t *testing.T) {
				if smoke() {
					t.Skip("-short")
				}
				var flags []string
				if !stream {
					flags = append(flags, "--no-stream")
				}
				spec := llmdSpec(api, 4, 24, "    session: {kind: chat, turns: 2}\n")
				r := runTrace(t, srv, tr.gen(t, spec), flags...)
				checkComplete(t, r)
				checkOtherTokenizer(t, r)
				// The sim's Responses API says "completed" at the cap, not
				// "incomplete" as OpenAI's does; its Messages API says
				// max_tokens, as Anthropic's does.
				finish := map[string]string{"responses": "stop", "messages": "length"}[api]
				var ttft []float64
				for _, rec := range r.recs.Requests {
					if rec.ServerOutputTokens != 16 || rec.FinishReason != finish || (stream && rec.Chunks != 16) {
						t.Errorf("%s: %d completion tokens in %d events, finish %q; want 16 in 16, %s (ignore_eos)", rec, rec.ServerOutputTokens, rec.Chunks, rec.FinishReason, finish)
					}
					if rec.ServerInputTokens == 0 {
						t.Errorf("%s: no prompt tokens in the usage", rec)
					}
					ttft = append(ttft, float64(rec.TTFTUS))
				}
				if m := median(ttft); stream && m < 5000 {
					t.Errorf("median TTFT %.0f µs, below the sim's fixed 5 ms", m)
				}
			})
		}
	}

	t.Run("embeddings", func(t *testing.T) {
		if smoke() {
			t.Skip("-short")
		}
		// Batches of 1 to 8 texts: each answered whole with a vector per
		// text, the sim's own prompt count, no tokens to time.
		spec := `version: 1
name: interop-llmd-embeddings
seed: 13
tokenizer: TOKENIZER
requests: 24
clients:
  - name: c
    model: fake
    api: embeddings
    concurrency: 4
    input: {dist: uniform, min: 20, max: 200}
    inputs: {dist: uniform, min: 1, max: 8}
`
		r := runTrace(t, srv, tr.gen(t, spec))
		checkComplete(t, r)
		checkCounts(t, r)
		checkMeasurement(t, r.dir, "run", "errors")
		want := map[key]int{}
		for _, s := range r.trace {
			for i, tu := range s.Turns {
				want[key{s.Client, s.Index, i}] = len(tu.Inputs)
			}
		}
		for _, rec := range r.recs.Requests {
			n := want[key{rec.Client, rec.Session, rec.Turn}]
			if rec.Inputs != n || n == 0 || !rec.NotStreamed || rec.TTFTUS != 0 || rec.Chunks != 0 || rec.ServerInputTokens == 0 || rec.ServerOutputTokens != 0 {
				t.Errorf("%s: %d inputs (the trace's %d), not streamed %v, TTFT %d, %d chunks, server tokens %d/%d; want the batch answered whole, its prompt counted",
					rec, rec.Inputs, n, rec.NotStreamed, rec.TTFTUS, rec.Chunks, rec.ServerInputTokens, rec.ServerOutputTokens)
			}
		}
		rep := readReport(t, r.dir)
		if rep.All.Requests != len(r.recs.Requests) {
			t.Errorf("report.json counts %d requests, the records %d", rep.All.Requests, len(r.recs.Requests))
		}
	})

	t.Run("tools", func(t *testing.T) {
		// Agent episodes sending a shared set of four tools with
		// tool_choice required: every reply makes one call or more (in
		// parallel) that the sim streams as tool_calls deltas (the id on
		// each, the name on the first).
		agent := `    session:
      kind: agent
      steps: 3
      tools: 1
      tool_latency: 10ms
      tool_result: 40
      tool_set: {count: 4, schema: 120, scope: shared, choice: required}
      history: pinned
`
		r := runTrace(t, srv, tr.gen(t, llmdSpec("chat", 2, 4, agent)))
		checkComplete(t, r)
		for _, rec := range r.recs.Requests {
			if rec.ErrorClass != "" || rec.ServerToolCalls < 1 || rec.TTFTCUS < rec.TTFTUS || rec.ToolCallChunks < rec.ServerToolCalls || rec.ToolSchemaTokens != 4*120 || rec.FinishReason != "tool_calls" {
				t.Errorf("%s: %s, %d tool calls over %d chunks, ttftc %d (ttft %d), schema %d tokens, finish %q; want a call or more (parallel), their events, 480 schema tokens, tool_calls",
					rec, rec.ErrorClass, rec.ServerToolCalls, rec.ToolCallChunks, rec.TTFTCUS, rec.TTFTUS, rec.ToolSchemaTokens, rec.FinishReason)
			}
		}
		var rep struct {
			All struct {
				Latency struct {
					TTFTC struct {
						N int `json:"n"`
					} `json:"ttftc"`
				} `json:"latency"`
			} `json:"all"`
		}
		readReportInto(t, r.dir, &rep)
		if n := rep.All.Latency.TTFTC.N; n != len(r.recs.Requests) {
			t.Errorf("report.json: TTFTC over %d requests, want all %d", n, len(r.recs.Requests))
		}
	})

	t.Run("tools/live", func(t *testing.T) {
		// The same episodes with live history: each later turn sends the
		// sim's calls back with their ids (assistant tool_calls, then a
		// role tool message per call), which the sim must take.
		agent := `    session:
      kind: agent
      steps: 3
      tools: 1
      tool_latency: 10ms
      tool_result: 40
      tool_set: {count: 4, schema: 120, scope: shared, choice: required}
`
		r := runTrace(t, srv, tr.gen(t, llmdSpec("chat", 2, 4, agent)))
		checkComplete(t, r)
		later := 0
		for _, rec := range r.recs.Requests {
			if rec.ErrorClass != "" || rec.ServerToolCalls < 1 {
				t.Errorf("%s: %s %s, %d tool calls; want a call or more, no error", rec, rec.ErrorClass, rec.Error, rec.ServerToolCalls)
			}
			if rec.Turn > 0 {
				later++
			}
		}
		if later == 0 {
			t.Errorf("no later turn was sent: the tool results were never carried back")
		}
	})

	t.Run("images", func(t *testing.T) {
		// Requests with one or two PNG images each, as chat image_url and
		// responses input_image parts, which the sim takes (it counts no
		// tokens for them): every one succeeds, its record counts its
		// images and their tokens (the Qwen2-VL rule for the model
		// "fake"), and report.json sums them.
		for _, api := range []string{"chat", "responses"} {
			r := runTrace(t, srv, tr.gen(t, llmdSpec(api, 2, 6, "    images: {count: {dist: uniform, min: 1, max: 2}, size: 320x240}\n")))
			checkComplete(t, r)
			total := 0
			for _, rec := range r.recs.Requests {
				if rec.ErrorClass != "" || rec.Images < 1 || rec.Images > 2 || rec.ImageTokens != rec.Images*11*9 {
					t.Errorf("%s %s: %s, %d images of %d tokens; want 1 or 2 of 99 tokens each (11×9 patches)", api, rec, rec.ErrorClass, rec.Images, rec.ImageTokens)
				}
				total += rec.ImageTokens
			}
			var rep struct {
				All struct {
					Throughput struct {
						ImageTokens int `json:"image_tokens"`
					} `json:"throughput"`
				} `json:"all"`
			}
			readReportInto(t, r.dir, &rep)
			if got := rep.All.Throughput.ImageTokens; got != total {
				t.Errorf("%s: report.json has %d image tokens, the records %d", api, got, total)
			}
		}
	})

	t.Run("choices", func(t *testing.T) {
		// Two choices per request with log-probabilities, in chat and
		// completions: the sim streams each choice's tokens with its
		// index, and surge counts each choice's 16 tokens. A sim of its
		// own, without the KV cache: with it on, this sim fails every
		// request for n > 1 with a 500 ("request already exists for id"),
		// its choices' cache entries colliding.
		plain := startLLMD(t, "--max-num-seqs", "16", "--time-to-first-token", "5ms", "--inter-token-latency", "1ms", "--seed", "1")
		for _, api := range []string{"chat", "completions"} {
			r := runTrace(t, plain, tr.gen(t, llmdSpec(api, 4, 12, "    n: 2\n    logprobs: true\n    top_logprobs: 2\n")))
			checkComplete(t, r)
			for _, rec := range r.recs.Requests {
				if rec.ErrorClass != "" || rec.Choices != 2 || len(rec.ChoiceTokens) != 2 || rec.ChoiceTokens[0] != 16 || rec.ChoiceTokens[1] != 16 ||
					rec.Chunks != 32 || rec.ServerOutputTokens != 32 || rec.MaxTokens != 16 {
					t.Errorf("%s %s: %s, %d choices with %v tokens, %d chunks, %d completion tokens, max_tokens %d; want 2 of 16, 32, 32, 16",
						api, rec, rec.ErrorClass, rec.Choices, rec.ChoiceTokens, rec.Chunks, rec.ServerOutputTokens, rec.MaxTokens)
				}
			}
			var rep struct {
				All struct {
					Tokens struct {
						Choices *struct {
							Requests int     `json:"requests"`
							Streamed int     `json:"streamed"`
							Mean     float64 `json:"mean_tokens"`
							OverMax  int     `json:"over_max_tokens"`
						} `json:"choices"`
					} `json:"tokens"`
				} `json:"all"`
			}
			readReportInto(t, r.dir, &rep)
			if c := rep.All.Tokens.Choices; c == nil || c.Requests != len(r.recs.Requests) || c.Streamed != 2*c.Requests || c.Mean != 16 || c.OverMax != 0 {
				t.Errorf("%s: report.json tokens.choices %+v; want every request's 2 choices of 16 tokens", api, c)
			}
		}
		r := runTrace(t, plain, tr.gen(t, llmdSpec("completions", 4, 12, "    logprobs: true\n    top_logprobs: 2\n")))
		checkComplete(t, r)
		for _, rec := range r.recs.Requests {
			if rec.ErrorClass != "" || rec.Chunks != 16 || rec.ServerOutputTokens != 16 || rec.Choices != 0 || rec.ChoiceTokens != nil {
				t.Errorf("completions %s: %s, %d chunks, %d completion tokens, %d choices; want 16 tokens with their logprobs, one choice", rec, rec.ErrorClass, rec.Chunks, rec.ServerOutputTokens, rec.Choices)
			}
		}
	})

	t.Run("prefix", func(t *testing.T) {
		// Two 256-token system prompts shared by 40 conversations: all but
		// the first use of each is a prefix-cache hit.
		r := runTrace(t, srv, tr.gen(t, llmdSpec("chat", 4, 40, "    prefix: {pool: 2, length: 256}\n")))
		checkComplete(t, r)
		checkOtherTokenizer(t, r)
		rep := readReport(t, r.dir)
		pc, im := rep.All.PrefixCache, rep.Implied
		if pc == nil || !pc.Reported || pc.HitRate == nil || im == nil || im.PromptTokens == 0 {
			t.Fatalf("report.json: prefix_cache %+v, implied_prefix_reuse %+v: want the server's hit rate beside the implied reuse", pc, im)
		}
		implied := float64(im.CachedTokens) / float64(im.PromptTokens)
		// The sim counts tokens by its own word split, not Llama 3's, so
		// the two shares differ by its rounding to 16-token blocks.
		if implied < 0.5 || math.Abs(*pc.HitRate-implied) > 0.15 {
			t.Errorf("prefix-cache hit rate %.3f (server), %.3f implied: want above 0.5 and within 0.15 of each other", *pc.HitRate, implied)
		}
		checkMeasurement(t, r.dir, "cache")
		t.Logf("prefix cache: server %.3f, implied %.3f", *pc.HitRate, implied)
	})

	t.Run("server-failures", func(t *testing.T) {
		if smoke() {
			t.Skip("-short")
		}
		bad := startLLMD(t, "--failure-injection-rate", "30", "--failure-types", "rate_limit", "server_error", "invalid_request", "--seed", "1")
		r := runTrace(t, bad, tr.gen(t, llmdSpec("chat", 4, 30, "")))
		byStatus := map[string]int{}
		failed := 0
		for _, rec := range r.recs.Requests {
			if rec.ErrorClass == "" {
				continue
			}
			failed++
			byStatus[fmt.Sprint(rec.Status)]++
			if rec.ErrorClass != "http" || (rec.Status != 400 && rec.Status != 429 && rec.Status != 503) {
				t.Errorf("%s: %s (status %d): %s; the sim injects only HTTP 400, 429 and 503", rec, rec.ErrorClass, rec.Status, rec.Error)
			}
		}
		if failed == 0 {
			t.Fatalf("no request failed against a sim failing 30%% of them")
		}
		var rep struct {
			All struct {
				Requests int `json:"requests"`
				Errors   struct {
					Failed   int            `json:"failed"`
					ByClass  map[string]int `json:"by_class"`
					ByStatus map[string]int `json:"by_status"`
				} `json:"errors"`
			} `json:"all"`
		}
		readReportInto(t, r.dir, &rep)
		e := rep.All.Errors
		if rep.All.Requests != len(r.recs.Requests) || e.Failed != failed || e.ByClass["http"] != failed || fmt.Sprint(e.ByStatus) != fmt.Sprint(byStatus) {
			t.Errorf("report.json: %d requests, errors %+v; the records: %d requests, %d failed, by status %v", rep.All.Requests, e, len(r.recs.Requests), failed, byStatus)
		}
	})
}

// checkOtherTokenizer checks a healthy run against the sim: its counts,
// the measurement's run and errors checks, and the tokens check failing,
// since the sim counts prompts by its own word split, not by the
// workload's Llama 3 tokenizer, so the prompts are not the lengths asked.
func checkOtherTokenizer(t *testing.T, r run) {
	t.Helper()
	checkCounts(t, r)
	checkMeasurement(t, r.dir, "run", "errors")
	checkMeasurementFails(t, r.dir, "tokens", "another tokenizer")
}
