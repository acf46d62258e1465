package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"surge/client"
	"surge/internal/parity"
)

// parityTimeout bounds one probe request, so a hung server cannot hang
// the probe.
const parityTimeout = 5 * time.Minute

// parityFlags are surge parity's flags: the probe's sizes in cfg, and
// the targets and client settings that parityTargets and runParity read.
type parityFlags struct {
	cfg        parity.Config
	targets    []string
	model      string
	apiKeyEnv  string
	json       bool
	failOnDiff bool
	insecure   bool
	headers    []string
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
	fs.IntVar(&f.cfg.NumPrompts, "prompts", parity.DefaultPrompts, "number of fixed prompts to send")
	fs.IntVar(&f.cfg.PromptTokens, "prompt-tokens", parity.DefaultPromptTokens, "length of the longest prompt (o200k_base tokens); shortened to fit the targets' context")
	fs.IntVar(&f.cfg.MaxTokens, "max-tokens", parity.DefaultMaxTokens, "output token cap of each answer")
	fs.IntVar(&f.cfg.Concurrency, "concurrency", parity.DefaultConcurrency, "requests in flight per target")
	fs.StringVar(&f.apiKeyEnv, "api-key-env", "", "name of the environment variable holding the API key")
	fs.BoolVar(&f.json, "json", false, "write the whole result as JSON")
	fs.BoolVar(&f.failOnDiff, "fail-on-diff", false, "exit 1 when a candidate's verdict is differs")
	fs.BoolVar(&f.insecure, "insecure", false, "do not verify an https:// target's certificate")
	fs.StringArrayVar(&f.headers, "header", nil, "an extra header for every request, 'Name: value' (repeat for more); credential headers' values are never printed")
	return c
}

// runParity probes the targets and prints the comparison.
func runParity(c *cobra.Command, f parityFlags) error {
	var err error
	if f.cfg.Targets, err = parityTargets(f); err != nil {
		return err
	}
	if f.cfg.NumPrompts < 1 || f.cfg.PromptTokens < 1 || f.cfg.MaxTokens < 1 || f.cfg.Concurrency < 1 {
		return usageError{errors.New("--prompts, --prompt-tokens, --max-tokens and --concurrency must be at least 1")}
	}
	// The requests have the options of surge run's (client.HTTPClient):
	// TLS settings, the environment's proxy, no redirect with credentials.
	f.cfg.Client, err = client.HTTPClient(client.Config{Insecure: f.insecure, Proxy: http.ProxyFromEnvironment}, parityTimeout)
	if err != nil {
		return err
	}
	defer f.cfg.Client.CloseIdleConnections()
	res, err := parity.Run(c.Context(), f.cfg)
	if err != nil {
		return err
	}
	if f.json {
		enc := json.NewEncoder(c.OutOrStdout())
		enc.SetIndent("", "  ")
		err = enc.Encode(res)
	} else {
		err = res.WriteText(c.OutOrStdout())
	}
	if err != nil {
		return fmt.Errorf("writing parity result: %w", err)
	}
	return parityError(res, f.failOnDiff)
}

// parityTargets reads --target, --model, --header and --api-key-env
// into targets (parity.ParseTargets).
func parityTargets(f parityFlags) ([]parity.Target, error) {
	key, err := apiKey(f.apiKeyEnv)
	if err != nil {
		return nil, err
	}
	header, err := client.ParseHeader(f.headers)
	if err != nil {
		return nil, usageError{err}
	}
	ts, err := parity.ParseTargets(f.targets, parity.Target{APIKey: key, Model: f.model, Header: header})
	if err != nil {
		return nil, usageError{err}
	}
	return ts, nil
}

// parityError is nil unless failOnDiff and some candidate differs.
func parityError(res *parity.Result, failOnDiff bool) error {
	if err := res.Err(); failOnDiff && err != nil {
		return fmt.Errorf("%w (--fail-on-diff)", err)
	}
	return nil
}
