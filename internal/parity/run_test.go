package parity

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
)

// probePrompts are small prompts for the fake servers.
func probePrompts(n int) []string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = fmt.Sprintf("prompt number %d: say something", i)
	}
	return ps
}

// runFakes probes the fakes, the first being the base.
func runFakes(t *testing.T, n int, fs ...*fake) *Result {
	t.Helper()
	var ts []Target
	for i, f := range fs {
		ts = append(ts, Target{Name: fmt.Sprintf("t%d", i), BaseURL: f.start(t), Model: "m"})
	}
	res, err := Run(context.Background(), Config{Targets: ts, Prompts: probePrompts(n), Concurrency: 3})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestRunSame(t *testing.T) {
	t.Parallel()
	base, cand := &fake{}, &fake{shift: -0.25}
	res := runFakes(t, 12, base, cand)
	c := res.Candidates[0]
	if c.Verdict != Same || c.Summary.ExactShare != 1 || c.Summary.Errors != 0 {
		t.Fatalf("verdict %s, summary %+v; want same", c.Verdict, c.Summary)
	}
	if c.Summary.LogprobTokens == 0 || math.Abs(c.Summary.MeanAbsDLogprob-0.25) > 1e-9 {
		t.Errorf("logprobs: %d tokens, mean |Δ| %g; want every token compared with |Δ| 0.25",
			c.Summary.LogprobTokens, c.Summary.MeanAbsDLogprob)
	}
	for _, d := range c.Prompts {
		if !d.HasTokens || d.PrefixTokens != d.BaseTokens {
			t.Errorf("prompt %d: token prefix %d of %d (has tokens %v)", d.Prompt, d.PrefixTokens, d.BaseTokens, d.HasTokens)
		}
	}
	// Every request is the probe's: temperature 0, seed 0, the token cap
	// and logprobs, with no null fields.
	for _, raw := range base.raw {
		want := map[string]any{"model": "m", "temperature": 0.0, "seed": 0.0, "max_tokens": float64(DefaultMaxTokens), "logprobs": true}
		for k, v := range want {
			if raw[k] != v {
				t.Errorf("request %s = %v, want %v", k, raw[k], v)
			}
		}
		for k, v := range raw {
			if v == nil {
				t.Errorf("request sends %s: null", k)
			}
		}
	}
	if len(base.requests) != 12 || len(cand.requests) != 12 {
		t.Errorf("%d and %d requests, want 12 each", len(base.requests), len(cand.requests))
	}
}

func TestRunDoubledLengthDiffers(t *testing.T) {
	t.Parallel()
	res := runFakes(t, 16, &fake{}, &fake{scale: 2})
	c := res.Candidates[0]
	if c.Verdict != Differs {
		t.Fatalf("verdict %s, want differs", c.Verdict)
	}
	s := c.Summary
	if s.MedianRatio != 2 || s.MeanRatio != 2 || s.TokenRatio != 2 || s.LengthDiffShare != 1 {
		t.Errorf("summary %+v; want every ratio 2 and every length differing", s)
	}
	if !strings.Contains(c.Explanation, "2.00× the output tokens") || !strings.Contains(c.Explanation, "throughput") {
		t.Errorf("explanation %q does not say the candidate generates twice the tokens", c.Explanation)
	}
	for _, d := range c.Prompts {
		// The fake's words repeat the base's: the base is a prefix.
		if d.Exact || d.PrefixTokens != d.BaseTokens {
			t.Errorf("prompt %d: exact %v, token prefix %d of %d", d.Prompt, d.Exact, d.PrefixTokens, d.BaseTokens)
		}
	}
}

func TestRunRetriesWithoutLogprobs(t *testing.T) {
	t.Parallel()
	cand := &fake{rejectLogprobs: true}
	res := runFakes(t, 6, &fake{}, cand)
	tr := res.Targets[1]
	if tr.Logprobs || len(tr.Notes) != 1 || !strings.Contains(tr.Notes[0], "rejected logprobs") {
		t.Errorf("logprobs %v, notes %q; want logprobs off and the rejection noted", tr.Logprobs, tr.Notes)
	}
	// One rejected request, then every prompt without logprobs.
	if len(cand.requests) != 7 || !cand.requests[0].Logprobs {
		t.Fatalf("%d requests; want 7, the first asking for logprobs", len(cand.requests))
	}
	for i, r := range cand.requests[1:] {
		if r.Logprobs {
			t.Errorf("request %d asked for logprobs after the rejection", i+1)
		}
	}
	c := res.Candidates[0]
	if c.Verdict != Same || c.Summary.LogprobTokens != 0 || c.Prompts[0].HasTokens {
		t.Errorf("verdict %s, %d logprob tokens; want same texts compared without tokens", c.Verdict, c.Summary.LogprobTokens)
	}
	if !res.Targets[0].Logprobs || len(res.Targets[0].Notes) != 0 {
		t.Errorf("the base lost logprobs (%v, notes %q): the retry belongs to one target", res.Targets[0].Logprobs, res.Targets[0].Notes)
	}
}

func TestRunFailingTarget(t *testing.T) {
	t.Parallel()
	res := runFakes(t, 5, &fake{}, &fake{fail: true}, &fake{})
	c := res.Candidates[0]
	if c.Verdict != Differs || c.Summary.Errors != 5 || c.Summary.Compared != 0 {
		t.Fatalf("verdict %s, summary %+v; want differs with 5 errors", c.Verdict, c.Summary)
	}
	if !strings.Contains(c.Prompts[0].Error, "HTTP 500") || !strings.Contains(c.Explanation, "no prompt was answered") {
		t.Errorf("error %q, explanation %q", c.Prompts[0].Error, c.Explanation)
	}
	if len(res.Candidates) != 2 || res.Candidates[1].Verdict != Same {
		t.Errorf("the third target is not compared on its own: %d candidates", len(res.Candidates))
	}
}

func TestRunCredentialsAndModel(t *testing.T) {
	t.Parallel()
	f := &fake{model: "served-model", key: "s3cret"}
	u := f.start(t)
	withUser := strings.Replace(u, "http://", "http://alice:s3cret@", 1)
	res, err := Run(context.Background(), Config{
		Targets: []Target{{BaseURL: withUser}, {Name: "keyed", BaseURL: u, APIKey: "s3cret"}},
		Prompts: probePrompts(3), MaxTokens: 8,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range res.Targets {
		if tr.Model != "served-model" {
			t.Errorf("%s: model %q, want the first of /v1/models", tr.Name, tr.Model)
		}
		for i, a := range tr.Answers {
			if a.Error != "" || a.CompletionTokens > 8 {
				t.Errorf("%s prompt %d: error %q, %d tokens (cap 8)", tr.Name, i, a.Error, a.CompletionTokens)
			}
		}
	}
	if res.Targets[0].URL != u || res.Targets[0].Name != u {
		t.Errorf("URL %q, name %q: want %q, without credentials", res.Targets[0].URL, res.Targets[0].Name, u)
	}
	if res.Candidates[0].Verdict != Same {
		t.Errorf("verdict %s, want same", res.Candidates[0].Verdict)
	}
}

func TestRunConfigErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		cfg    Config
		want   string
	}{
		{"one target has nothing to compare with", Config{Targets: []Target{{BaseURL: "http://h"}}, Prompts: []string{"x"}}, "at least 2 targets"},
		{"no prompts", Config{Targets: []Target{{BaseURL: "http://a"}, {BaseURL: "http://b"}}, Prompts: []string{}}, "no prompts"},
		{"not a URL", Config{Targets: []Target{{Name: "x", BaseURL: "h:1"}, {BaseURL: "http://b"}}, Prompts: []string{"x"}}, "not an http(s) URL"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), tt.cfg)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.reason, err, tt.want)
		}
	}
}

func TestRunCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := &fake{}
	_, err := Run(ctx, Config{Targets: []Target{{BaseURL: f.start(t)}, {BaseURL: f.start(t)}}, Prompts: probePrompts(3)})
	if err == nil {
		t.Error("Run of a cancelled context succeeded")
	}
}

func TestRunRetriesLaterLogprobRejections(t *testing.T) {
	t.Parallel()
	// The first prompt fails for another reason, so the rejection shows
	// on later prompts, each of which is asked again without logprobs.
	cand := &fake{rejectLogprobs: true}
	base := &fake{}
	res, err := Run(context.Background(), Config{
		Targets: []Target{{BaseURL: base.start(t), Model: "m"}, {BaseURL: failFirst(t, cand), Model: "m"}},
		Prompts: probePrompts(5),
	})
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Targets[1]
	if !strings.Contains(tr.Answers[0].Error, "HTTP 503") {
		t.Errorf("prompt 0: error %q, want the 503", tr.Answers[0].Error)
	}
	for i, a := range tr.Answers[1:] {
		if a.Error != "" {
			t.Errorf("prompt %d: %s; want it retried without logprobs", i+1, a.Error)
		}
	}
	if len(tr.Notes) != 1 || !strings.Contains(tr.Notes[0], "on 4 prompts") {
		t.Errorf("notes %q; want the 4 retries noted", tr.Notes)
	}
}

