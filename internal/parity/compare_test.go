package parity

import (
	"math"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	t.Parallel()
	tok := func(s ...any) []Token {
		var out []Token
		for i := 0; i < len(s); i += 2 {
			out = append(out, Token{s[i].(string), s[i+1].(float64)})
		}
		return out
	}
	tests := []struct {
		reason string
		b, c   Answer
		want   PromptDiff
	}{
		{"identical answers with logprobs",
			Answer{Text: "ab", CompletionTokens: 2, FinishReason: "stop", Tokens: tok("a", -0.5, "b", -1.0)},
			Answer{Text: "ab", CompletionTokens: 2, FinishReason: "stop", Tokens: tok("a", -0.5, "b", -1.0)},
			PromptDiff{Exact: true, PrefixChars: 2, HasTokens: true, PrefixTokens: 2, BaseTokens: 2, CandTokens: 2, Ratio: 1, SameFinish: true}},
		{"same tokens, shifted logprobs: |Δ| averages over the prefix",
			Answer{Text: "ab", CompletionTokens: 2, Tokens: tok("a", -0.5, "b", -1.0)},
			Answer{Text: "ab", CompletionTokens: 2, Tokens: tok("a", -0.7, "b", -0.8)},
			PromptDiff{Exact: true, PrefixChars: 2, HasTokens: true, PrefixTokens: 2, MeanAbsDLogprob: 0.2, BaseTokens: 2, CandTokens: 2, Ratio: 1, SameFinish: true}},
		{"diverging after one token; candidate twice as long and cut at the cap",
			Answer{Text: "a b", CompletionTokens: 2, FinishReason: "stop", Tokens: tok("a", -1.0, " b", -1.0)},
			Answer{Text: "a c d e", CompletionTokens: 4, FinishReason: "length", Tokens: tok("a", -1.5, " c", -1.0, " d", 0.0, " e", 0.0)},
			PromptDiff{PrefixChars: 2, HasTokens: true, PrefixTokens: 1, MeanAbsDLogprob: 0.5, BaseTokens: 2, CandTokens: 4, Ratio: 2}},
		{"characters are runes, not bytes; no logprobs means lengths from usage",
			Answer{Text: "héllo", CompletionTokens: 5}, Answer{Text: "hélp", CompletionTokens: 4},
			PromptDiff{PrefixChars: 3, BaseTokens: 5, CandTokens: 4, Ratio: 0.8, SameFinish: true}},
		{"no usage: lengths from logprob entries; one side without logprobs compares no tokens",
			Answer{Text: "x", Tokens: tok("x", 0.0)}, Answer{Text: "x", CompletionTokens: 3},
			PromptDiff{Exact: true, PrefixChars: 1, BaseTokens: 1, CandTokens: 3, Ratio: 3, SameFinish: true}},
		{"empty base: ratio over max(b, 1)",
			Answer{}, Answer{Text: "abc", CompletionTokens: 3},
			PromptDiff{BaseTokens: 0, CandTokens: 3, Ratio: 3, SameFinish: true}},
		{"both empty: ratio 1",
			Answer{}, Answer{}, PromptDiff{Exact: true, Ratio: 1, SameFinish: true}},
		{"candidate failure is not compared",
			Answer{Text: "a"}, Answer{Error: "HTTP 500: boom"}, PromptDiff{Error: "candidate failed: HTTP 500: boom"}},
		{"the same failure on both sides is both failed, with the error",
			Answer{Error: "HTTP 400: bad"}, Answer{Error: "HTTP 400: bad"}, PromptDiff{Error: "both failed: HTTP 400: bad", BothFailed: true}},
		{"different failures on both sides give both errors",
			Answer{Error: "HTTP 400: bad"}, Answer{Error: "HTTP 500: boom"},
			PromptDiff{Error: "both failed: base HTTP 400: bad; candidate HTTP 500: boom", BothFailed: true}},
	}
	for _, tt := range tests {
		got := diff(0, tt.b, tt.c)
		if math.Abs(got.MeanAbsDLogprob-tt.want.MeanAbsDLogprob) < 1e-12 {
			got.MeanAbsDLogprob = tt.want.MeanAbsDLogprob
		}
		if got != tt.want {
			t.Errorf("%s:\ngot  %+v\nwant %+v", tt.reason, got, tt.want)
		}
	}
}

// diffs builds n prompt diffs: the first k with ratio r (exact when r is
// 1 and exact is set), the rest identical, and e failures at the end.
func diffs(n, k int, r float64, exact bool, e int) []PromptDiff {
	ds := make([]PromptDiff, n)
	for i := range ds {
		ds[i] = PromptDiff{Prompt: i, Exact: true, BaseTokens: 100, CandTokens: 100, Ratio: 1, SameFinish: true}
		if i < k {
			ds[i].Exact, ds[i].Ratio, ds[i].CandTokens = exact, r, int(100*r)
		}
		if i >= n-e {
			ds[i] = PromptDiff{Prompt: i, Error: "candidate failed: x"}
		}
	}
	return ds
}

