package parity

import (
	"fmt"
	"math"
)

// Verdict is the judgement of a candidate against the base.
type Verdict string

// The verdicts; the package doc gives the rules.
const (
	Same    Verdict = "same"
	Minor   Verdict = "minor"
	Differs Verdict = "differs"
)

// meanRatioTolerance is how far the mean length ratio may stray from 1
// for a "minor" verdict: |mean r − 1| ≤ 0.05.
const meanRatioTolerance = 0.05

// Summary aggregates a candidate's prompt diffs. Shares are in [0, 1].
type Summary struct {
	Prompts  int `json:"prompts"`  // N, every prompt
	Compared int `json:"compared"` // prompts both sides answered
	Errors   int `json:"errors"`   // prompts either side failed
	Exact    int `json:"exact"`
	// ExactShare is Exact / N.
	ExactShare float64 `json:"exact_share"`
	// MedianRatio and MeanRatio are over the compared prompts' ratios;
	// TokenRatio is Σ candidate tokens / Σ base tokens over them (1 when
	// both sums are 0).
	MedianRatio float64 `json:"median_ratio"`
	MeanRatio   float64 `json:"mean_ratio"`
	TokenRatio  float64 `json:"token_ratio"`
	// LengthDiffers counts the prompts whose lengths differ by more than
	// 10% or that failed; LengthDiffShare is LengthDiffers / N.
	LengthDiffers   int     `json:"length_differs"`
	LengthDiffShare float64 `json:"length_diff_share"`
	// FinishAgreeShare is the share of compared prompts whose finish
	// reasons agree.
	FinishAgreeShare float64 `json:"finish_agree_share"`
	// LogprobTokens is the number of common-prefix tokens with logprobs
	// on both sides; MeanAbsDLogprob the mean |Δlogprob| over them.
	LogprobTokens   int     `json:"logprob_tokens"`
	MeanAbsDLogprob float64 `json:"mean_abs_dlogprob"`
}

// summarize aggregates ds.
func summarize(ds []PromptDiff) Summary {
	s := Summary{Prompts: len(ds)}
	var ratios []float64
	var baseSum, candSum, finish int
	var lpSum float64
	for _, d := range ds {
		if d.LengthDiffers() {
			s.LengthDiffers++
		}
		if d.Error != "" {
			s.Errors++
			continue
		}
		s.Compared++
		ratios = append(ratios, d.Ratio)
		baseSum += d.BaseTokens
		candSum += d.CandTokens
		if d.Exact {
			s.Exact++
		}
		if d.SameFinish {
			finish++
		}
		s.LogprobTokens += d.PrefixTokens
		lpSum += d.MeanAbsDLogprob * float64(d.PrefixTokens)
	}
	s.ExactShare = share(s.Exact, s.Prompts)
	s.LengthDiffShare = share(s.LengthDiffers, s.Prompts)
	s.FinishAgreeShare = share(finish, s.Compared)
	s.MedianRatio = median(ratios)
	s.MeanRatio = mean(ratios)
	s.TokenRatio = ratio(candSum, baseSum)
	if s.LogprobTokens > 0 {
		s.MeanAbsDLogprob = lpSum / float64(s.LogprobTokens)
	}
	return s
}

// share is k/n, or 0 when n is 0.
func share(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

// mean is the arithmetic mean of xs, or 0 for none.
func mean(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return share(1, len(xs)) * sum
}

// judge applies the verdict rules of the package doc. Length agreement on
// at least 90% of N prompts is tested in integers: 10·(N − differs) ≥ 9·N.
func judge(s Summary) Verdict {
	switch {
	case s.Compared == 0:
		return Differs
	case s.Errors == 0 && s.Exact == s.Prompts:
		return Same
	case 10*(s.Prompts-s.LengthDiffers) >= 9*s.Prompts && math.Abs(s.MeanRatio-1) <= meanRatioTolerance:
		return Minor
	}
	return Differs
}

// explain says what the verdict means for throughput comparisons.
func explain(base, cand string, v Verdict, s Summary) string {
	var msg string
	switch {
	case v == Same:
		return fmt.Sprintf("%s answers all %d prompts exactly as %s does: throughput compares like for like.", cand, s.Prompts, base)
	case v == Minor:
		msg = fmt.Sprintf("%s's texts differ from %s's on %d of %d prompts, but their lengths agree (mean ratio %.2f×, %.0f%% within 10%%): throughput compares fairly, though the outputs are not identical.",
			cand, base, s.Prompts-s.Exact, s.Prompts, s.MeanRatio, 100*(1-s.LengthDiffShare))
	case s.Compared == 0:
		return fmt.Sprintf("no prompt was answered by both %s and %s: parity is unknown, so their throughput cannot be compared.", base, cand)
	case math.Abs(s.TokenRatio-1) > meanRatioTolerance:
		msg = fmt.Sprintf("%s generates %.2f× the output tokens of %s on the same prompts: its token rate must be %.2f× %s's just to match user wait, so throughput comparisons must account for it (compare time per request, not tokens per second).",
			cand, s.TokenRatio, base, s.TokenRatio, base)
	case s.LengthDiffers == s.Errors:
		// Only the failures broke the 90% rule.
		return fmt.Sprintf("%d of %d prompts failed on %s, %s or both; the %d answered by both agree in length (%.2f× the tokens): parity is unverified on too many prompts to compare throughput.",
			s.Errors, s.Prompts, base, cand, s.Compared, s.TokenRatio)
	default:
		msg = fmt.Sprintf("%s's output lengths differ from %s's by more than 10%% on %d of %d prompts (%.2f× the tokens in all): the outputs changed, so throughput comparisons must account for it.",
			cand, base, s.LengthDiffers-s.Errors, s.Prompts, s.TokenRatio)
	}
	if s.Errors > 0 {
		msg += fmt.Sprintf(" %d of %d prompts failed on one side or both.", s.Errors, s.Prompts)
	}
	return msg
}