// TestRunFitsPromptsToContext: without prompts of its own, Run sends the
// fixed prompts shortened to fit the smallest context a target reports:
// llama-server's slot (GET /props) here, under vLLM's max_model_len.
func TestRunFitsPromptsToContext(t *testing.T) {
	t.Parallel()
	llama, vllm := &fake{model: "m", slotCtx: 512}, &fake{model: "m", maxModelLen: 2048}
	res, err := Run(context.Background(), Config{
		Targets:    []Target{{Name: "llama", BaseURL: llama.start(t)}, {Name: "vllm", BaseURL: vllm.start(t)}},
		NumPrompts: 10,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Targets[0].Context != 512 || res.Targets[1].Context != 2048 {
		t.Errorf("contexts %d and %d, want 512 (from /props) and 2048 (max_model_len)", res.Targets[0].Context, res.Targets[1].Context)
	}
	if want := FitPromptTokens(512, DefaultMaxTokens); res.PromptTokens != want || res.Prompts != 10 {
		t.Errorf("%d prompts, the longest %d tokens; want 10, the longest %d", res.Prompts, res.PromptTokens, want)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "llama's context of 512 tokens") {
		t.Errorf("notes %q; want the shortening explained", res.Notes)
	}
	c := res.Candidates[0]
	if c.Verdict != Same || c.Summary.Errors+c.Summary.BothFailed != 0 {
		t.Errorf("verdict %s, summary %+v; want every prompt answered alike", c.Verdict, c.Summary)
	}
}

// TestRunBothFailAlike: two servers refusing every prompt alike are not
// a difference, and a refusal for length is reported as such.
func TestRunBothFailAlike(t *testing.T) {
	t.Parallel()
	long, err := Prompts(5, 0)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		reason string
		a, b   *fake
		say    string
	}{
		{"both answer 400", &fake{badRequest: true}, &fake{badRequest: true}, "HTTP 400"},
		{"both refuse for length", &fake{slotCtx: 150}, &fake{slotCtx: 150}, "too long for the server's context: HTTP 400"},
	}
	for _, tt := range tests {
		res, err := Run(context.Background(), Config{
			Targets: []Target{{Name: "a", BaseURL: tt.a.start(t), Model: "m"}, {Name: "b", BaseURL: tt.b.start(t), Model: "m"}},
			Prompts: long[3:],
		})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Candidates[0]
		if c.Verdict != BothFailed || c.Summary.BothFailed != 2 || c.Summary.LengthDiffers != 0 {
			t.Errorf("%s: verdict %s, summary %+v; want both failed on both prompts", tt.reason, c.Verdict, c.Summary)
		}
		if !c.Prompts[0].BothFailed || !strings.Contains(c.Prompts[0].Error, "both failed: "+tt.say) || !strings.Contains(c.Explanation, tt.say) {
			t.Errorf("%s: prompt error %q, explanation %q; want both failed saying %q", tt.reason, c.Prompts[0].Error, c.Explanation, tt.say)
		}
	}
}

// TestRunMaxTokensOverContext: a token cap the context cannot hold is
// named, and the refusals are reported as too long on both sides.
func TestRunMaxTokensOverContext(t *testing.T) {
	t.Parallel()
	a, b := &fake{model: "m", maxModelLen: 100}, &fake{model: "m", maxModelLen: 100}
	res, err := Run(context.Background(), Config{
		Targets:    []Target{{Name: "a", BaseURL: a.start(t)}, {Name: "b", BaseURL: b.start(t)}},
		NumPrompts: 3, MaxTokens: 128,
	})
	if err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, "--max-tokens 128 leaves no room for a prompt in a's context of 100 tokens") {
		t.Errorf("notes %q; want the cap named", notes)
	}
	if c := res.Candidates[0]; c.Verdict != BothFailed || c.Summary.TooLong != 3 {
		t.Errorf("verdict %s, summary %+v; want both failed, too long 3", c.Verdict, c.Summary)
	}
}