// bothFailed marks the last k of ds as failed on both sides with err.
func bothFailed(ds []PromptDiff, k int, err string) []PromptDiff {
	for i := len(ds) - k; i < len(ds); i++ {
		ds[i] = PromptDiff{Prompt: i, Error: "both failed: " + err, BothFailed: true}
	}
	return ds
}

func TestJudge(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		ds     []PromptDiff
		want   Verdict
		say    string // in the explanation
	}{
		{"all identical", diffs(32, 0, 1, true, 0), Same, "like for like"},
		{"no text identical, lengths equal: another model", diffs(32, 32, 1, false, 0), Differs, "only 0 of 32"},
		{"half the texts identical, lengths equal", diffs(32, 16, 1, false, 0), Minor, "not identical"},
		{"15 of 32 texts identical, lengths equal", diffs(32, 17, 1, false, 0), Differs, "only 15 of 32"},
		{"3 of 30 lengths 20% off: exactly 90% agree, mean 1.02", diffs(30, 3, 1.2, false, 0), Minor, "90% within 10%"},
		{"4 of 30 lengths 20% off: under 90% agree", diffs(30, 4, 1.2, false, 0), Differs, "by more than 10% on 4 of 30"},
		{"lengths within 10% everywhere but mean ratio 1.08", diffs(20, 20, 1.08, false, 0), Differs, "1.08× the output tokens"},
		{"every answer twice as long", diffs(32, 32, 2, false, 0), Differs, "2.00× the output tokens"},
		{"2 of 10 exactly 10% longer still agree in length; mean 1.02", diffs(10, 2, 1.1, false, 0), Minor, "100% within 10%"},
		{"2 of 10 11% longer differ in length", diffs(10, 2, 1.11, false, 0), Differs, "on 2 of 10"},
		{"1 failure in 10, rest identical: still 90%", diffs(10, 0, 1, true, 1), Minor, "1 of 10 prompts failed"},
		{"2 failures in 10, rest identical", diffs(10, 0, 1, true, 2), Differs, "2 of 10 prompts failed"},
		{"nothing compared", diffs(4, 0, 1, true, 4), Differs, "no prompt was answered by both"},
		{"every prompt failed alike on both sides", bothFailed(diffs(4, 0, 1, true, 0), 4, "HTTP 400: bad"), BothFailed, "failed on both A and B (prompt 0: both failed: HTTP 400: bad)"},
		{"refused for length on both sides", bothFailed(diffs(4, 0, 1, true, 0), 4, tooLongPrefix+"HTTP 400: x"), BothFailed, "4 prompts were refused as longer than the server's context"},
		{"2 of 10 failed on both sides, the rest identical", bothFailed(diffs(10, 0, 1, true, 0), 2, "HTTP 400: bad"), Same, "2 of 10 prompts failed on both sides"},
		{"both failures are not length differences", bothFailed(diffs(20, 1, 1.2, false, 0), 2, "HTTP 400: bad"), Minor, "94% within 10%"},
	}
	for _, tt := range tests {
		s := summarize(tt.ds)
		v := judge(s)
		msg := explain("A", "B", v, s, tt.ds)
		if v != tt.want || !strings.Contains(msg, tt.say) {
			t.Errorf("%s: verdict %s (%q), want %s saying %q", tt.reason, v, msg, tt.want, tt.say)
		}
	}
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	ds := []PromptDiff{
		{Exact: true, BaseTokens: 10, CandTokens: 10, Ratio: 1, SameFinish: true, PrefixTokens: 10, MeanAbsDLogprob: 0.1},
		{BaseTokens: 10, CandTokens: 30, Ratio: 3, PrefixTokens: 2, MeanAbsDLogprob: 0.7},
		{BaseTokens: 20, CandTokens: 10, Ratio: 0.5, SameFinish: true},
		{Error: "base failed: x"},
		{Error: "both failed: " + tooLongPrefix + "HTTP 400: x", BothFailed: true},
	}
	s := summarize(ds)
	want := Summary{Prompts: 5, Compared: 3, Errors: 1, BothFailed: 1, TooLong: 1, Exact: 1, ExactShare: 0.25,
		MedianRatio: 1, MeanRatio: 1.5, TokenRatio: 50.0 / 40, LengthDiffers: 3, LengthDiffShare: 0.75,
		FinishAgreeShare: 2.0 / 3, LogprobTokens: 12, MeanAbsDLogprob: (10*0.1 + 2*0.7) / 12}
	if math.Abs(s.MeanAbsDLogprob-want.MeanAbsDLogprob) < 1e-12 {
		s.MeanAbsDLogprob = want.MeanAbsDLogprob
	}
	if s != want {
		t.Errorf("summary\ngot  %+v\nwant %+v", s, want)
	}
}
