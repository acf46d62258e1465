package cli

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"surge/bundle"
	"surge/harness"
	"surge/internal/hostfs"
	"surge/report"
	"surge/trace"
)

func newReport() *cobra.Command {
	var format, html, png, tracePath string
	var perClient bool
	c := &cobra.Command{
		Use:   "report RECORDS|DIR...",
		Short: "Summarise the records of runs: latency percentiles, throughput, goodput, errors, token audit",
		Long: `report reads records files (or run directories holding records.jsonl; -
for standard input) and prints TTFT, TTFO, ITL, TPOT and E2E percentiles
with confidence intervals, throughput, goodput under the run's SLOs, errors
by class and a token-count audit. Several files of one workload are merged
record by record; a sweep directory prints the sweep's report.
--html FILE also writes the self-contained HTML report (--html -: instead
of the text report), and --png DIR each chart as a PNG image.`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError{fmt.Errorf("report: give at least one records file or run directory (usage: %s)", c.UseLine())}
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			write, ok := report.Renderer(format, report.WidthFor(c.OutOrStdout()))
			if !ok {
				return usageError{fmt.Errorf("--format %q: want text, json or csv", format)}
			}
			if len(args) == 1 && isSweepDir(args[0]) {
				return reportSweep(c, args[0], format, html, png)
			}
			names := make([]string, len(args))
			for i, a := range args {
				names[i] = filepath.ToSlash(a)
			}
			in, err := harness.Report(harness.Records{Files: hostfs.FS{Stdin: c.InOrStdin()}, Names: names,
				Trace: filepath.ToSlash(tracePath), PerClient: perClient, Log: c.ErrOrStderr()})
			if err != nil {
				return err
			}
			in.Warn = warnChart(c.ErrOrStderr())
			if html == "-" { // the HTML report is the output
				if err := writeHTML("", png, in); err != nil {
					return err
				}
				return report.HTML(c.OutOrStdout(), in)
			}
			if err := writeHTML(html, png, in); err != nil {
				return err
			}
			return write(c.OutOrStdout(), in.Summary, in.Engine)
		},
	}
	c.Flags().StringVar(&html, "html", "", "also write the HTML report to this file (-: print it instead of the text report)")
	c.Flags().StringVar(&tracePath, "trace", "", "the trace the records ran, to show prompts in the HTML report")
	c.Flags().StringVar(&png, "png", "", "also write each chart as a PNG file in this directory")
	c.Flags().StringVar(&format, "format", "text", "text, json or csv")
	c.Flags().BoolVar(&perClient, "per-client", true, "break figures down by client")
	return c
}

// readRecordFiles reads records files, or run directories, and merges
// them (bundle.ReadRecords); a truncated last line, and shards missing
// from a merge, are reported on warn.
func readRecordFiles(warn io.Writer, paths []string) (*trace.Records, error) {
	return readRecordsFrom(nil, warn, paths)
}

// readRecordsFrom is readRecordFiles where the path - stands for stdin.
func readRecordsFrom(stdin io.Reader, warn io.Writer, paths []string) (*trace.Records, error) {
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = filepath.ToSlash(p)
	}
	all, warnings, err := bundle.ReadRecords(hostfs.FS{Stdin: stdin}, names)
	if err != nil {
		return nil, err
	}
	for _, w := range warnings {
		fmt.Fprintf(warn, "surge: warning: %s\n", w)
	}
	return all, nil
}

// warnChart tells warn of a chart of the HTML report that could not be
// drawn; the report says so in its place.
func warnChart(warn io.Writer) func(error) {
	return func(err error) {
		fmt.Fprintf(warn, "surge: warning: %v (the report says so in its place)\n", err)
	}
}
