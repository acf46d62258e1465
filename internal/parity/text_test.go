package parity

import (
	"slices"
	"strings"
	"testing"
)

// textResult is a base and two candidates, one differing, over two
// prompts, the second of which one candidate failed.
func textResult() *Result {
	base := TargetResult{Name: "base", URL: "http://a:8000", Model: "m", Context: 4096, Logprobs: true,
		Answers: []Answer{{Text: "x", CompletionTokens: 10, FinishReason: "stop"}, {Text: "y", CompletionTokens: 20, FinishReason: "length"}}}
	same := base
	same.Name, same.URL, same.Context, same.Logprobs = "same", "http://b:8000", 0, false
	long := base
	long.Name, long.Notes = "long", []string{"slow to answer"}
	long.Answers = []Answer{{Text: "x x", CompletionTokens: 25, FinishReason: "length"}, {Error: "HTTP 500: boom"}}
	return &Result{Prompts: 2, MaxTokens: 128, PromptTokens: 640, Notes: []string{"prompts fitted"},
		Targets: []TargetResult{base, same, long}, Candidates: []Comparison{Compare(base, same), Compare(base, long)}}
}

func TestDiffering(t *testing.T) {
	t.Parallel()
	res := textResult()
	if got := res.Differing(); !slices.Equal(got, []string{"long"}) {
		t.Errorf("differing %v (verdicts %s, %s), want [long]", got, res.Candidates[0].Verdict, res.Candidates[1].Verdict)
	}
	if got := (&Result{}).Differing(); got != nil {
		t.Errorf("no candidates: %v", got)
	}
}

func TestResultErr(t *testing.T) {
	t.Parallel()
	same := textResult()
	same.Candidates = same.Candidates[:1]
	for _, tt := range []struct {
		name string
		res  *Result
		want string
	}{
		{"one differs", textResult(), "parity: long differs from base"},
		{"none differs", same, ""},
		{"no candidates", &Result{}, ""},
	} {
		got := ""
		if err := tt.res.Err(); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s: Err() = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestWriteText(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	if err := textResult().WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"base       base  http://a:8000  model m  context 4096     logprobs",
		"candidate  same  http://b:8000  model m  context unknown  no logprobs",
		"note: slow to answer", "note: prompts fitted",
		"same vs base (2 prompts of up to 640 tokens, answers of at most 128)",
		"verdict: same", "verdict: differs",
		"stop/length", " HTTP 500: boom",
		"exact 2/2 (100%)", "one side failed 1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
}
