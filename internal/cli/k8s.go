package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"

	"surge/internal/k8s"
)

type k8sFlags struct {
	gen         genFlags
	shards      int
	target      string
	image       string
	name        string
	namespace   string
	startDelay  time.Duration
	startAt     string
	output      string
	rpsPerCore  float64
	e2e         time.Duration
	cpu, memory string
	apiKey      string
	salt        string
	out         string
}

func newK8s() *cobra.Command {
	var f k8sFlags
	c := &cobra.Command{
		Use:   "k8s SPEC --shards N --target URL [flags] [-- RUN-FLAGS...]",
		Short: "Write Kubernetes manifests that run a workload as N shards",
		Long: `k8s writes the manifests of an Indexed Job that runs SPEC as N shards, pod i
running 'surge run --shard i/N' against --target, every pod starting its
schedule at one instant (--start-at, default now + --start-delay) and writing
its bundle to /out/shard-i; a ConfigMap carries the spec. Apply the Job
before the start instant, then merge the bundles with 'surge report
shard-*/'. Flags after -- are passed to every 'surge run'. See
docs/scale-out.md.

  surge k8s spec.yaml --shards 16 --target http://vllm:8000 \
      --image ghcr.io/acme/surge:v0.3.0 --output-volume pvc:surge-out | kubectl apply -f -`,
		Args: func(c *cobra.Command, args []string) error {
			if n := c.ArgsLenAtDash(); n >= 0 {
				args = args[:n]
			}
			return exactArgs(1)(c, args)
		},
		RunE: func(c *cobra.Command, args []string) error {
			var extra []string
			if n := c.ArgsLenAtDash(); n >= 0 {
				extra = args[n:]
			}
			return runK8s(c, args[0], extra, f)
		},
	}
	fs := c.Flags()
	f.gen.register(fs)
	fs.IntVar(&f.shards, "shards", 0, "number of shards N, one pod each (required)")
	fs.StringVar(&f.target, "target", "", "the server's URL as the pods reach it, or MODEL=URL,... (required)")
	fs.StringVar(&f.image, "image", "surge:latest", "container image with surge as its entrypoint")
	fs.StringVar(&f.name, "name", "", "name of the Job (default surge-SPECNAME)")
	fs.StringVar(&f.namespace, "namespace", "", "namespace of the objects (default: kubectl's)")
	fs.DurationVar(&f.startDelay, "start-delay", 2*time.Minute, "start the shards this long after the manifests are written")
	fs.StringVar(&f.startAt, "start-at", "", "start the shards at this instant instead (RFC 3339)")
	fs.StringVar(&f.output, "output-volume", "emptydir", "where pods write their bundles: pvc:NAME, pvc:NAME:SIZE (create it, ReadWriteMany), hostpath:/DIR or emptydir")
	fs.Float64Var(&f.rpsPerCore, "client-rps-per-core", k8s.DefaultRPSPerCore, "streamed requests per second one core of surge sustains (surge selftest), for sizing CPU")
	fs.DurationVar(&f.e2e, "e2e", time.Minute, "time one request is assumed to take, for sizing memory (requests in flight)")
	fs.StringVar(&f.cpu, "cpu", "", "CPU of each pod, overriding the sizing (e.g. 4)")
	fs.StringVar(&f.memory, "memory", "", "memory of each pod, overriding the sizing (e.g. 2Gi)")
	fs.StringVar(&f.apiKey, "api-key-secret", "", "SECRET:KEY holding the API key, sent as a bearer token")
	fs.StringVar(&f.salt, "salt", "", "nonce every shard puts before each conversation, or none (default: a new one, shared by all shards, unless the spec says salt: none)")
	fs.StringVarP(&f.out, "output", "o", "-", "directory to write one file per object into (- for stdout)")
	return c
}

func runK8s(c *cobra.Command, path string, extra []string, f k8sFlags) error {
	if f.shards < 1 {
		return usageError{fmt.Errorf("--shards %d: want at least 1 (the number of pods)", f.shards)}
	}
	if path == "-" {
		return usageError{fmt.Errorf("k8s: the spec must be a file, to be shipped in a ConfigMap")}
	}
	// Check the flags passed on to surge run now, not in 16 failed pods.
	if err := newRun().ParseFlags(extra); err != nil {
		return usageError{fmt.Errorf("flags after --, for surge run: %w", err)}
	}
	in, err := k8sWorkload(c, path, f.gen)
	if err != nil {
		return specFailure(c, path, err)
	}
	if err := k8s.CheckShards(in.header.Clients, f.shards); err != nil {
		return usageError{fmt.Errorf("--shards %d: %w", f.shards, err)}
	}
	cfg, err := k8sConfig(c, path, in, extra, f)
	if err != nil {
		return err
	}
	load := k8s.PlanLoad(in.header.Clients, in.sessions, f.shards, f.e2e)
	if cfg.Resources, err = k8sResources(load, f); err != nil {
		return err
	}
	m, err := k8s.Manifests(cfg)
	if err != nil {
		return usageError{err}
	}
	if err := writeK8s(c, m, k8s.Header(path, cfg, load, f.e2e), f.out); err != nil {
		return err
	}
	io.WriteString(c.ErrOrStderr(), k8s.Summary(cfg, load))
	return nil
}

