package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"surge/harness"
	"surge/internal/hostfs"
	"surge/internal/k8s"
	"surge/spec"
	"surge/trace"
)

// k8sFlags are surge k8s's flags: those of k8s.Prepare's options as
// they are, and those written as text to be parsed into them.
type k8sFlags struct {
	gen     genFlags
	opts    k8s.Options
	startAt string
	output  string
	out     string
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
	fs.IntVar(&f.opts.Config.Shards, "shards", 0, "number of shards N, one pod each (required)")
	fs.StringVar(&f.opts.Config.Target, "target", "", "the server's URL as the pods reach it, or MODEL=URL,... (required)")
	fs.StringVar(&f.opts.Config.Image, "image", "surge:latest", "container image with surge as its entrypoint")
	fs.StringVar(&f.opts.Config.Name, "name", "", "name of the Job (default surge-SPECNAME)")
	fs.StringVar(&f.opts.Config.Namespace, "namespace", "", "namespace of the objects (default: kubectl's)")
	fs.DurationVar(&f.opts.StartDelay, "start-delay", 2*time.Minute, "start the shards this long after the manifests are written")
	fs.StringVar(&f.startAt, "start-at", "", "start the shards at this instant instead (RFC 3339)")
	fs.StringVar(&f.output, "output-volume", "emptydir", "where pods write their bundles: pvc:NAME, pvc:NAME:SIZE (create it, ReadWriteMany), hostpath:/DIR or emptydir")
	fs.Float64Var(&f.opts.RPSPerCore, "client-rps-per-core", k8s.DefaultRPSPerCore, "streamed requests per second one core of surge sustains (surge selftest), for sizing CPU")
	fs.DurationVar(&f.opts.E2E, "e2e", time.Minute, "time one request is assumed to take, for sizing memory (requests in flight)")
	fs.StringVar(&f.opts.CPU, "cpu", "", "CPU of each pod, overriding the sizing (e.g. 4)")
	fs.StringVar(&f.opts.Memory, "memory", "", "memory of each pod, overriding the sizing (e.g. 2Gi)")
	fs.StringVar(&f.opts.Config.APIKeySecret, "api-key-secret", "", "SECRET:KEY holding the API key, sent as a bearer token")
	fs.StringVar(&f.opts.Config.Salt, "salt", "", "nonce every shard puts before each conversation, or none (default: a new one, shared by all shards, unless the spec says salt: none)")
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
	in, err := harness.Load(c.Context(), hostfs.FS{}, filepath.ToSlash(path), harness.LoadOptions{
		Edit: func(s *spec.Spec) error { return f.gen.applyTo(c.Flags(), s) }, NoText: true})
	if errors.Is(err, harness.ErrInterrupted) {
		return errInterrupted
	}
	if err != nil {
		return specFailure(c, path, err)
	}
	opts.FS, opts.Name, opts.Spec, opts.Header, opts.Sessions = hostfs.FS{}, filepath.ToSlash(path), in.Spec, in.Header, in.Sessions
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

// options returns the options of k8s.Prepare, with the flags written as
// text parsed into them, args being the flags every shard's surge run
// gets.
func (f k8sFlags) options(args []string) (k8s.Options, error) {
	opts := f.opts
	var err error
	if opts.Config.Output, err = k8s.ParseOutput(f.output); err != nil {
		return k8s.Options{}, fmt.Errorf("--output-volume: %w", err)
	}
	if opts.Config.StartAt, err = trace.ParseStart(f.startAt); err != nil {
		return k8s.Options{}, fmt.Errorf("--start-at %w", err)
	}
	opts.Config.Args, opts.Now = args, time.Now()
	return opts, nil
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
