package harness

import (
	"context"
	"errors"
	"fmt"
	"time"

	"surge/bundle"
	"surge/report"
	"surge/sim"
	"surge/sim/virtual"
	"surge/trace"
)

// Virtual runs a workload through the built-in engine in virtual time
// instead of sending it: requests are measured as a streaming client
// next to the server would see them.
type Virtual struct {
	Config virtual.Config
	// Target names the simulated servers in the records, e.g.
	// sim://Llama-3.1-8B@H100-SXMx1.
	Target string
}

// runVirtual is Run in virtual time.
func runVirtual(ctx context.Context, cfg Config) (*Result, error) {
	if streamable(&cfg) {
		return runStreamed(ctx, cfg)
	}
	if err := cfg.Workload.materialize(ctx); err != nil {
		return nil, err
	}
	in := cfg.Workload
	if n, w := faulted(in), len(in.Header.FaultWindows); n+w > 0 && !cfg.bare() {
		fmt.Fprintf(cfg.Log, "surge: sim does not inject faults: %d requests that carry one and %d storm or burst windows run as healthy (a burst's arrivals are in the trace already); surge run injects them\n", n, w)
	}
	if err := makeDir(&cfg); err != nil {
		return nil, err
	}
	// The bundle's trace is written while the simulation runs: both only
	// read the sessions.
	traced := make(chan error, 1)
	if cfg.bare() || cfg.NoTrace {
		traced <- nil
	} else {
		go func() { traced <- writeTrace(cfg.Dir, in) }()
	}
	wall := time.Now()
	end, server, final, rs, err := simulate(ctx, &cfg)
	if terr := <-traced; terr != nil {
		return nil, errors.Join(err, fmt.Errorf("writing the bundle's trace: %w", terr))
	}
	if err != nil {
		return nil, err
	}
	if !cfg.bare() {
		speedNote(&cfg, end, wall)
	}
	res, err := finish(&cfg, rs, report.HTMLInput{Prompt: Prompts(in.Sessions), Server: server}, &final)
	if res == nil {
		return nil, err
	}
	res.End, res.Target = end, cfg.Virtual.Target
	if !cfg.bare() {
		m := manifest(&cfg, in, cfg.Virtual.Target, "", res.Summary.Header.Start, end)
		if merr := bundle.WriteManifest(cfg.Dir, m); merr != nil {
			err = errors.Join(err, fmt.Errorf("writing the bundle's manifest: %w", merr))
		}
	}
	res.Verdict = verdict(&cfg, res.Summary, res.Summary.Interrupted)
	return res, err
}

// simulate runs the workload in virtual time, streaming records to
// DIR/records.jsonl and to cfg.Watch, when set. It returns the engines'
// state sampled every second of virtual time, its counters at the end,
// and the records as they were written (kept, the report's to read
// rather than the file: the same records, without decoding them again).
func simulate(ctx context.Context, cfg *Config) (trace.RunEnd, []report.ServerSample, sim.Stats, *trace.Records, error) {
	var watch engineWatch
	vc := watch.attach(cfg.Virtual.Config)
	final := &watch.final
	in := cfg.Workload
	file, err := createRecords(cfg)
	if err != nil {
		return trace.RunEnd{}, nil, *final, nil, err
	}
	defer file.Close()
	vc.Start = time.Now().Round(0)
	h := simHeader(cfg, vc.Start)
	h.PrefixReuse = in.impliedReuse()
	rw, err := trace.NewRecordWriter(file, h)
	if err != nil {
		return trace.RunEnd{}, nil, *final, nil, err
	}
	kept := &keep{}
	end, err := virtual.Run(ctx, vc, in.Header, in.Sessions, sinkOf(tee{rw, kept}, cfg.Watch))
	if err != nil {
		return end, nil, *final, nil, fmt.Errorf("sim: %w", err)
	}
	if err := rw.Close(end); err != nil {
		return end, nil, *final, nil, fmt.Errorf("writing records: %w", err)
	}
	rs, err := kept.records(h, end)
	if err != nil {
		return end, nil, *final, nil, err
	}
	return end, watch.server, *final, rs, file.Close()
}

// engineWatch collects what a simulation's engines say: their state
// every second of virtual time and their counters at the end.
type engineWatch struct {
	server []report.ServerSample
	final  sim.Stats
}

// attach returns vc reporting to w.
func (w *engineWatch) attach(vc virtual.Config) virtual.Config {
	vc.Observe = func(at time.Duration, st sim.Stats) {
		w.server = append(w.server, report.ServerSample{AtUS: at.Microseconds(), KVCacheUsage: st.KVUsage, Running: st.Running, Waiting: st.Waiting})
	}
	vc.Final = func(st sim.Stats) { w.final = st }
	return vc
}

// simHeader is the records header of cfg's simulation started at start,
// but for the implied reuse, which the caller knows or learns.
func simHeader(cfg *Config, start time.Time) trace.RunHeader {
	in := cfg.Workload
	return trace.RunHeader{
		Tool: tool(cfg), WorkloadHash: in.Hash, SpecHash: in.Header.SpecHash,
		Seed: in.Header.Seed, Tokenizer: in.Header.Tokenizer, Target: cfg.Virtual.Target,
		Start: start, WarmupUS: in.Header.WarmupUS, SLO: in.Header.SLO,
		ClosedLoop: in.closedLoop(), FaultWindows: bursts(in.Header.FaultWindows), SLOConfidence: in.SLOConfidence,
	}
}

// speedNote prints how much virtual time the simulation covered and how
// fast, since wall.
func speedNote(cfg *Config, end trace.RunEnd, wall time.Time) {
	simulated := time.Duration(end.DurationUS) * time.Microsecond
	el := time.Since(wall)
	if end.Interrupted {
		fmt.Fprint(cfg.Log, "interrupted: ")
	}
	fmt.Fprintf(cfg.Log, "simulated %v of %s in %v (%.0f× real time)\n",
		simulated.Round(time.Millisecond), cfg.Virtual.Target, el.Round(time.Millisecond), simulated.Seconds()/max(el.Seconds(), 1e-9))
}

// faulted counts the requests of in that carry a fault.
func faulted(in *Workload) int {
	n := 0
	for _, s := range in.Sessions {
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
