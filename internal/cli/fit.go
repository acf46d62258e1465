package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"surge/fit"
	"surge/trace"
	"surge/trace/importers"
)

type fitFlags struct {
	format string
	out    string
	flat   bool
	check  bool
}

func newFit() *cobra.Command {
	var f fitFlags
	c := &cobra.Command{
		Use:   "fit FILE... [-o spec.yaml]",
		Short: "Fit a workload spec to a trace: arrivals, rate curve and lengths",
		Long: `fit reads a trace (a surge trace, or any file surge import reads) and
writes a spec that generates the same traffic statistically, one client per
client of the trace: the inter-arrival law by maximum likelihood
(exponential, gamma, Weibull, lognormal), chosen by Kolmogorov–Smirnov
distance and graded (a poor fit says so), the rate curve over time as
stages (or the mean rate, with --flat), timestamp grids and on/off
traffic, and input and output lengths (a fitted law clamped to the
observed range, or the empirical quantiles when no law fits). The spec is
commented with the fit statistics; a summary goes to stderr.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runFit(c, args, f) },
	}
	fs := c.Flags()
	fs.StringVar(&f.format, "format", "auto", "format of the files: auto detects them (and surge traces)")
	fs.StringVarP(&f.out, "output", "o", "-", "spec file to write (- for stdout)")
	fs.BoolVar(&f.flat, "flat", false, "state each client's mean rate instead of its rate curve")
	fs.BoolVar(&f.check, "check", false, "generate a trace from the fitted spec and print it beside the original (to stderr)")
	return c
}

func runFit(c *cobra.Command, files []string, f fitFlags) error {
	samples, models, order, err := fitSamples(files, f.format)
	if err != nil {
		return err
	}
	var clients []fit.Client
	for _, name := range order {
		s := samples[name]
		arr, err := fit.Arrivals(s.Times, fit.ArrivalOptions{})
		if err != nil {
			return fmt.Errorf("fit: client %q: %w", name, err)
		}
		lens, err := fit.Lengths(s.In, s.Out)
		if err != nil {
			return fmt.Errorf("fit: client %q: %w", name, err)
		}
		clients = append(clients, fit.Client{Name: name, Model: models[name], Arrivals: arr, Lengths: lens, Flat: f.flat})
		fmt.Fprintf(c.ErrOrStderr(), "surge fit: %s: %d arrivals, %.4g/s, gaps %s (KS %.3f, %s), input %s, output %s\n",
			name, arr.N, arr.Rate, arr.Gaps.Best.Family, arr.Gaps.Best.KS, arr.Gaps.Grade,
			lens.Input.Grade, lens.Output.Grade)
	}
	spec, err := fit.Spec(strings.TrimSuffix(filepath.Base(files[0]), filepath.Ext(files[0])), clients)
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	if f.check {
		if err := checkFit(c, spec, samples, order); err != nil {
			return err
		}
	}
	if f.out == "-" {
		_, err = c.OutOrStdout().Write(spec)
		return err
	}
	return os.WriteFile(f.out, spec, 0o644)
}

// fitSamples reads the sessions of files by client, with each client's
// model and the clients in the order they first appear.
func fitSamples(files []string, format string) (samples map[string]*fit.Sample, models map[string]string, order []string, err error) {
	samples, models = map[string]*fit.Sample{}, map[string]string{}
	add := func(s *trace.Session) {
		fs, ok := samples[s.Client]
		if !ok {
			fs = &fit.Sample{}
			samples[s.Client], models[s.Client] = fs, s.Model
			order = append(order, s.Client)
		}
		addSample(fs, s)
	}
	if len(files) == 1 && format == "auto" {
		if ok, err := isTrace(files[0]); err == nil && ok {
			in, err := readTraceFile(files[0])
			if err != nil {
				return nil, nil, nil, err
			}
			for _, s := range in.sessions {
				add(s)
			}
			return samples, models, order, nil
		}
	}
	src, closeAll, err := importSource(files, format)
	if err != nil {
		return nil, nil, nil, err
	}
	defer closeAll()
	for {
		s, err := src.Next()
		if err == io.EOF {
			return samples, models, order, nil
		}
		if err != nil {
			return nil, nil, nil, fmt.Errorf("fit: %w", err)
		}
		add(s)
	}
}

// addSample adds session s to fs: its start and every request's lengths.
func addSample(fs *fit.Sample, s *trace.Session) {
	fs.Times = append(fs.Times, float64(s.AtUS)/1e6)
	for _, t := range s.Turns {
		fs.In = append(fs.In, float64(t.InputTokens))
		fs.Out = append(fs.Out, float64(t.OutputTokens))
	}
}

// importSource opens files as surge import reads request-level traces.
func importSource(files []string, format string) (importers.Source, func(), error) {
	ft, err := detectFormat(files, format, false)
	if err != nil {
		return nil, nil, err
	}
	rf, err := openRequests(files, ft, importFlags{})
	if err != nil {
		return nil, nil, err
	}
	return rf.source(), rf.close, nil
}
