package parity

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteText writes res as text: the targets, then a table of the prompts,
// a summary and the verdict per candidate.
func (res *Result) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, t := range res.Targets {
		role := "candidate"
		if i == 0 {
			role = "base"
		}
		lp := "logprobs"
		if !t.Logprobs {
			lp = "no logprobs"
		}
		ctx := "context unknown"
		if t.Context > 0 {
			ctx = fmt.Sprintf("context %d", t.Context)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\tmodel %s\t%s\t%s\n", role, t.Name, t.URL, t.Model, ctx, lp)
		for _, n := range t.Notes {
			fmt.Fprintf(tw, "\t\tnote: %s\n", n)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	for i, c := range res.Candidates {
		fmt.Fprintf(w, "\n%s vs %s (%d prompts of up to %d tokens, answers of at most %d)\n", c.Candidate, c.Base, res.Prompts, res.PromptTokens, res.MaxTokens)
		if err := writeTable(w, c, res.Targets[0], res.Targets[i+1]); err != nil {
			return err
		}
		s := c.Summary
		fmt.Fprintf(w, "exact %d/%d (%.0f%%)  length ratio median %.2f× mean %.2f× total %.2f×  lengths >10%% apart %d/%d  finish agree %.0f%%  one side failed %d  both failed %d\n",
			s.Exact, s.Prompts-s.BothFailed, 100*s.ExactShare, s.MedianRatio, s.MeanRatio, s.TokenRatio,
			s.LengthDiffers, s.Prompts-s.BothFailed, 100*s.FinishAgreeShare, s.Errors, s.BothFailed)
		if s.LogprobTokens > 0 {
			fmt.Fprintf(w, "mean |Δlogprob| %.4f over %d common tokens\n", s.MeanAbsDLogprob, s.LogprobTokens)
		}
		fmt.Fprintf(w, "verdict: %s — %s\n", c.Verdict, c.Explanation)
	}
	return nil
}

// writeTable writes one row per prompt of candidate comparison c.
func writeTable(w io.Writer, c Comparison, base, cand TargetResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "prompt\texact\tprefix chars\tprefix tokens\tbase tokens\tcand tokens\tratio\tfinish\t|Δlogprob|\t")
	for _, d := range c.Prompts {
		if d.Error != "" {
			fmt.Fprintf(tw, "%d\t-\t-\t-\t-\t-\t-\t-\t-\t %s\n", d.Prompt, d.Error)
			continue
		}
		exact, tokens, dlp := "no", "-", "-"
		if d.Exact {
			exact = "yes"
		}
		if d.HasTokens {
			tokens, dlp = fmt.Sprint(d.PrefixTokens), fmt.Sprintf("%.4f", d.MeanAbsDLogprob)
		}
		finish := base.Answers[d.Prompt].FinishReason
		if !d.SameFinish {
			finish += "/" + cand.Answers[d.Prompt].FinishReason
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%d\t%d\t%.2f\t%s\t%s\t\n",
			d.Prompt, exact, d.PrefixChars, tokens, d.BaseTokens, d.CandTokens, d.Ratio, finish, dlp)
	}
	return tw.Flush()
}
