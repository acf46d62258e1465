package cli

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"surge/harness"
	"surge/report"
)

// output sets where cfg's run leaves what it records: the directory -o
// names (by default prefix and the time), or for -o - standard output,
// which then receives the records and nothing else; and the width of the
// text report printRun prints, stdout's terminal's.
func output(c *cobra.Command, cfg *harness.Config, out, prefix string) {
	cfg.TextWidth = report.WidthFor(c.OutOrStdout())
	if out == "-" {
		cfg.Records = c.OutOrStdout()
		return
	}
	cfg.Dir = runDirName(out, prefix)
}

// printRun prints the text report of a run harness.Run returned whenever
// the run was recorded, even when a file of it could not be written (a
// full disk): on stdout, then the bundle's paths on stderr, or on
// stderr when the records went to stdout. It returns the command's
// error: Run's, else printing's, else the verdict's.
func printRun(c *cobra.Command, res *harness.Result, err error) error {
	if res == nil {
		return cliError(err)
	}
	w := c.OutOrStdout()
	if res.Dir == "" {
		w = c.ErrOrStderr()
	}
	_, perr := io.WriteString(w, res.Report)
	if res.Dir != "" {
		fmt.Fprintf(c.ErrOrStderr(), "surge: bundle %s, report %s\n", res.Dir, filepath.Join(res.Dir, "report.html"))
	}
	if err == nil {
		err = perr
	}
	if err != nil {
		return cliError(err)
	}
	return cliError(res.Verdict)
}
