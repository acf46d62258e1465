package harness

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"surge/driver"
	"surge/report"
	"surge/spec"
	"surge/sweep"
	"surge/trace"
)

// SweepConfig is a sweep of a spec's load: the loads and the SLO search,
// the spec, and how each point runs.
type SweepConfig struct {
	// Search is the loads to run and the SLO search (sweep.Run).
	Search sweep.Config
	// Spec is the spec whose load the points scale, read from SpecPath in
	// Files, where the tokenizer and corpus it names are read too.
	Spec     *spec.Spec
	SpecPath string
	Files    fs.FS
	// MinRequests is how many measured requests each point runs at least,
	// lengthening the spec at low loads; 0 runs the spec as written.
	MinRequests int
	// Run is every point's run: its target (Target, or the built-in
	// Engine), client and log; with Simulate, Run.Engine is what runs in
	// virtual time. Workload, Dir, Servers, Bare and Watch are set per
	// point.
	Run      Config
	Simulate bool
	// Dir is the sweep's directory, created if need be: sweep.json,
	// report.txt, report.html and a directory per point, named after it.
	Dir string
}

// Sweep runs cfg's points, each a fresh run (and salt) in its own
// directory, then writes the sweep's files and returns its result. A
// sweep cut short (ctx cancelled, a point failed) returns the points so
// far, written too, with the error.
func Sweep(ctx context.Context, cfg SweepConfig) (*sweep.Result, error) {
	cfg.Run.Log = cmp.Or[io.Writer](cfg.Run.Log, io.Discard)
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating the sweep's directory: %w", err)
	}
	p := &points{cfg: &cfg}
	defer p.close()
	run := p.live
	if cfg.Simulate {
		run = p.simulated
	}
	res, err := sweep.Run(ctx, cfg.Search, run)
	if res == nil {
		return nil, err
	}
	sum := sha256.Sum256(cfg.Spec.Canonical())
	res.Spec, res.Target, res.SpecHash = cfg.SpecPath, p.target, "sha256:"+hex.EncodeToString(sum[:])
	pointMeasurements(cfg.Run.Log, cfg.Dir, res)
	if werr := WriteSweep(cfg.Dir, res); werr != nil && err == nil {
		err = werr
	}
	return res, err
}

// points runs the points of one sweep.
type points struct {
	cfg     *SweepConfig
	target  string   // what the points ran against, for the result
	servers *Servers // the live points' servers, once connected
}

// close stops the engines and the client the points started.
func (p *points) close() {
	if p.servers != nil {
		p.servers.Close()
	}
}

// prepare compiles the workload of plan and names its directory.
func (p *points) prepare(ctx context.Context, plan sweep.Plan) (*Workload, string, error) {
	s, err := sweep.PointSpec(p.cfg.Spec, plan, p.cfg.MinRequests)
	if err != nil {
		return nil, "", fmt.Errorf("spec %s: %w", p.cfg.SpecPath, err)
	}
	w, err := CompileSpec(ctx, p.cfg.Files, p.cfg.SpecPath, s)
	if err != nil {
		return nil, "", err
	}
	w.SLOConfidence = p.cfg.Search.Confidence
	return w, filepath.Join(p.cfg.Dir, plan.Name), nil
}

