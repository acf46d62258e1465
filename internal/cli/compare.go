package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"surge/metrics/compare"
	"surge/report"
)

// compareFlags are surge compare's flags.
type compareFlags struct {
	opts   compare.Options
	failOn string
	format string
}

func newCompare() *cobra.Command {
	var f compareFlags
	c := &cobra.Command{
		Use:   "compare BASE CANDIDATE",
		Short: "Compare two runs of one workload: which latency, throughput and error changes are significant",
		Long: `compare reads the records of two runs (files or run directories) of one
workload and prints, benchstat-style, each latency's p50, p90, p99 and mean,
throughput and the error rate: base, candidate, the delta, its bootstrap
confidence interval and a Mann–Whitney p-value. A delta shows as ~ unless
significant at --alpha; a large change that is not ("large but
underpowered": too few requests to tell) is marked ?.
--fail-on lists gates, e.g. 'ttft.p99:+10%,output_throughput:-5%', each
failing when the candidate is significantly past it; a gate that cannot be
judged fails only with --fail-on-unjudged. compare exits 1 when a gate
fails. Runs of different workloads are refused unless
--allow-different-workload. See docs/compare.md for the method.`,
		Args: exactArgs(2),
		RunE: func(c *cobra.Command, args []string) error { return runCompare(c, args[0], args[1], f) },
	}
	fs := c.Flags()
	fs.StringVar(&f.failOn, "fail-on", "", "gates that fail the comparison, e.g. 'ttft.p99:+10%,output_throughput:-5%'")
	fs.BoolVar(&f.opts.FailOnUnjudged, "fail-on-unjudged", false, "a gate that cannot be judged (too few requests, no values) fails too")
	fs.Float64Var(&f.opts.Alpha, "alpha", compare.DefaultAlpha, "significance level; intervals are at 1 − alpha")
	fs.BoolVar(&f.opts.AllowDifferentWorkload, "allow-different-workload", false, "compare runs of different workloads (the output says so)")
	fs.StringVar(&f.format, "format", "text", "text, markdown or json")
	return c
}

// runCompare compares the runs at base and cand, prints the comparison
// and fails when a gate does.
func runCompare(c *cobra.Command, base, cand string, f compareFlags) error {
	write, ok := report.CompareRenderer(f.format)
	if !ok {
		return usageError{fmt.Errorf("--format %q: want text, markdown or json", f.format)}
	}
	var err error
	if f.opts.Gates, err = compare.ParseGates(f.failOn); err != nil {
		return usageError{fmt.Errorf("--fail-on: %w", err)}
	}
	if err := f.opts.Check(); err != nil {
		return usageError{err}
	}
	rb, err := readRecordsFrom(c.InOrStdin(), c.ErrOrStderr(), []string{base})
	if err != nil {
		return err
	}
	rc, err := readRecordsFrom(c.InOrStdin(), c.ErrOrStderr(), []string{cand})
	if err != nil {
		return err
	}
	f.opts.BaseName, f.opts.CandidateName = base, cand
	res, err := compare.Compare(rb, rc, f.opts)
	if errors.Is(err, compare.ErrDifferentWorkload) {
		return fmt.Errorf("%w; compare runs of one workload, or pass --allow-different-workload", err)
	}
	if err != nil {
		return err
	}
	if err := write(c.OutOrStdout(), res); err != nil {
		return err
	}
	warnUnderpowered(c.ErrOrStderr(), res)
	return res.Err()
}

// warnUnderpowered says on w which gates went unjudged although their
// row's change is large, so that a large regression on too few requests
// does not pass unseen.
func warnUnderpowered(w io.Writer, res *compare.Result) {
	for _, g := range res.Overlooked() {
		row := res.Row(g.Gate.Row)
		fmt.Fprintf(w, "surge: warning: gate %s is unjudged, not failed, but its row changed by %+.1f%%, %s: measure more requests, or pass --fail-on-unjudged\n",
			g.Gate, 100*row.Delta, row.Finding())
	}
}
