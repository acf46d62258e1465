package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"surge/harness"
	"surge/internal/k8s"
	"surge/spec"
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
	if path == "-" {
		return usageError{fmt.Errorf("k8s: the spec must be a file, to be shipped in a ConfigMap")}
	}
	// Check the flags passed on to surge run now, not in 16 failed pods.
	if err := newRun().ParseFlags(extra); err != nil {
		return usageError{fmt.Errorf("flags after --, for surge run: %w", err)}
	}
	opts, err := f.options(append(genArgs(c), extra...))
	if err != nil {
		return usageError{err}
	}
	// The sessions' times and lengths are all the sizing needs.
	in, err := harness.Load(c.Context(), hostFS{}, filepath.ToSlash(path), harness.LoadOptions{
		Edit: func(s *spec.Spec) error { return f.gen.applyTo(c.Flags(), s) }, NoText: true})
	if errors.Is(err, harness.ErrInterrupted) {
		return errInterrupted
	}
	if err != nil {
		return specFailure(c, path, err)
	}
	opts.FS, opts.Name, opts.Spec, opts.Header, opts.Sessions = hostFS{}, filepath.ToSlash(path), in.Spec, in.Header, in.Sessions
	plan, err := k8s.Prepare(opts)
	if oe := (*k8s.OptionError)(nil); errors.As(err, &oe) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	if f.out == "-" {
		_, err = plan.WriteTo(c.OutOrStdout())
	} else {
		err = plan.WriteDir(f.out)
	}
	if err != nil {
		return err
	}
	io.WriteString(c.ErrOrStderr(), plan.Summary())
	return nil
}

// options maps the flags to the options of k8s.Prepare, args being the
// flags every shard's surge run gets.
func (f k8sFlags) options(args []string) (k8s.Options, error) {
	output, err := k8s.ParseOutput(f.output)
	if err != nil {
		return k8s.Options{}, fmt.Errorf("--output-volume: %w", err)
	}
	var start time.Time
	if f.startAt != "" {
		if start, err = k8s.ParseStart(f.startAt); err != nil {
			return k8s.Options{}, fmt.Errorf("--start-at %w", err)
		}
	}
	return k8s.Options{
		Config: k8s.Config{
			Name: f.name, Namespace: f.namespace, Image: f.image, Shards: f.shards,
			Target: f.target, StartAt: start, Output: output, APIKeySecret: f.apiKey,
			Salt: f.salt, Args: args,
		},
		Now: time.Now(), StartDelay: f.startDelay,
		RPSPerCore: f.rpsPerCore, E2E: f.e2e, CPU: f.cpu, Memory: f.memory,
	}, nil
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