// live runs plan in real time against the sweep's servers, connected at
// the first point.
func (p *points) live(ctx context.Context, plan sweep.Plan) (*trace.Records, error) {
	w, dir, err := p.prepare(ctx, plan)
	if err != nil {
		return nil, err
	}
	cfg := p.cfg.Run
	if p.servers == nil {
		cc := cfg
		cc.Client.MaxConns = max(w.MaxConns(cfg.MaxConcurrency), p.cfg.Search.ProbeConcurrency+256)
		if p.servers, err = Connect(cc, w); err != nil {
			return nil, err
		}
		if err := preflight(ctx, &cc, w, p.servers); err != nil {
			return nil, err
		}
		p.target = p.servers.Target()
	}
	cfg.Workload, cfg.Servers, cfg.Dir, cfg.Bare, cfg.Watch = w, p.servers, dir, true, watchOf(plan)
	res, err := Run(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if res.Scrapes.NoEndpoint { // said once, at the first point
		p.cfg.Run.Scrape.Off = true
	}
	return readRecords(cfg.Log, dir)
}

// simulated runs plan through the built-in engine in virtual time.
func (p *points) simulated(ctx context.Context, plan sweep.Plan) (*trace.Records, error) {
	w, dir, err := p.prepare(ctx, plan)
	if err != nil {
		return nil, err
	}
	eng := p.cfg.Run.Engine
	m, err := EngineModel(eng.Model, first(w.Models(p.cfg.Run.Model)))
	if err != nil {
		return nil, ConfigError{err}
	}
	eng.Model, eng.GPU, eng.TP = m.Name, pick(eng.GPU, DefaultEngineGPU), max(eng.TP, 1)
	v, err := NewVirtual(eng, 1, "round-robin")
	if err != nil {
		return nil, ConfigError{err}
	}
	p.target = v.Target
	_, err = Run(ctx, Config{
		Workload: w, Virtual: v, Dir: dir, Bare: true, Watch: watchOf(plan),
		Log: p.cfg.Run.Log, Tool: p.cfg.Run.Tool,
	})
	if err != nil {
		return nil, err
	}
	return readRecords(p.cfg.Run.Log, dir)
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

// WriteSweep writes DIR/sweep.json, DIR/report.txt and DIR/report.html.
func WriteSweep(dir string, res *sweep.Result) error {
	if err := writeFile(filepath.Join(dir, "sweep.json"), func(w io.Writer) error { return report.SweepJSON(w, res) }); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, "report.txt"), func(w io.Writer) error { return report.SweepText(w, res) }); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, "report.html"), func(w io.Writer) error {
		return report.HTML(w, report.HTMLInput{Sweep: res, Title: "surge sweep " + filepath.Base(res.Spec)})
	})
}

// ReadSweep reads back the sweep in dir: DIR/sweep.json, with each
// point's summary and measurement verdict from its records and scraped
// metrics. Warnings (a truncated records file, unreadable metrics) go to
// log.
func ReadSweep(log io.Writer, dir string) (*sweep.Result, error) {
	name := filepath.Join(dir, "sweep.json")
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	res, err := sweep.Read(name, data, func(p string) (*trace.Records, error) {
		return readRecords(log, filepath.Join(dir, p))
	})
	if err != nil {
		return nil, err
	}
	pointMeasurements(log, dir, res)
	return res, nil
}

// pointMeasurements gives each point of res, a sweep written to dir, the
// measurement verdict its own report has: its summary's, with the engine
// check of the server's metrics scraped during the point; and the
// server's speculative decoding then, when it reported any.
func pointMeasurements(log io.Writer, dir string, res *sweep.Result) {
	for i := range res.Points {
		p := &res.Points[i]
		if p.Summary == nil {
			continue
		}
		if _, _, err := serverView(filepath.Join(dir, p.Dir), p.Summary); err != nil {
			fmt.Fprintf(log, "surge: sweep point %s: %v (its measurement verdict leaves the server's metrics out)\n", p.Dir, err)
		}
		p.Measurement, p.SpecDecode = p.Summary.Measurement, p.Summary.SpecDecode
	}
}

// QuestionablePoints is a QuestionableError naming the points of res
// whose measurement is questionable, nil when there are none.
func QuestionablePoints(res *sweep.Result) error {
	var bad []string
	for _, p := range res.Points {
		if p.Measurement != nil && !p.Measurement.Valid() {
			bad = append(bad, fmt.Sprintf("%s: %s", p.Dir, strings.Join(p.Measurement.Reasons, "; ")))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return QuestionableError{fmt.Sprintf("measurement questionable at %d of %d points: %s", len(bad), len(res.Points), strings.Join(bad, " | "))}
}
