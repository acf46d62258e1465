package cli

import (
	"cmp"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"surge/fit"
	"surge/harness"
	"surge/internal/hostfs"
)

type fitFlags struct {
	imp    importFlags
	flat   bool
	check  bool
	strict bool
	drift  harness.DriftOptions
}

func newFit() *cobra.Command {
	var f fitFlags
	c := &cobra.Command{
		Use:   "fit FILE... [-o spec.yaml]",
		Short: "Fit a workload spec to a trace: arrivals, rate curve and lengths",
		Long: `fit reads a trace (a surge trace, or any file surge import reads, with
every import option) and writes a spec that generates the same traffic
statistically, one client per client of the trace: the inter-arrival law
by maximum likelihood (exponential, gamma, Weibull, lognormal), chosen by
Kolmogorov–Smirnov distance and graded (a poor fit says so), the rate
curve over time as stages (or the mean rate, with --flat), timestamp
grids and on/off traffic, and input and output lengths (a fitted law
clamped to the observed range, or the empirical quantiles when no law
fits). The spec is commented with the fit statistics; a summary goes to
stderr. See docs/fit.md.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runFit(c, args, f) },
	}
	fs := c.Flags()
	fs.StringVar(&f.imp.format, "format", "auto", "format of the files: auto detects them (and surge traces)")
	fs.StringVarP(&f.imp.out, "output", "o", "-", "spec file to write (- for stdout)")
	f.imp.bind(fs)
	fs.BoolVar(&f.flat, "flat", false, "state each client's mean rate instead of its rate curve")
	fs.BoolVar(&f.check, "check", false, "generate a trace from the fitted spec and print it beside the original (to stderr), flagging counts off their bounds")
	fs.BoolVar(&f.strict, "strict", false, "with --check: fail (exit 1) when a count is off its bound")
	fs.StringVar(&f.drift.Against, "against", "", "grade the files against this spec instead of fitting one: a table (or --json) of the drift; exit 1 past a bound (docs/fit.md)")
	fs.BoolVar(&f.drift.JSON, "json", false, "with --against: write the report as JSON")
	fs.Float64Var(&f.drift.Bounds.KS, "max-ks", fit.DefaultDriftBounds.KS, "with --against: largest KS distance of a length law")
	fs.Float64Var(&f.drift.Bounds.Rate, "max-rate-change", fit.DefaultDriftBounds.Rate, "with --against: largest relative change of a client's rate")
	fs.Float64Var(&f.drift.Bounds.CV, "max-cv-change", fit.DefaultDriftBounds.CV, "with --against: largest relative change of a client's gap CV")
	fs.Float64Var(&f.drift.Bounds.Shape, "max-shape", fit.DefaultDriftBounds.Shape, "with --against: largest total variation distance of the hourly shares")
	return c
}

func runFit(c *cobra.Command, files []string, f fitFlags) error {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.ToSlash(f)
	}
	opts, err := f.imp.options()
	if err == nil {
		err = opts.CheckSet(names)
	}
	if err != nil {
		return usageError{err}
	}
	name := strings.TrimSuffix(filepath.Base(files[0]), filepath.Ext(files[0]))
	spec, err := harness.Fit(c.Context(), hostfs.FS{}, names, name, harness.FitOptions{Import: opts, Tokenizer: filepath.ToSlash(f.imp.tokenizer),
		Flat: f.flat, Check: f.check, Strict: f.strict, Drift: f.drift}, c.ErrOrStderr())
	if spec == nil {
		return cliError(err)
	}
	var werr error
	if f.imp.out == "-" {
		_, werr = c.OutOrStdout().Write(spec)
	} else {
		werr = os.WriteFile(f.imp.out, spec, 0o644)
	}
	return cmp.Or(werr, err)
}
