package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"surge/spec"
	"surge/trace"
	"surge/workload"
)

type genFlags struct {
	seed     uint64
	requests string
	duration string
	out      string
	noText   bool
}

func newGen() *cobra.Command {
	var f genFlags
	c := &cobra.Command{
		Use:   "gen SPEC",
		Short: "Compile a workload spec and seed into a deterministic trace",
		Long: `gen compiles a workload spec and a seed into a trace: a header line and one
JSON line per session in start order, with prompt text of exact token length.
The same spec and seed give the same bytes on every machine; the workload
hash printed at the end identifies them.`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runGen(c, args[0], f) },
	}
	c.Flags().Uint64Var(&f.seed, "seed", 0, "seed overriding the spec's")
	c.Flags().StringVar(&f.requests, "requests", "", "number of sessions, overriding the spec's (e.g. 10k)")
	c.Flags().StringVar(&f.duration, "duration", "", "length of the schedule, overriding the spec's (e.g. 10m)")
	c.Flags().StringVarP(&f.out, "output", "o", "-", "trace file to write (- for stdout)")
	c.Flags().BoolVar(&f.noText, "no-text", false, "leave prompt text out, keeping exact lengths only")
	return c
}

func (f genFlags) options(c *cobra.Command) (workload.Options, error) {
	opts := workload.Options{NoText: f.noText}
	if c.Flags().Changed("seed") {
		opts.Seed = &f.seed
	}
	if f.requests != "" {
		n, err := spec.ParseCount(f.requests)
		if err != nil {
			return opts, usageError{fmt.Errorf("--requests %q: %w", f.requests, err)}
		}
		opts.Requests = int(n)
	}
	if f.duration != "" {
		d, err := spec.ParseDuration(f.duration)
		if err != nil {
			return opts, usageError{fmt.Errorf("--duration %q: %w", f.duration, err)}
		}
		opts.Duration = d
	}
	return opts, nil
}

func runGen(c *cobra.Command, path string, f genFlags) error {
	opts, err := f.options(c)
	if err != nil {
		return err
	}
	s, err := loadSpec(path, c.InOrStdin())
	if err != nil {
		printSpecErrors(c, path, err)
		return silentError{err}
	}
	tok, synth, err := openContent(path, s)
	if err != nil {
		return err
	}
	g, err := workload.New(s, tok, synth, specHash(s), opts)
	if err != nil {
		return fmt.Errorf("spec %s: %w", path, err)
	}
	out, commit, err := createOutput(c, f.out)
	if err != nil {
		return err
	}
	tw, err := trace.NewWriter(out, g.Header())
	if err != nil {
		return err
	}
	if err := g.Generate(c.Context(), tw.Write); err != nil {
		commit(false)
		return fmt.Errorf("generating %s: %w", path, err)
	}
	hash, err := tw.Close()
	if err == nil {
		err = commit(true)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.ErrOrStderr(), "surge gen: %d sessions to %s\nworkload %s\n", tw.Sessions(), f.out, hash)
	return nil
}

// createOutput opens the trace destination. A file is written beside its
// final name and renamed into place by commit(true), so an interrupted gen
// never leaves a truncated trace behind.
func createOutput(c *cobra.Command, path string) (io.Writer, func(ok bool) error, error) {
	if path == "-" {
		return c.OutOrStdout(), func(bool) error { return nil }, nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return nil, nil, fmt.Errorf("creating trace file: %w", err)
	}
	commit := func(ok bool) error {
		cerr := errors.Join(tmp.Chmod(0o644), tmp.Close())
		if !ok || cerr != nil {
			os.Remove(tmp.Name())
			return cerr
		}
		if err := os.Rename(tmp.Name(), path); err != nil {
			os.Remove(tmp.Name())
			return fmt.Errorf("writing trace file: %w", err)
		}
		return nil
	}
	return tmp, commit, nil
}
