package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"surge/driver"
	"surge/harness"
	"surge/spec"
	"surge/sweep"
	"surge/trace"
)

// pointRunner runs the points of one sweep, each in DIR/NAME: live
// against --target or the built-in engines it starts on first use, or
// simulated in virtual time.
type pointRunner struct {
	c    *cobra.Command
	path string
	spec *spec.Spec
	dir  string
	f    sweepFlags

	target  string           // what the points ran against, for the result
	servers *harness.Servers // the live points' servers, once connected
}

// close stops the engines and the client the runner started.
func (p *pointRunner) close() {
	if p.servers != nil {
		p.servers.Close()
	}
}

// prepare compiles the spec of plan and names its run directory.
func (p *pointRunner) prepare(ctx context.Context, plan sweep.Plan) (*harness.Workload, string, error) {
	s, err := pointSpec(p.spec, plan, probeRequests(p.spec, plan), p.f.minReqs)
	if err != nil {
		return nil, "", fmt.Errorf("spec %s: %w", p.path, err)
	}
	in, err := compile(ctx, p.path, s)
	if err != nil {
		return nil, "", err
	}
	in.sloConfidence = p.f.confidence
	return in.workload(), filepath.Join(p.dir, plan.Name), nil
}

// live runs plan in real time against the target, with a fresh salt so
// that no point finds the prefix cache warmed by the one before.
func (p *pointRunner) live(ctx context.Context, plan sweep.Plan) (*trace.Records, error) {
	w, dir, err := p.prepare(ctx, plan)
	if err != nil {
		return nil, err
	}
	key, err := apiKey(p.f.run.apiKeyEnv)
	if err != nil {
		return nil, err
	}
	cfg := p.f.run.config(p.c, w, key)
	if p.servers == nil {
		cc := cfg
		cc.Client.MaxConns = max(w.MaxConns(cfg.MaxConcurrency), p.f.probe+256)
		if p.servers, err = harness.Connect(cc, w); err != nil {
			return nil, cliError(err)
		}
		p.target = p.servers.Target()
	}
	cfg.Servers, cfg.Dir, cfg.Bare, cfg.Watch = p.servers, dir, true, watchOf(plan)
	if _, err := harness.Run(ctx, cfg); err != nil {
		return nil, cliError(err)
	}
	return readRecordFiles(p.c.ErrOrStderr(), []string{dir})
}

// simulated runs plan through the built-in engine in virtual time.
func (p *pointRunner) simulated(ctx context.Context, plan sweep.Plan) (*trace.Records, error) {
	w, dir, err := p.prepare(ctx, plan)
	if err != nil {
		return nil, err
	}
	m, err := harness.EngineModel(p.f.run.engineModel, first(w.Models(p.f.run.model)))
	if err != nil {
		return nil, usageError{fmt.Errorf("--engine-model: %w", err)}
	}
	sf := simFlags{model: m.Name, gpu: p.f.run.gpu, tp: p.f.run.tp, replicas: 1, router: "round-robin", engine: p.f.run.engine}
	vc, target, err := sf.config()
	if err != nil {
		return nil, usageError{err}
	}
	p.target = target
	_, err = harness.Run(ctx, harness.Config{
		Workload: w, Virtual: &harness.Virtual{Config: vc, Target: target},
		Dir: dir, Bare: true, Watch: watchOf(plan), Log: p.c.ErrOrStderr(), Tool: versionString(),
	})
	if err != nil {
		return nil, cliError(err)
	}
	return readRecordFiles(p.c.ErrOrStderr(), []string{dir})
}

// watchOf is the sink of plan's watch, or nil when it has none.
func watchOf(plan sweep.Plan) driver.Sink {
	if plan.Watch == nil {
		return nil
	}
	return plan.Watch
}

// first returns the first of names, or "".
func first(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return names[0]
}
