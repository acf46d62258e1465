package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"surge/bundle"
	"surge/harness"
)

// runOutput is where a run or simulation leaves its bundle: the directory
// -o names (by default prefix and the time), or, for -o -, a temporary
// directory whose records go to stdout at the end, the text report going
// to stderr, and which is then removed.
type runOutput struct {
	dir    string
	stdout bool // -o -: the records are the output
}

// newRunOutput is where a run whose -o names dir puts its bundle; the
// directory is the harness's to create.
func newRunOutput(dir string) (*runOutput, error) {
	if dir != "-" {
		return &runOutput{dir: dir}, nil
	}
	dir, err := os.MkdirTemp("", "surge-run-*")
	if err != nil {
		return nil, fmt.Errorf("-o -: creating a temporary run directory: %w", err)
	}
	return &runOutput{dir: dir, stdout: true}, nil
}

// finish prints the run's text report, on stdout, or for -o - on stderr
// after copying the records to stdout.
func (o *runOutput) finish(c *cobra.Command, report string) error {
	if !o.stdout {
		_, err := io.WriteString(c.OutOrStdout(), report)
		fmt.Fprintf(c.ErrOrStderr(), "surge: bundle %s, report %s\n", o.dir, filepath.Join(o.dir, "report.html"))
		return err
	}
	if _, err := io.WriteString(c.ErrOrStderr(), report); err != nil {
		return err
	}
	f, err := os.Open(filepath.Join(o.dir, bundle.RecordsFile))
	if err != nil {
		return fmt.Errorf("-o -: %w", err)
	}
	defer f.Close()
	if _, err := io.Copy(c.OutOrStdout(), f); err != nil {
		return fmt.Errorf("-o -: writing the records: %w", err)
	}
	return nil
}

// report prints the text report of a run harness.Run returned (finish)
// whenever the run was recorded, even when a file of it could not be
// written (a full disk), and returns the command's error: Run's, else
// printing's, else the verdict's.
func (o *runOutput) report(c *cobra.Command, res *harness.Result, err error) error {
	if res == nil {
		return cliError(err)
	}
	if ferr := o.finish(c, res.Report); err == nil && ferr != nil {
		return ferr
	}
	if err != nil {
		return cliError(err)
	}
	return cliError(res.Verdict)
}

// remove removes the temporary directory of -o -; it leaves any other
// alone.
func (o *runOutput) remove() {
	if o.stdout {
		os.RemoveAll(o.dir)
	}
}
