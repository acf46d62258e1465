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
	data, err := os.ReadFile(filepath.Join(dir, "sweep.json"))
	if err != nil {
		return nil, err
	}
	var res sweep.Result
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "sweep.json"), err)
	}
	for i := range res.Points {
		p := &res.Points[i]
		rs, err := readRecordFiles(warn, []string{filepath.Join(dir, p.Dir)})
		if err != nil {
			return nil, fmt.Errorf("sweep point %s: %w", p.Dir, err)
		}
		p.Summary = summarize(rs, false)
		if all := &p.Summary.All; p.Measured == 0 && all.Requests > 0 { // a sweep.json from before these fields
			p.Measured, p.SendRate, p.MeanInFlight = all.Requests, all.Throughput.SendRatePerS, all.Throughput.MeanConcurrency
		}
		p.Decide() // the same word from the same figures, also for an older sweep.json
	}
	pointMeasurements(warn, dir, &res)
	return &res, nil
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
