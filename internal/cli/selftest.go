package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/spf13/cobra"

	"surge/internal/selftest"
)

// selftestFlags are the flags of surge selftest.
type selftestFlags struct {
	opts       selftest.Options
	cache      string
	noSave     bool
	inProcess  bool // the zero-delay server in surge's own process
	zeroServer bool // be the zero-delay server of another selftest
}

func newSelftest() *cobra.Command {
	var f selftestFlags
	c := &cobra.Command{
		Use:   "selftest",
		Short: "Measure how many streamed requests per second surge itself sustains on this machine",
		Long: `selftest drives surge's own client and driver, with per-token timing and
records, against a zero-delay streaming server in a process of its own
(--in-process: in surge's), at a couple of concurrencies, and prints the
streamed requests and token events per second reached.

The best figure is this machine's ceiling. It is saved (by default in the
user's cache directory, surge/selftest.json) with the CPU count and surge's
version, and surge run warns when a workload asks for more than half of it.
The server shares the machine's cores, so the ceiling is lower than against
a server on another machine.`,
		Args: exactArgs(0),
		RunE: func(c *cobra.Command, _ []string) error {
			if f.zeroServer {
				return selftest.ServeProcess(c.Context(), c.OutOrStdout(), c.InOrStdin())
			}
			return runSelftest(c.Context(), c.OutOrStdout(), c.ErrOrStderr(), f)
		},
	}
	fs := c.Flags()
	fs.IntSliceVar(&f.opts.Concurrencies, "concurrency", selftest.DefaultConcurrencies, "closed-loop concurrencies to measure")
	fs.DurationVar(&f.opts.Duration, "duration", selftest.DefaultDuration, "how long to drive each concurrency (the first fifth is warmup)")
	fs.StringVar(&f.cache, "cache", "", "file to save the result to (default: surge/selftest.json in the user's cache directory)")
	fs.BoolVar(&f.noSave, "no-save", false, "do not save the result")
	fs.BoolVar(&f.inProcess, "in-process", false, "run the zero-delay server inside surge's own process instead of a process of its own")
	fs.BoolVar(&f.zeroServer, "zero-server", false, "serve as the zero-delay server of another surge selftest, until stdin closes")
	fs.MarkHidden("zero-server")
	return c
}

// runSelftest measures, prints and saves the ceiling; warn says why the
// server runs in surge's own process when it could not start another.
func runSelftest(ctx context.Context, w, warn io.Writer, f selftestFlags) error {
	if err := f.opts.Check(); err != nil {
		return usageError{err}
	}
	f.opts.Version = versionString()
	if !f.inProcess {
		url, stop, err := startZeroServer(ctx)
		if err != nil {
			fmt.Fprintf(warn, "surge: selftest: %v; the server runs in surge's own process instead\n", err)
		} else {
			defer stop()
			f.opts.Target = url
		}
	}
	r, err := selftest.Run(ctx, f.opts)
	if err != nil {
		return err
	}
	r.WriteText(w)
	if f.noSave {
		return nil
	}
	path, err := selftestPath(f.cache)
	if err != nil {
		return err
	}
	if err := selftest.Save(path, r); err != nil {
		return err
	}
	fmt.Fprintf(w, "saved to %s\n", path)
	return nil
}

// selftestPath is path, or the default cache file when it is empty.
func selftestPath(path string) (string, error) {
	if path != "" {
		return path, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding the cache directory: %w", err)
	}
	return filepath.Join(dir, "surge", "selftest.json"), nil
}

// startZeroServer starts this executable as selftest's zero-delay server
// (selftest --zero-server) and returns its URL and a function that stops
// it.
func startZeroServer(ctx context.Context) (string, func(), error) {
	if testing.Testing() {
		// The executable is a test binary, which would run its tests.
		return "", nil, errors.New("no surge executable under go test")
	}
	exe, err := os.Executable()
	if err != nil {
		return "", nil, fmt.Errorf("finding surge's executable to start the server: %w", err)
	}
	return selftest.StartProcess(ctx, exec.Command(exe, "selftest", "--zero-server"))
}
