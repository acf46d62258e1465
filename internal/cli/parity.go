package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"surge/internal/parity"
)

// parityTimeout bounds one probe request, so a hung server cannot hang
// the probe.
const parityTimeout = 5 * time.Minute

// parityFlags are surge parity's flags.
type parityFlags struct {
	targets     []string
	model       string
	prompts     int
	promptToks  int
	maxTokens   int
	concurrency int
	apiKeyEnv   string
	json        bool
	failOnDiff  bool
}

func newParity() *cobra.Command {
	var f parityFlags
	c := &cobra.Command{
		Use:   "parity --target URL --target URL [--target ...]",
		Short: "Check that servers answer alike before comparing their speed",
		Long: `parity sends a fixed set of prompts (--prompts, of varied kinds and exact
lengths) to every target at temperature 0 and seed 0, with logprobs when
the server accepts them, and compares each later target's answers with the
first's: exact matches, common prefixes, output lengths, finish reasons and
logprob drift. The verdict per candidate is same (identical texts), minor
(at least half the texts identical, and lengths agree within 10% on at
least 90% of prompts and on average within 5%), differs, or both failed
(every prompt failed on both sides: they fail alike, but nothing could be
compared). A prompt both sides failed is not a difference; one side
failing is. An engine or precision change that makes a model say more is
flagged before its speed is compared: a candidate that generates 2x the
tokens needs a 2x token rate just to break even.

The prompts' lengths vary up to --prompt-tokens (640 tokens of o200k_base
by default), shortened to fit the smallest context a target reports
(vLLM's max_model_len, llama-server's context per slot) with --max-tokens
to spare; a prompt a server refuses as too long is reported as such.

--target is a base URL (without /v1) or NAME=URL; credentials in a URL are
sent but never printed. Without --model each target's first model of
GET /v1/models is used. With --fail-on-diff parity exits 1 when some
candidate differs.`,
		Args: exactArgs(0),
		RunE: func(c *cobra.Command, _ []string) error { return runParity(c, f) },
	}
	fs := c.Flags()
	fs.StringArrayVar(&f.targets, "target", nil, "a server, URL or NAME=URL; the first is the base (repeat, at least twice)")
	fs.StringVar(&f.model, "model", "", "model name to send to every target (default: each target's first listed model)")
	fs.IntVar(&f.prompts, "prompts", parity.DefaultPrompts, "number of fixed prompts to send")
	fs.IntVar(&f.promptToks, "prompt-tokens", parity.DefaultPromptTokens, "length of the longest prompt (o200k_base tokens); shortened to fit the targets' context")
	fs.IntVar(&f.maxTokens, "max-tokens", parity.DefaultMaxTokens, "output token cap of each answer")
	fs.IntVar(&f.concurrency, "concurrency", parity.DefaultConcurrency, "requests in flight per target")
	fs.StringVar(&f.apiKeyEnv, "api-key-env", "", "name of the environment variable holding the API key")
	fs.BoolVar(&f.json, "json", false, "write the whole result as JSON")
	fs.BoolVar(&f.failOnDiff, "fail-on-diff", false, "exit 1 when a candidate's verdict is differs")
	return c
}

// runParity probes the targets and prints the comparison.
func runParity(c *cobra.Command, f parityFlags) error {
	targets, err := parityTargets(f)
	if err != nil {
		return err
	}
	if f.prompts < 1 || f.promptToks < 1 || f.maxTokens < 1 || f.concurrency < 1 {
		return usageError{errors.New("--prompts, --prompt-tokens, --max-tokens and --concurrency must be at least 1")}
	}
	res, err := parity.Run(c.Context(), parity.Config{Targets: targets, NumPrompts: f.prompts, PromptTokens: f.promptToks,
		MaxTokens: f.maxTokens, Concurrency: f.concurrency, Client: &http.Client{Timeout: parityTimeout}})
	if err != nil {
		return err
	}
	if f.json {
		enc := json.NewEncoder(c.OutOrStdout())
		enc.SetIndent("", "  ")
		err = enc.Encode(res)
	} else {
		err = writeParity(c.OutOrStdout(), res)
	}
	if err != nil {
		return fmt.Errorf("writing parity result: %w", err)
	}
	return parityError(res, f.failOnDiff)
}

// parityTargets reads --target, --model and --api-key-env into targets,
// naming each by NAME= or by its host.
func parityTargets(f parityFlags) ([]parity.Target, error) {
	if len(f.targets) < 2 {
		return nil, usageError{fmt.Errorf("parity needs --target at least twice (the base, then candidates), got %d", len(f.targets))}
	}
	key, err := apiKey(f.apiKeyEnv)
	if err != nil {
		return nil, err
	}
	var ts []parity.Target
	var errs []error
	seen := map[string]bool{}
	for _, item := range f.targets {
		name, u := "", strings.TrimSpace(item)
		if isPair(u) {
			name, u, _ = strings.Cut(u, "=")
		}
		if err := checkURL(u, "--target "+redact(u)); err != nil {
			errs = append(errs, usageError{err})
			continue
		}
		if name == "" {
			p, _ := url.Parse(u)
			name = p.Host + strings.TrimRight(p.Path, "/")
		}
		if seen[name] {
			errs = append(errs, usageError{fmt.Errorf("--target: %s is given twice (name them NAME=URL)", name)})
		}
		seen[name] = true
		ts = append(ts, parity.Target{Name: name, BaseURL: u, APIKey: key, Model: f.model})
	}
	return ts, errors.Join(errs...)
}

// parityError is nil unless failOnDiff and some candidate differs.
func parityError(res *parity.Result, failOnDiff bool) error {
	if !failOnDiff {
		return nil
	}
	var names []string
	for _, c := range res.Candidates {
		if c.Verdict == parity.Differs {
			names = append(names, c.Candidate)
		}
	}
	if len(names) == 0 {
		return nil
	}
	return fmt.Errorf("parity: %s differs from %s (--fail-on-diff)", strings.Join(names, ", "), res.Targets[0].Name)
}

// writeParity prints the targets, then a table, summary and verdict per
// candidate.
func writeParity(w io.Writer, res *parity.Result) error {
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
		if err := writeParityTable(w, c, res.Targets[0], res.Targets[i+1]); err != nil {
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

// writeParityTable prints one row per prompt of candidate comparison c.
func writeParityTable(w io.Writer, c parity.Comparison, base, cand parity.TargetResult) error {
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
