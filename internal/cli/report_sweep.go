package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"surge/report"
	"surge/sweep"
	"surge/trace"
)

// isSweepDir reports whether path is a directory written by surge sweep.
func isSweepDir(path string) bool {
	_, err := os.Stat(filepath.Join(path, "sweep.json"))
	return err == nil
}

// reportSweep re-renders the report of the sweep in dir: its result, with
// each point's summary read back from the point's records.
func reportSweep(c *cobra.Command, dir, format, html, png string) error {
	res, err := readSweep(c.ErrOrStderr(), dir)
	if err != nil {
		return err
	}
	switch format {
	case "text":
		err = report.SweepText(c.OutOrStdout(), res)
	case "json":
		enc := json.NewEncoder(c.OutOrStdout())
		enc.SetIndent("", "  ")
		err = enc.Encode(res)
	default:
		return usageError{fmt.Errorf("--format %s: a sweep reports as text or json", format)}
	}
	if err != nil {
		return err
	}
	return writeHTML(html, png, report.HTMLInput{Sweep: res, Title: "surge sweep " + filepath.Base(res.Spec)})
}

// readSweep reads DIR/sweep.json and the summary of each point's records.
func readSweep(warn io.Writer, dir string) (*sweep.Result, error) {
	name := filepath.Join(dir, "sweep.json")
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	res, err := sweep.Read(name, data, func(p string) (*trace.Records, error) {
		return readRecordFiles(warn, []string{filepath.Join(dir, p)})
	})
	if err != nil {
		return nil, err
	}
	pointMeasurements(warn, dir, res)
	return res, nil
}

// pointMeasurements gives each point of res, a sweep written to dir, the
// measurement verdict its own report has: its summary's, with the engine
// check of the server's metrics scraped during the point.
func pointMeasurements(warn io.Writer, dir string, res *sweep.Result) {
	for i := range res.Points {
		p := &res.Points[i]
		if p.Summary == nil {
			continue
		}
		if _, _, err := serverView(filepath.Join(dir, p.Dir), p.Summary); err != nil {
			fmt.Fprintf(warn, "surge: sweep point %s: %v (its measurement verdict leaves the server's metrics out)\n", p.Dir, err)
		}
		p.Measurement = p.Summary.Measurement
	}
}

// writeHTML writes the HTML report to the file html and each chart as a
// PNG image into the directory png, each when named.
func writeHTML(html, png string, in report.HTMLInput) error {
	if html != "" {
		if err := writeFile(html, func(w io.Writer) error { return report.HTML(w, in) }); err != nil {
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
