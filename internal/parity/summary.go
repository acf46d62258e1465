package parity

import (
	"fmt"
	"math"
	"strings"
)

// Verdict is the judgement of a candidate against the base.
type Verdict string

// The verdicts; the package doc gives the rules.
const (
	Same    Verdict = "same"
	Minor   Verdict = "minor"
	Differs Verdict = "differs"
	// BothFailed is the verdict when every prompt failed on both sides:
	// the servers fail alike, and their answers cannot be compared.
	BothFailed Verdict = "both failed"
)

// meanRatioTolerance is how far the mean length ratio may stray from 1
// for a "minor" verdict: |mean r − 1| ≤ 0.05.
const meanRatioTolerance = 0.05

// Summary aggregates a candidate's prompt diffs. Shares are in [0, 1] and
// count the judged prompts, M = Prompts − BothFailed: a prompt both sides
// failed is reported, but judged neither alike nor different.
type Summary struct {
	Prompts    int `json:"prompts"`     // N, every prompt
	Compared   int `json:"compared"`    // prompts both sides answered
	Errors     int `json:"errors"`      // prompts exactly one side failed
	BothFailed int `json:"both_failed"` // prompts both sides failed
	// TooLong counts the prompts a server (either side, or both) refused
	// as longer than its context.
	TooLong int `json:"too_long,omitempty"`
	Exact   int `json:"exact"`
	// ExactShare is Exact / M.
	ExactShare float64 `json:"exact_share"`
	// MedianRatio and MeanRatio are over the compared prompts' ratios;
	// TokenRatio is Σ candidate tokens / Σ base tokens over them (1 when
	// both sums are 0).
	MedianRatio float64 `json:"median_ratio"`
	MeanRatio   float64 `json:"mean_ratio"`
	TokenRatio  float64 `json:"token_ratio"`
	// LengthDiffers counts the prompts whose lengths differ by more than
	// 10% or that only one side answered; LengthDiffShare is
	// LengthDiffers / M.
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

// judged is M, the number of prompts at least one side answered.
func (s Summary) judged() int { return s.Prompts - s.BothFailed }

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
		if strings.Contains(d.Error, tooLongPrefix) {
			s.TooLong++
		}
		switch {
		case d.BothFailed:
			s.BothFailed++
			continue
		case d.Error != "":
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
	s.ExactShare = share(s.Exact, s.judged())
	s.LengthDiffShare = share(s.LengthDiffers, s.judged())
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

// judge applies the verdict rules of the package doc over the M judged
// prompts, in integers: at least half exact, 2·exact ≥ M, and lengths
// agreeing on at least 90%, 10·(M − differs) ≥ 9·M.
func judge(s Summary) Verdict {
	m := s.judged()
	switch {
	case m == 0:
		return BothFailed
	case s.Compared == 0:
		return Differs
	case s.Errors == 0 && s.Exact == m:
		return Same
	case 2*s.Exact >= m && 10*(m-s.LengthDiffers) >= 9*m && math.Abs(s.MeanRatio-1) <= meanRatioTolerance:
		return Minor
	}
	return Differs
}

// explain says what the verdict means for throughput comparisons; ds
// gives the errors of prompts both sides failed.
func explain(base, cand string, v Verdict, s Summary, ds []PromptDiff) string {
	m := s.judged()
	var msg string
	oneSided := s.Errors > 0 // the one-sided failures are still to be said
	switch {
	case v == BothFailed:
		return fmt.Sprintf("every prompt failed on both %s and %s (%s): they fail alike, but their answers cannot be compared.%s",
			base, cand, firstBothFailed(ds), tooLongHint(s))
	case v == Same:
		msg = fmt.Sprintf("%s answers all %d prompts exactly as %s does: throughput compares like for like.", cand, m, base)
	case v == Minor:
		msg = fmt.Sprintf("%s's texts differ from %s's on %d of %d prompts, but their lengths agree (mean ratio %.2f×, %.0f%% within 10%%): throughput compares fairly, though the outputs are not identical.",
			cand, base, m-s.Exact, m, s.MeanRatio, 100*(1-s.LengthDiffShare))
	case s.Compared == 0:
		oneSided = false
		msg = fmt.Sprintf("no prompt was answered by both %s and %s: parity is unknown, so their throughput cannot be compared.", base, cand)
	case math.Abs(s.TokenRatio-1) > meanRatioTolerance:
		msg = fmt.Sprintf("%s generates %.2f× the output tokens of %s on the same prompts: its token rate must be %.2f× %s's just to match user wait, so throughput comparisons must account for it (compare time per request, not tokens per second).",
			cand, s.TokenRatio, base, s.TokenRatio, base)
	case 2*s.Exact < m:
		msg = fmt.Sprintf("%s's texts match %s's on only %d of %d prompts (fewer than half), though their lengths are %.2f× in all: another model, or a change that alters what it says, so throughput compares different outputs.",
			cand, base, s.Exact, m, s.TokenRatio)
	case s.LengthDiffers == s.Errors:
		// Only the one-sided failures broke the 90% rule.
		oneSided = false
		msg = fmt.Sprintf("%d of %d prompts failed on %s or %s but not both; the %d answered by both agree in length (%.2f× the tokens): parity is unverified on too many prompts to compare throughput.",
			s.Errors, m, base, cand, s.Compared, s.TokenRatio)
	default:
		msg = fmt.Sprintf("%s's output lengths differ from %s's by more than 10%% on %d of %d prompts (%.2f× the tokens in all): the outputs changed, so throughput comparisons must account for it.",
			cand, base, s.LengthDiffers-s.Errors, m, s.TokenRatio)
	}
	if oneSided {
		msg += fmt.Sprintf(" %d of %d prompts failed on one side only.", s.Errors, m)
	}
	if s.BothFailed > 0 {
		msg += fmt.Sprintf(" %d of %d prompts failed on both sides and are not judged (%s).%s", s.BothFailed, s.Prompts, firstBothFailed(ds), tooLongHint(s))
	}
	return msg
}

// firstBothFailed is the error of the first prompt both sides failed.
func firstBothFailed(ds []PromptDiff) string {
	for _, d := range ds {
		if d.BothFailed {
			return fmt.Sprintf("prompt %d: %s", d.Prompt, d.Error)
		}
	}
	return "none"
}

// tooLongHint advises shorter prompts when some were refused as too long.
func tooLongHint(s Summary) string {
	if s.TooLong == 0 {
		return ""
	}
	return fmt.Sprintf(" %d prompts were refused as longer than the server's context: pass shorter prompts (--prompt-tokens) or a smaller --max-tokens.", s.TooLong)
}

// Differing names the candidates whose verdict is Differs.
func (res *Result) Differing() []string {
	var names []string
	for _, c := range res.Candidates {
		if c.Verdict == Differs {
			names = append(names, c.Candidate)
		}
	}
	return names
}

// Err names the candidates whose verdict is Differs, and the base they
// differ from, or is nil when none does.
func (res *Result) Err() error {
	names := res.Differing()
	if len(names) == 0 {
		return nil
	}
	return fmt.Errorf("parity: %s differs from %s", strings.Join(names, ", "), res.Targets[0].Name)
}
