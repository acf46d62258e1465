package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"surge/harness"
	"surge/internal/hostfs"
	"surge/report"
)

// isSweepDir reports whether path is a directory written by surge sweep.
func isSweepDir(path string) bool {
	_, err := os.Stat(filepath.Join(path, "sweep.json"))
	return err == nil
}

// reportSweep re-renders the report of the sweep in dir: its result, with
// each point's summary read back from the point's records.
func reportSweep(c *cobra.Command, dir, format, html, png string) error {
	res, err := harness.ReadSweep(c.ErrOrStderr(), dir)
	if err != nil {
		return err
	}
	write, ok := report.SweepRenderer(format)
	if !ok {
		return usageError{fmt.Errorf("--format %s: a sweep reports as text or json", format)}
	}
	if err := write(c.OutOrStdout(), res); err != nil {
		return err
	}
	return writeHTML(html, png, report.HTMLInput{Sweep: res, Title: "surge sweep " + filepath.Base(res.Spec)})
}

// writeHTML writes the HTML report to the file html and each chart as a
// PNG image into the directory png, each when named.
func writeHTML(html, png string, in report.HTMLInput) error {
	if html != "" {
		if err := hostfs.WriteFile(html, func(w io.Writer) error { return report.HTML(w, in) }); err != nil {
			return err
		}
	}
	if png != "" {
		if err := os.MkdirAll(png, 0o755); err != nil {
			return err
		}
		if _, err := report.ChartsPNG(png, in); err != nil {
			return fmt.Errorf("--png: %w", err)
		}
	}
	return nil
}
