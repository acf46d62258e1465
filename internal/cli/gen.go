package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"surge/harness"
	"surge/internal/hostfs"
	"surge/spec"
	"surge/workload"
)

// genFlags are surge gen's flags, those of register shared by run and sim.
type genFlags struct {
	overrides spec.Overrides
	seed      uint64 // overrides.Seed when --seed is given
	opts      workload.Options
	out       string
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
	f.register(c.Flags())
	c.Flags().StringVarP(&f.out, "output", "o", "-", "trace file to write (- for stdout)")
	c.Flags().BoolVar(&f.opts.NoText, "no-text", false, "leave prompt text out, keeping exact lengths only")
	return c
}

// register adds the flags that override a spec's seed and run length.
func (f *genFlags) register(fs *pflag.FlagSet) {
	fs.Uint64Var(&f.seed, "seed", 0, "seed overriding the spec's")
	fs.StringVar(&f.overrides.Requests, "requests", "", "number of sessions, overriding the spec's (e.g. 10k)")
	fs.StringVar(&f.overrides.Duration, "duration", "", "length of the schedule, overriding the spec's (e.g. 10m)")
}

// applyTo writes the command-line overrides into the spec, so that the
// spec hash in the trace header covers them. changed reports which flags
// were given.
func (f genFlags) applyTo(changed interface{ Changed(string) bool }, s *spec.Spec) error {
	o := f.overrides
	if changed.Changed("seed") {
		o.Seed = &f.seed
	}
	if err := o.Apply(s); err != nil {
		return usageError{err}
	}
	return nil
}

func runGen(c *cobra.Command, path string, f genFlags) error {
	out, commit, err := hostfs.Create(f.out, c.OutOrStdout())
	if err != nil {
		return err
	}
	res, err := harness.Gen(c.Context(), out, hostfs.FS{Stdin: c.InOrStdin()}, filepath.ToSlash(path),
		harness.LoadOptions{Edit: func(s *spec.Spec) error { return f.applyTo(c.Flags(), s) }, NoText: f.opts.NoText})
	if cerr := commit(err == nil); err == nil {
		err = cerr
	}
	if err != nil {
		return specFailure(c, path, err)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(c.ErrOrStderr(), "surge gen: warning: %v\n", w)
	}
	dest := f.out
	if dest == "-" {
		dest = "stdout"
	}
	fmt.Fprintf(c.ErrOrStderr(), "surge gen: %d sessions to %s\nworkload %s\n", res.Sessions, dest, res.Hash)
	return nil
}
