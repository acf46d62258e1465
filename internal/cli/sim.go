package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"surge/driver"
	"surge/metrics"
	"surge/report"
	"surge/sim"
	"surge/sim/virtual"
	"surge/trace"
)

type simFlags struct {
	gen      genFlags
	model    string
	gpu      string
	tp       int
	replicas int
	router   string
	out      string
	engine   engineFlags
	slos     sloFlags
}

func newSim() *cobra.Command {
	var f simFlags
	c := &cobra.Command{
		Use:   "sim SPEC|TRACE --model M --gpu G",
		Short: "Run a workload through the built-in engine in virtual time and report what happened",
		Long: `sim sends a workload (a spec, compiled in memory, or a trace from surge gen)
to simulated vLLM-style servers in virtual time: R replicas of model M on TP
GPUs of type G each, behind a router. It needs no GPU and runs thousands of
times faster than real time. --max-num-seqs, --max-num-batched-tokens,
--no-prefix-caching, --gpu-memory-utilization and --max-model-len set each
replica's engine as they set vllm serve's.

It writes the same files as surge run (DIR/records.jsonl, DIR/report.txt,
DIR/report.json) and prints the same report. Requests are measured as a
streaming client next to the server would see them: sent at their intended
time, one token per chunk. The records' start time is the wall-clock time
sim was started; every other field depends only on the workload and flags.
Ctrl-C stops the simulation where it is: requests in flight are recorded
as cancelled, and the run is reported as interrupted.`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runSim(c, args[0], f) },
	}
	fs := c.Flags()
	f.gen.register(fs)
	fs.StringVar(&f.model, "model", "", "model from the sim catalog, e.g. llama-3.1-8b")
	fs.StringVar(&f.gpu, "gpu", "", "accelerator from the sim catalog, e.g. h100")
	fs.IntVar(&f.tp, "tp", 1, "GPUs per replica (tensor parallelism)")
	fs.IntVar(&f.replicas, "replicas", 1, "number of server replicas")
	fs.StringVar(&f.router, "router", "round-robin", "how requests pick a replica: round-robin or least-loaded")
	fs.StringVarP(&f.out, "output", "o", "", "directory for records and report (default surge-sim-TIME)")
	f.engine.register(fs, "")
	f.slos.register(fs)
	return c
}

func runSim(c *cobra.Command, path string, f simFlags) error {
	cfg, target, err := f.config()
	if err != nil {
		return usageError{err}
	}
	in, err := loadWorkload(c.Context(), path, f.gen, c.Flags(), c.InOrStdin())
	if err != nil {
		return specFailure(c, path, err)
	}
	if err := f.slos.apply(&in.header); err != nil {
		return err
	}
	if n, w := faulted(in), len(in.header.FaultWindows); n+w > 0 {
		fmt.Fprintf(c.ErrOrStderr(), "surge: sim does not inject faults: %d requests that carry one and %d storm or burst windows run as healthy (a burst's arrivals are in the trace already); surge run injects them\n", n, w)
	}
	dir := f.out
	if dir == "" {
		dir = "surge-sim-" + time.Now().Format("20060102-150405")
	}
	if dir, err = runDir(dir); err != nil {
		return err
	}
	if err := writeBundleTrace(dir, in); err != nil {
		return fmt.Errorf("writing the bundle's trace: %w", err)
	}
	end, server, err := simulate(c, cfg, in, target, dir)
	if err != nil {
		return err
	}
	sum, err := writeReports(c, dir, report.HTMLInput{Prompt: promptsOf(in.sessions), Server: server})
	if err != nil {
		return err
	}
	rec := runRecord{target: target, start: sum.Header.Start, end: end}
	if err := writeManifest(c.Context(), dir, in, rec); err != nil {
		return fmt.Errorf("writing the bundle's manifest: %w", err)
	}
	if sum.Interrupted {
		return errInterrupted
	}
	if sum.All.Sent > 0 && sum.All.OK == 0 {
		return fmt.Errorf("no request succeeded (%d sent): see the errors line above and %s", sum.All.Sent, filepath.Join(dir, "records.jsonl"))
	}
	return f.slos.verdict(sum)
}