// k8sWorkload reads a trace, or compiles a spec without prompt text: the
// sessions' times and lengths are all the sizing needs.
func k8sWorkload(c *cobra.Command, path string, f genFlags) (*workloadInput, error) {
	traceFile, err := isTrace(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if traceFile {
		return readTraceFile(path)
	}
	s, err := loadSpec(path, c.InOrStdin())
	if err != nil {
		return nil, err
	}
	if err := f.applyTo(c.Flags(), s); err != nil {
		return nil, err
	}
	tok, synth, err := openContent(path, s)
	if err != nil {
		return nil, err
	}
	in := &workloadInput{path: path, spec: s}
	in.header, in.sessions, err = k8s.Compile(c.Context(), s, tok, synth)
	if errors.Is(err, context.Canceled) {
		return nil, errInterrupted
	}
	if err != nil {
		return nil, fmt.Errorf("spec %s: %w", path, err)
	}
	return in, nil
}

// k8sConfig gathers the manifests' configuration from the flags and files.
func k8sConfig(c *cobra.Command, path string, in *workloadInput, extra []string, f k8sFlags) (k8s.Config, error) {
	output, err := k8s.ParseOutput(f.output)
	if err != nil {
		return k8s.Config{}, usageError{fmt.Errorf("--output-volume: %w", err)}
	}
	start, err := k8sStart(f)
	if err != nil {
		return k8s.Config{}, err
	}
	cfg := k8s.Config{
		Name: f.name, Namespace: f.namespace, Image: f.image, Shards: f.shards,
		Target: f.target, StartAt: start, Output: output, APIKeySecret: f.apiKey,
		Salt: k8s.SharedSalt(f.salt, in.header), Args: append(genArgs(c), extra...),
	}
	if cfg.Name == "" {
		cfg.Name = "surge"
		if in.spec != nil {
			cfg.Name = k8s.DefaultName(in.spec.Name)
		}
	}
	if cfg.Spec, err = os.ReadFile(path); err != nil {
		return k8s.Config{}, fmt.Errorf("reading spec: %w", err)
	}
	if in.spec != nil {
		cfg.Files, err = k8s.SpecFiles(in.spec, func(p string) ([]byte, error) { return os.ReadFile(relTo(path, p)) })
	}
	if err != nil {
		return k8s.Config{}, fmt.Errorf("spec %s: %w", path, err)
	}
	return cfg, nil
}

// k8sStart is the instant every shard starts: --start-at, or now plus
// --start-delay rounded up to a whole second.
func k8sStart(f k8sFlags) (time.Time, error) {
	if f.startAt != "" {
		at, err := k8s.ParseStart(f.startAt)
		if err != nil {
			return time.Time{}, usageError{fmt.Errorf("--start-at %w", err)}
		}
		return at, nil
	}
	if f.startDelay <= 0 {
		return time.Time{}, usageError{fmt.Errorf("--start-delay %v: want a positive delay, long enough to pull the image and start every pod", f.startDelay)}
	}
	return k8s.StartAt(time.Now(), f.startDelay), nil
}

// genArgs passes the workload overrides given to k8s on to every shard.
func genArgs(c *cobra.Command) []string {
	var a []string
	for _, name := range []string{"seed", "requests", "duration"} {
		if fl := c.Flags().Lookup(name); fl.Changed {
			a = append(a, "--"+name, fl.Value.String())
		}
	}
	return a
}

// k8sResources sizes each pod for load, or takes --cpu and --memory.
func k8sResources(load k8s.Load, f k8sFlags) (corev1.ResourceRequirements, error) {
	if f.rpsPerCore <= 0 {
		return corev1.ResourceRequirements{}, usageError{fmt.Errorf("--client-rps-per-core %g: want a positive rate", f.rpsPerCore)}
	}
	r := k8s.Size(load, f.rpsPerCore)
	for _, o := range []struct {
		flag, value string
		name        corev1.ResourceName
	}{{"--cpu", f.cpu, corev1.ResourceCPU}, {"--memory", f.memory, corev1.ResourceMemory}} {
		if o.value == "" {
			continue
		}
		if err := k8s.Override(r, o.name, o.value); err != nil {
			return r, usageError{fmt.Errorf("%s %w", o.flag, err)}
		}
	}
	return r, nil
}

// writeK8s writes the manifests to stdout, or one file per object into dir.
func writeK8s(c *cobra.Command, m k8s.Manifest, header, dir string) error {
	if dir == "-" {
		out := c.OutOrStdout()
		if _, err := io.WriteString(out, header); err != nil {
			return err
		}
		return k8s.Write(out, m.Objects())
	}
	files, err := m.Files(header)
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
