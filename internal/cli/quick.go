package cli

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"surge/harness"
	"surge/internal/hostfs"
	"surge/spec"
)

// quickFlags are vllm bench serve's flags of surge run without a SPEC,
// bound onto spec.BenchOptions; --model, --api, --max-concurrency and
// --seed are the run's own.
type quickFlags struct {
	q         harness.Quick
	printSpec bool
}

// register adds the quick mode's flags, with vllm bench serve's defaults.
func (q *quickFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&q.q.Dataset, "dataset-name", "random", "without SPEC: random (synthetic prompts of the --random-* lengths), or sharegpt, burstgpt or mooncake, imported from --dataset-path")
	fs.StringVar(&q.q.Path, "dataset-path", "", "without SPEC: the file of --dataset-name, imported as surge import does; its first --num-prompts sessions are sent, at --request-rate (inf: as recorded; sharegpt: --max-concurrency conversations at a time)")
	fs.IntVar(&q.q.Bench.InputLen, "random-input-len", 1024, "without SPEC: prompt length in tokens")
	fs.IntVar(&q.q.Bench.OutputLen, "random-output-len", 128, "without SPEC: output length in tokens (max_tokens)")
	fs.Float64Var(&q.q.Bench.RangeRatio, "random-range-ratio", 0, "without SPEC: draw each length uniformly from [len·(1−r), len·(1+r)]")
	fs.Float64Var(&q.q.Bench.RequestRate, "request-rate", math.Inf(1), "without SPEC: requests per second; inf sends them as fast as possible: all at once, or --max-concurrency at a time")
	fs.Float64Var(&q.q.Bench.Burstiness, "burstiness", 1, "without SPEC: gamma shape of the gaps between requests (1: Poisson; below 1 burstier, above more even)")
	fs.IntVar(&q.q.Bench.NumPrompts, "num-prompts", 1000, "without SPEC: number of requests")
	fs.BoolVar(&q.q.Bench.IgnoreEOS, "ignore-eos", false, "without SPEC: send ignore_eos and min_tokens, so every output has its length")
	fs.StringVar(&q.q.Bench.Tokenizer, "tokenizer", "o200k_base", "without SPEC: tokenizer counting the prompts' tokens (o200k_base, cl100k_base, or a tokenizer.json)")
	fs.StringVar(&q.q.Bench.PercentileMetrics, "percentile-metrics", "ttft,tpot,itl", "without SPEC: vllm's metrics to report (the report shows ttft, tpot, itl and e2el always)")
	fs.StringVar(&q.q.Bench.MetricPercentiles, "metric-percentiles", "99", "without SPEC: percentiles to report, among 50, 90, 95, 99 and 99.9 (the report shows them all)")
	fs.BoolVar(&q.printSpec, "print-spec", false, "without SPEC: print the spec of these flags (YAML, for surge run SPEC) and exit")
}

// load is the workload of a run: the spec or trace at path, or without
// one the workload of the quick mode's flags (harness.Quick); nil after
// --print-spec has printed its spec.
func (f runFlags) load(c *cobra.Command, path string) (*harness.Workload, error) {
	if err := f.quick.check(c, path); err != nil {
		return nil, err
	}
	if path != "" {
		in, err := loadWorkload(c.Context(), path, f.gen, c.Flags(), c.InOrStdin())
		return in, specFailure(c, path, err)
	}
	if f.cfg.Target != "" && f.cfg.Model == "" {
		return nil, usageError{errors.New("--model: name the model to send; without a SPEC, surge run needs it with --target")}
	}
	q := f.quick.q
	q.Bench.Model, q.Bench.API, q.Bench.MaxConcurrency = cmp.Or(f.cfg.Model, harness.DefaultEngineModel), f.cfg.API, f.cfg.MaxConcurrency
	q.Seed = f.gen.seed
	edit := func(s *spec.Spec) error { return f.gen.applyTo(c.Flags(), s) }
	if f.quick.printSpec {
		s, err := q.Spec(edit)
		if err != nil {
			return nil, cliError(err)
		}
		_, err = c.OutOrStdout().Write(s.Canonical())
		return nil, err
	}
	in, err := q.Load(c.Context(), hostfs.FS{}, edit)
	return in, cliError(err)
}

// check refuses the quick mode's flags beside a SPEC, a SPEC missing
// without them, and flags that do not apply to the dataset.
func (q quickFlags) check(c *cobra.Command, path string) error {
	var given []string
	c.Flags().VisitAll(func(fl *pflag.Flag) {
		if fl.Changed && strings.HasPrefix(fl.Usage, "without SPEC:") {
			given = append(given, "--"+fl.Name)
		}
	})
	switch {
	case path != "" && len(given) > 0:
		return usageError{fmt.Errorf("%s build a workload of their own: give them without %s, or set the spec's input, output and rate", given[0], path)}
	case path == "" && len(given) == 0:
		return usageError{fmt.Errorf("run: give a SPEC or TRACE, or vllm bench serve's flags, e.g. surge run --random-input-len 1024 --random-output-len 128 --request-rate 10 --num-prompts 600 (usage: %s)", c.UseLine())}
	case q.q.Dataset == "random" || path != "":
		return nil
	}
	for _, name := range []string{"random-input-len", "random-output-len", "random-range-ratio", "burstiness", "print-spec"} {
		if c.Flags().Changed(name) {
			return usageError{fmt.Errorf("--%s does not apply to --dataset-name %s, whose lengths and burst shape are the file's (surge import writes it as a trace)", name, q.q.Dataset)}
		}
	}
	return nil
}