// config builds the simulation's configuration and its target name, e.g.
// sim://Llama-3.1-8B@H100-SXMx1, from the flags. The name's query lists
// the replicas and router when there are several replicas, and the engine
// settings that differ from vLLM's defaults.
func (f simFlags) config() (virtual.Config, string, error) {
	switch {
	case f.model == "" || f.gpu == "":
		return virtual.Config{}, "", fmt.Errorf("sim needs --model and --gpu, e.g. --model llama-3.1-8b --gpu h100")
	case f.tp < 1:
		return virtual.Config{}, "", fmt.Errorf("--tp %d: want 1 or more GPUs per replica", f.tp)
	case f.replicas < 1:
		return virtual.Config{}, "", fmt.Errorf("--replicas %d: want 1 or more", f.replicas)
	}
	m, err := sim.LookupModel(f.model)
	if err != nil {
		return virtual.Config{}, "", fmt.Errorf("--model: %w", err)
	}
	g, err := sim.LookupGPU(f.gpu)
	if err != nil {
		return virtual.Config{}, "", fmt.Errorf("--gpu: %w", err)
	}
	router, err := virtual.ParseRouter(f.router)
	if err != nil {
		return virtual.Config{}, "", fmt.Errorf("--router: %w", err)
	}
	hw := sim.Hardware{Model: m, GPU: g, TP: f.tp}
	ec, err := f.engine.engineConfig(hw)
	if err != nil {
		return virtual.Config{}, "", err
	}
	cfg := virtual.Config{Engine: ec, Cost: sim.NewCostModel(hw, sim.CostParams{}), Replicas: f.replicas, Router: router}
	var query []string
	if f.replicas > 1 {
		query = append(query, fmt.Sprintf("replicas=%d&router=%s", f.replicas, router))
	}
	if q := f.engine.query(); q != "" {
		query = append(query, q)
	}
	target := fmt.Sprintf("%s%s@%sx%d", metrics.VirtualTargetScheme, m.Name, g.Name, f.tp)
	if len(query) > 0 {
		target += "?" + strings.Join(query, "&")
	}
	return cfg, target, nil
}

// simulate runs the workload in virtual time, streaming records to
// DIR/records.jsonl, and says on stderr how much faster than real time it
// was. It returns the end line and the engines' state over the run.
func simulate(c *cobra.Command, cfg virtual.Config, in *workloadInput, target, dir string) (trace.RunEnd, []report.ServerSample, error) {
	wall := time.Now()
	end, server, err := simulateTo(c.Context(), cfg, in, target, dir, nil)
	if err != nil {
		return end, nil, err
	}
	el := time.Since(wall)
	simulated := time.Duration(end.DurationUS) * time.Microsecond
	if end.Interrupted {
		fmt.Fprint(c.ErrOrStderr(), "interrupted: ")
	}
	fmt.Fprintf(c.ErrOrStderr(), "simulated %v of %s in %v (%.0f× real time)\n",
		simulated.Round(time.Millisecond), target, el.Round(time.Millisecond), simulated.Seconds()/max(el.Seconds(), 1e-9))
	return end, server, nil
}

// simulateTo runs the workload in virtual time, streaming records to
// DIR/records.jsonl and to also, when set. It returns the engines' state
// sampled every second of virtual time.
func simulateTo(ctx context.Context, cfg virtual.Config, in *workloadInput, target, dir string, also driver.Sink) (trace.RunEnd, []report.ServerSample, error) {
	var server []report.ServerSample
	cfg.Observe = func(at time.Duration, st sim.Stats) {
		server = append(server, report.ServerSample{AtUS: at.Microseconds(), KVCacheUsage: st.KVUsage, Running: st.Running, Waiting: st.Waiting})
	}
	end, err := simulateRecords(ctx, cfg, in, target, dir, also)
	return end, server, err
}

// simulateRecords runs the workload in virtual time, streaming records to
// DIR/records.jsonl and to also, when set.
func simulateRecords(ctx context.Context, cfg virtual.Config, in *workloadInput, target, dir string, also driver.Sink) (trace.RunEnd, error) {
	file, err := os.Create(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		return trace.RunEnd{}, fmt.Errorf("creating records file: %w", err)
	}
	defer file.Close()
	cfg.Start = time.Now().Round(0)
	rw, err := trace.NewRecordWriter(file, trace.RunHeader{
		Tool: versionString(), WorkloadHash: in.hash, SpecHash: in.header.SpecHash,
		Seed: in.header.Seed, Tokenizer: in.header.Tokenizer, Target: target,
		Start: cfg.Start, WarmupUS: in.header.WarmupUS, SLO: in.header.SLO,
		ClosedLoop: closedLoop(in.header), PrefixReuse: impliedReuse(in),
		FaultWindows: bursts(in.header.FaultWindows), SLOConfidence: in.sloConfidence,
	})
	if err != nil {
		return trace.RunEnd{}, err
	}
	var sink driver.Sink = rw
	if also != nil {
		sink = tee{rw, also}
	}
	end, err := virtual.Run(ctx, cfg, in.header, in.sessions, sink)
	if err != nil {
		return end, fmt.Errorf("sim: %w", err)
	}
	if err := rw.Close(end); err != nil {
		return end, fmt.Errorf("writing records: %w", err)
	}
	return end, file.Close()
}

// faulted counts the requests of in that carry a fault.
func faulted(in *workloadInput) int {
	n := 0
	for _, s := range in.sessions {
		for i := range s.Turns {
			if s.Turns[i].Fault != nil {
				n++
			}
		}
	}
	return n
}

// bursts keeps the burst windows of ws: a simulation's arrivals carry a
// burst, but no storm strikes it.
func bursts(ws []trace.FaultWindow) []trace.FaultWindow {
	var out []trace.FaultWindow
	for _, w := range ws {
		if w.Kind == trace.FaultBurst {
			out = append(out, w)
		}
	}
	return out
}
