package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"surge/harness"
	"surge/internal/hostfs"
	"surge/report"
	"surge/spec"
	"surge/sweep"
)

// sweepFlags are a sweep's flags: a run's, and those a
// harness.SweepConfig takes as they are set its fields.
type sweepFlags struct {
	run           runFlags
	sweep         harness.SweepConfig
	rates, conc   string
	slo           string
	failOnInvalid bool // a questionable measurement at any point exits 4
}

func newSweep() *cobra.Command {
	var f sweepFlags
	c := &cobra.Command{
		Use:   "sweep SPEC (--rates R,... | --concurrency N,... | --auto) [--target URL | --sim]",
		Short: "Run a workload at increasing loads: throughput–latency curve, knee, SLO search, operating point",
		Long: `sweep runs a spec's workload at several loads, a fresh run (and salt) per
point, and reports the throughput–latency curve, its knee and an operating
point. --rates scales the open-loop clients to each total rate (req/s);
--concurrency runs every client closed loop with that many in flight;
--auto measures saturation closed loop, then places --points rates up to
15% past it. A rate point whose TTFT grows without bound is stopped early
and marked saturated.

With SLOs (the spec's, or --slo 'ttft.p99<=2s') each point gets a verdict
with MLPerf-style early stopping, and the search bisects between the highest
passing and lowest failing load. The target is --target, the built-in
engine in real time (the default), or --sim, in virtual time. It writes
DIR/sweep.json, DIR/report.txt and a run directory per point (docs/sweep.md).`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runSweep(c, args[0], f) },
	}
	fs := c.Flags()
	f.run.register(fs)
	fs.Lookup("output").Usage = "directory for the sweep's reports and a run directory per point (default surge-sweep-TIME)"
	fs.BoolVar(&f.sweep.Simulate, "sim", false, "run each point through the built-in engine in virtual time (--engine-model, --gpu, --tp choose it)")
	fs.StringVar(&f.rates, "rates", "", "total request rates to run, req/s: 1,2,4,8")
	fs.StringVar(&f.conc, "concurrency", "", "closed-loop concurrencies to run: 1,8,64")
	fs.BoolVar(&f.sweep.Search.Auto, "auto", false, "measure saturation, then place rate points up to just past it")
	fs.IntVar(&f.sweep.Search.Points, "points", sweep.DefaultPoints, "with --auto: number of rate points")
	fs.IntVar(&f.sweep.Search.ProbeConcurrency, "probe-concurrency", sweep.DefaultProbeConcurrency, "with --auto: concurrency of the saturation probe")
	fs.IntVar(&f.sweep.MinRequests, "min-requests", 500, "measured requests each point runs at least, lengthening the spec at low loads (459 pass a p99 SLO at 99% confidence; 0: the spec as written)")
	fs.StringVar(&f.slo, "slo", "", "objectives replacing the spec's: ttft.p99<=2s,tpot.p99<=100ms")
	fs.Float64Var(&f.sweep.Search.Headroom, "headroom", sweep.DefaultHeadroom, "fraction the operating point stays below the limit or knee")
	fs.Float64Var(&f.sweep.Search.Precision, "precision", sweep.DefaultPrecision, "the SLO search stops when the lowest failing load is within this fraction of the highest passing one")
	fs.Float64Var(&f.sweep.Search.Confidence, "confidence", sweep.DefaultConfidence, "confidence level of SLO verdicts")
	fs.BoolVar(&f.failOnInvalid, "fail-on-invalid", false, "exit 4 when the measurement of any point is questionable")
	return c
}

func runSweep(c *cobra.Command, path string, f sweepFlags) error {
	search, err := f.config()
	if err != nil {
		return usageError{err}
	}
	if err := f.run.check(c); err != nil {
		return err
	}
	if f.sweep.Simulate && f.run.cfg.Target != "" {
		return usageError{errors.New("--sim and --target: choose one target")}
	}
	s, err := f.spec(c, path)
	if err != nil {
		return err
	}
	key, err := apiKey(f.run.apiKeyEnv)
	if err != nil {
		return err
	}
	dir := runDirName(f.run.out, "surge-sweep-")
	search.Progress = func(pt sweep.Point) { fmt.Fprintln(c.ErrOrStderr(), report.SweepLine(search.Mode, pt)) }
	cfg := f.sweep
	cfg.Search, cfg.Spec, cfg.SpecPath, cfg.Files = search, s, filepath.ToSlash(path), hostfs.FS{}
	cfg.Run, cfg.Dir = f.run.config(c, nil, key), dir
	res, err := harness.Sweep(c.Context(), cfg)
	if res != nil {
		if werr := report.SweepText(c.OutOrStdout(), res); werr != nil && err == nil {
			err = werr
		}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, harness.ErrInterrupted) {
		return errInterrupted // the points so far are written and reported
	}
	if err == nil && f.failOnInvalid {
		err = harness.QuestionablePoints(res)
	}
	return cliError(err)
}

// config reads the sweep's own flags into a sweep.Config.
func (f sweepFlags) config() (sweep.Config, error) {
	cfg := f.sweep.Search
	if n := btoi(f.rates != "") + btoi(f.conc != "") + btoi(cfg.Auto); n != 1 {
		return cfg, errors.New("give exactly one of --rates, --concurrency and --auto")
	}
	flag, loads := "--rates", f.rates
	cfg.Mode = sweep.Rate
	if f.conc != "" {
		flag, loads, cfg.Mode = "--concurrency", f.conc, sweep.Concurrency
	}
	var err error
	if cfg.Loads, err = sweep.ParseLoads(cfg.Mode, loads); err != nil {
		return cfg, fmt.Errorf("%s %w", flag, err)
	}
	if cfg.Headroom == 0 || cfg.Precision == 0 || cfg.Confidence == 0 { // sweep.Config's "default"
		return cfg, errors.New("--headroom, --precision, --confidence: want a fraction, not 0")
	}
	return cfg, cfg.Check()
}

// btoi is 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// spec reads the spec with the gen flags' and --slo's overrides. A trace
// has no rates to scale, so it is refused.
func (f sweepFlags) spec(c *cobra.Command, path string) (*spec.Spec, error) {
	if t, err := isTrace(path); err == nil && t {
		return nil, usageError{fmt.Errorf("%s is a trace: sweep scales a spec's rates; give the spec it came from", path)}
	}
	s, err := loadSpec(path, c.InOrStdin())
	if err != nil {
		return nil, specFailure(c, path, err)
	}
	if err := f.run.gen.applyTo(c.Flags(), s); err != nil {
		return nil, err
	}
	if f.slo != "" {
		if s.SLO, err = spec.ParseSLOs(f.slo); err != nil {
			return nil, usageError{fmt.Errorf("--slo: %w", err)}
		}
	}
	return s, nil
}
