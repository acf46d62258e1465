package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"surge/client"
	"surge/driver"
	"surge/report"
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

	target string // what the points ran against, for the result
	engine string // the built-in engines' names, for the records header
	client *client.Router
	stop   func()
}

// close stops the engines and the client the runner started.
func (p *pointRunner) close() {
	if p.client != nil {
		p.client.Close()
	}
	if p.stop != nil {
		p.stop()
	}
}

// prepare compiles the spec of plan and makes its run directory.
func (p *pointRunner) prepare(ctx context.Context, plan sweep.Plan) (*workloadInput, string, error) {
	s, err := pointSpec(p.spec, plan, probeRequests(p.spec, plan), p.f.minReqs)
	if err != nil {
		return nil, "", fmt.Errorf("spec %s: %w", p.path, err)
	}
	in, err := compile(ctx, p.path, s)
	if err != nil {
		return nil, "", err
	}
	in.sloConfidence = p.f.confidence
	dir := filepath.Join(p.dir, plan.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, "", fmt.Errorf("creating run directory: %w", err)
	}
	return in, dir, nil
}

// live runs plan in real time against the target, with a fresh salt so
// that no point finds the prefix cache warmed by the one before.
func (p *pointRunner) live(ctx context.Context, plan sweep.Plan) (*trace.Records, error) {
	in, dir, err := p.prepare(ctx, plan)
	if err != nil {
		return nil, err
	}
	f := p.f.run
	if err := p.connect(in, &f); err != nil {
		return nil, err
	}
	f.shown, f.builtin, f.engineShown = p.target, f.target == "", p.engine
	salt, saltTokens := runSalt(f.salt, in.header)
	f.salt = salt
	expand, err := expander(p.c.ErrOrStderr(), in.header)
	if err != nil {
		return nil, err
	}
	d, err := driver.New(driver.Config{
		Client: p.client, Stream: !f.noStream, API: f.api, Model: f.model,
		MaxConcurrency: f.maxConc, Drop: f.drop, Drain: f.drain, Retry: f.robust.retry(in.header.Seed),
		Warmup: time.Duration(in.header.WarmupUS) * time.Microsecond,
		Salt:   salt, SaltTokens: saltTokens, ReasoningHint: f.builtin, Expand: expand,
	}, in.header, in.sessions)
	if err != nil {
		return nil, err
	}
	var watch driver.Sink
	if plan.Watch != nil {
		watch = plan.Watch
	}
	if _, err := execute(ctx, p.c.ErrOrStderr(), d, runHeader(in, f, time.Now()), dir, watch); err != nil {
		return nil, err
	}
	return p.finish(dir, report.HTMLInput{Prompt: promptsOf(in.sessions)})
}

// connect starts the built-in engines or resolves --target on the first
// point, and opens the client all points share.
func (p *pointRunner) connect(in *workloadInput, f *runFlags) error {
	if p.client != nil {
		return nil
	}
	base, routes, stop, err := servers(p.c.ErrOrStderr(), f, in)
	if err != nil {
		return err
	}
	p.stop, p.target, p.engine = stop, f.shown, f.engineShown
	key, err := apiKey(f.apiKeyEnv)
	if err != nil {
		return err
	}
	conns := max(maxConns(in, f.maxConc), p.f.probe+256)
	p.client, err = client.NewRouter(client.RouterConfig{
		Config: f.robust.client(client.Config{BaseURL: base, APIKey: key, MaxConns: conns, HTTP2: f.http2, Timeout: f.timeout}),
		Routes: routes,
	})
	if err != nil {
		return usageError{fmt.Errorf("--target: %w", err)}
	}
	return nil
}

// simulated runs plan through the built-in engine in virtual time.
func (p *pointRunner) simulated(ctx context.Context, plan sweep.Plan) (*trace.Records, error) {
	in, dir, err := p.prepare(ctx, plan)
	if err != nil {
		return nil, err
	}
	m, err := engineModel(p.f.run.engineModel, first(modelsOf(in, p.f.run.model).sent))
	if err != nil {
		return nil, usageError{fmt.Errorf("--engine-model: %w", err)}
	}
	sf := simFlags{model: m.Name, gpu: p.f.run.gpu, tp: p.f.run.tp, replicas: 1, router: "round-robin", engine: p.f.run.engine}
	cfg, target, err := sf.config()
	if err != nil {
		return nil, usageError{err}
	}
	p.target = target
	var watch driver.Sink
	if plan.Watch != nil {
		watch = plan.Watch
	}
	_, server, err := simulateTo(ctx, cfg, in, target, dir, watch)
	if err != nil {
		return nil, err
	}
	return p.finish(dir, report.HTMLInput{Prompt: promptsOf(in.sessions), Server: server})
}

// finish writes the point's reports and returns its records as read
// back from its file.
func (p *pointRunner) finish(dir string, html report.HTMLInput) (*trace.Records, error) {
	if _, _, err := writeReportFiles(p.c.ErrOrStderr(), dir, html); err != nil {
		return nil, err
	}
	return readRecordFiles(p.c.ErrOrStderr(), []string{dir})
}

// first returns the first of names, or "".
func first(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return names[0]
}
