package k8s

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"

	"surge/spec"
	"surge/trace"
)

// Options say what Prepare plans: the workload the shards run, the
// manifests' settings, and how to size each pod.
type Options struct {
	// FS holds the workload file Name, a spec or a surge trace, which the
	// ConfigMap carries as it is, and the files its spec names, by paths
	// relative to Name's directory.
	FS   fs.FS
	Name string
	// Spec is the spec parsed from Name, nil for a trace; Header and
	// Sessions are its workload, whose times and lengths size the pods
	// (no prompt text is needed: see Compile).
	Spec     *spec.Spec
	Header   trace.Header
	Sessions []*trace.Session

	// Config holds the manifests' settings. Prepare fills in Spec and
	// Files from FS, Name (when empty) from the spec's name, StartAt (when
	// zero) as StartDelay after Now, Resources from the sizing, and Salt:
	// when empty, a new nonce shared by every shard (SharedSalt).
	Config Config
	// Now and StartDelay set the start instant when Config.StartAt is
	// zero: StartDelay after Now, on a whole second (StartAt).
	Now        time.Time
	StartDelay time.Duration

	// RPSPerCore is the streamed requests per second one core of surge
	// sustains, and E2E the time each request is assumed to take: with the
	// busiest shard's load they size each pod (Size).
	RPSPerCore float64
	E2E        time.Duration
	// CPU and Memory, when set, override the sizing (4, 500m, 2Gi).
	CPU, Memory string
}

// OptionError is an option of Prepare out of range, or manifests that
// Config.Validate refuses: a mistake in what was asked rather than a
// failure to read. Its message names options as surge k8s's flags do
// (--shards, --cpu).
type OptionError struct {
	// Option is the option at fault as surge k8s's flag names it without
	// its dashes (shards, start-delay, cpu), or "" for the settings of
	// Config that Validate refuses.
	Option string
	Err    error
}

// Error returns the message.
func (e *OptionError) Error() string { return e.Err.Error() }

// Unwrap returns the message's error.
func (e *OptionError) Unwrap() error { return e.Err }

// optionError returns an *OptionError for option, its message formatted.
func optionError(option, format string, args ...any) *OptionError {
	return &OptionError{Option: option, Err: fmt.Errorf(format, args...)}
}

// Plan is the manifests of a sharded run and what they were sized for.
type Plan struct {
	Config   Config
	Manifest Manifest
	Load     Load // the busiest shard's, if each request takes E2E
	// Header is the comment heading the manifests.
	Header string
}

// Prepare checks o, sizes the busiest shard of o's workload, assembles the
// Config and builds the manifests. Mistakes in o are *OptionError.
func Prepare(o Options) (*Plan, error) {
	cfg := o.Config
	if cfg.Shards < 1 {
		return nil, optionError("shards", "--shards %d: want at least 1 (the number of pods)", cfg.Shards)
	}
	if err := CheckShards(o.Header.Clients, cfg.Shards); err != nil {
		return nil, optionError("shards", "--shards %d: %w", cfg.Shards, err)
	}
	if err := o.assemble(&cfg); err != nil {
		return nil, err
	}
	load := PlanLoad(o.Header.Clients, o.Sessions, cfg.Shards, o.E2E)
	var err error
	if cfg.Resources, err = o.resources(load); err != nil {
		return nil, err
	}
	m, err := Manifests(cfg)
	if err != nil {
		return nil, &OptionError{Err: err}
	}
	return &Plan{Config: cfg, Manifest: m, Load: load, Header: Header(o.Name, cfg, load, o.E2E)}, nil
}

// assemble fills in what cfg leaves to Prepare: the start instant, the
// salt, the Job's name, and the files the ConfigMap carries.
func (o Options) assemble(cfg *Config) error {
	if cfg.StartAt.IsZero() {
		if o.StartDelay <= 0 {
			return optionError("start-delay", "--start-delay %v: want a positive delay, long enough to pull the image and start every pod", o.StartDelay)
		}
		cfg.StartAt = StartAt(o.Now, o.StartDelay)
	}
	cfg.Salt = SharedSalt(cfg.Salt, o.Header)
	if cfg.Name == "" {
		cfg.Name = "surge"
		if o.Spec != nil {
			cfg.Name = DefaultName(o.Spec.Name)
		}
	}
	var err error
	if cfg.Spec, err = fs.ReadFile(o.FS, o.Name); err != nil {
		return fmt.Errorf("reading spec: %w", err)
	}
	if o.Spec != nil {
		cfg.Files, err = SpecFiles(o.Spec, func(p string) ([]byte, error) { return fs.ReadFile(o.FS, specRelative(o.Name, p)) })
	}
	if err != nil {
		return fmt.Errorf("spec %s: %w", o.Name, err)
	}
	return nil
}

// specRelative resolves p, a path the spec at name writes, relative to the
// spec's directory; an absolute p stays as it is.
func specRelative(name, p string) string {
	if path.IsAbs(p) || filepath.IsAbs(filepath.FromSlash(p)) {
		return p
	}
	return path.Join(path.Dir(name), p)
}

// resources sizes each pod for load, overridden by o.CPU and o.Memory.
func (o Options) resources(load Load) (corev1.ResourceRequirements, error) {
	if !(o.RPSPerCore > 0) {
		return corev1.ResourceRequirements{}, optionError("client-rps-per-core", "--client-rps-per-core %g: want a positive rate", o.RPSPerCore)
	}
	r := Size(load, o.RPSPerCore)
	for _, ov := range []struct {
		option, value string
		name          corev1.ResourceName
	}{{"cpu", o.CPU, corev1.ResourceCPU}, {"memory", o.Memory, corev1.ResourceMemory}} {
		if ov.value == "" {
			continue
		}
		if err := Override(r, ov.name, ov.value); err != nil {
			return r, optionError(ov.option, "--%s %w", ov.option, err)
		}
	}
	return r, nil
}

// WriteTo writes the manifests to w as one YAML stream headed by
// p.Header, for kubectl apply -f -.
func (p *Plan) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	if _, err := io.WriteString(cw, p.Header); err != nil {
		return cw.n, err
	}
	err := Write(cw, p.Manifest.Objects())
	return cw.n, err
}

// WriteDir writes the manifests into dir, creating it, one file per
// object as Manifest.Files names them.
func (p *Plan) WriteDir(dir string) error {
	files, err := p.Manifest.Files(p.Header)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Path), f.Data, 0o644); err != nil {
			return fmt.Errorf("writing manifests: %w", err)
		}
	}
	return nil
}

// Summary says what the manifests hold and when their shards start, as
// surge k8s prints it (see Summary).
func (p *Plan) Summary() string { return Summary(p.Config, p.Load) }

// countWriter counts the bytes written to w.
type countWriter struct {
	w io.Writer
	n int64
}

// Write writes b to the underlying writer, counting what it took.
func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}
