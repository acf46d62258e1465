package cli

import (
	"github.com/spf13/cobra"

	"surge/bundle"
	"surge/harness"
)

// simFlags are the flags of a simulation; the engine's catalog model,
// GPU and TP are set on hw.
type simFlags struct {
	gen      genFlags
	hw       harness.Engine
	replicas int
	router   string
	out      string
	noTrace  bool
	engine   engineFlags
	slos     sloFlags
}

func newSim() *cobra.Command {
	var f simFlags
	c := &cobra.Command{
		Use:   "sim SPEC|TRACE --engine-model M --gpu G",
		Short: "Run a workload through the built-in engine in virtual time and report what happened",
		Long: `sim sends a workload (a spec, compiled in memory, or a trace from surge gen)
to simulated vLLM-style servers in virtual time: R replicas of model M on TP
GPUs of type G each, behind a router, thousands of times faster than real
time and without a GPU; vllm serve's engine flags set each replica.

It writes the same files and prints the same report as surge run, requests
measured as a streaming client next to the server would see them. Only the
records' start time depends on when sim ran. Ctrl-C stops the simulation
where it is, and the run is reported as interrupted.`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runSim(c, args[0], f) },
	}
	fs := c.Flags()
	f.gen.register(fs)
	fs.StringVar(&f.hw.Model, "engine-model", "", "model from the sim catalog, e.g. llama-3.1-8b")
	deprecatedAlias(fs, "model", "engine-model")
	fs.StringVar(&f.hw.GPU, "gpu", "", "accelerator from the sim catalog, e.g. h100")
	fs.IntVar(&f.hw.TP, "tp", 1, "GPUs per replica (tensor parallelism)")
	fs.IntVar(&f.replicas, "replicas", 1, "number of server replicas")
	fs.StringVar(&f.router, "router", "round-robin", "how requests pick a replica: round-robin or least-loaded")
	fs.StringVarP(&f.out, "output", "o", "", "directory for records and report (default surge-sim-TIME)")
	fs.BoolVar(&f.noTrace, "no-trace", false, "leave the trace out of the bundle (the manifest's spec and seed make it again with surge gen; the records' workload hash checks it): for runs of millions of requests")
	f.engine.register(fs, "")
	f.slos.register(fs)
	return c
}

func runSim(c *cobra.Command, path string, f simFlags) error {
	v, err := f.virtual()
	if err != nil {
		return usageError{err}
	}
	// Generated as it runs, holding only the sessions in flight.
	in, err := loadWorkloadOpts(c.Context(), path, f.gen, c.Flags(), c.InOrStdin(), harness.LoadOptions{Stream: true})
	if err != nil {
		return specFailure(c, path, err)
	}
	if err := f.slos.apply(&in.Header); err != nil {
		return err
	}
	cfg := harness.Config{
		Workload: in, Virtual: v, Log: c.ErrOrStderr(),
		FailOnSLO: f.slos.failOn, FailOnInvalid: f.slos.failOnInvalid, NoTrace: f.noTrace,
		Tool: versionString(), Command: commandLine(c.Context()), Host: bundle.ThisHost(kernelRelease()),
	}
	output(c, &cfg, f.out, "surge-sim-")
	res, err := harness.Run(c.Context(), cfg)
	return printRun(c, res, err)
}

// virtual is the simulation the flags describe (harness.NewVirtual).
func (f simFlags) virtual() (*harness.Virtual, error) {
	if err := f.engine.check(); err != nil {
		return nil, err
	}
	eng := f.hw
	eng.Settings = f.engine.settings()
	return harness.NewVirtual(eng, f.replicas, f.router)
}
