package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"surge/bundle"
	"surge/harness"
	"surge/metrics"
	"surge/report"
	"surge/trace"
)

func newReport() *cobra.Command {
	var format, html, png, tracePath string
	var perClient bool
	c := &cobra.Command{
		Use:   "report RECORDS|DIR...",
		Short: "Summarise the records of runs: latency percentiles, throughput, goodput, errors, token audit",
		Long: `report reads records files (or run directories holding records.jsonl) and
prints TTFT, TTFO, ITL, TPOT and E2E percentiles with confidence intervals,
throughput, goodput under the run's SLOs, errors by class and a token-count
audit. Several files of the same workload are merged record by record.

- reads records from standard input: surge run - -o - | surge report -.

A sweep directory (from surge sweep) prints the sweep's report instead.
--html FILE also writes the self-contained HTML report with its charts
(--html - prints it instead of the text report), and --png DIR each chart
as a PNG image.`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError{fmt.Errorf("report: give at least one records file or run directory (usage: %s)", c.UseLine())}
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			write, ok := report.Renderer(format)
			if !ok {
				return usageError{fmt.Errorf("--format %q: want text, json or csv", format)}
			}
			if len(args) == 1 && isSweepDir(args[0]) {
				return reportSweep(c, args[0], format, html, png)
			}
			rs, err := readRecordsFrom(c.InOrStdin(), c.ErrOrStderr(), args)
			if err != nil {
				return err
			}
			sum := summarize(rs, perClient)
			in := report.HTMLInput{Summary: sum, Records: rs, Title: "surge report", Warn: warnChart(c.ErrOrStderr())}
			if own := filepath.Join(args[0], bundle.TraceFile); tracePath == "" && len(args) == 1 && isBundle(args[0]) && exists(own) {
				tracePath = own // a bundle holds its trace (a killed run's may not)
			}
			if tracePath != "" {
				tr, err := readTraceFile(tracePath)
				if err != nil {
					return err
				}
				in.Prompt = harness.Prompts(tr.Sessions)
			}
			if len(args) == 1 && args[0] != "-" {
				if in.Server, in.Engine, err = serverView(args[0], sum); err != nil {
					fmt.Fprintf(c.ErrOrStderr(), "surge: %v (the report leaves the server's metrics out)\n", err)
				}
			}
			if html == "-" { // the HTML report is the output
				if err := writeHTML("", png, in); err != nil {
					return err
				}
				return report.HTML(c.OutOrStdout(), in)
			}
			if err := writeHTML(html, png, in); err != nil {
				return err
			}
			return write(c.OutOrStdout(), sum, in.Engine)
		},
	}
	c.Flags().StringVar(&html, "html", "", "also write the HTML report to this file (-: print it instead of the text report)")
	c.Flags().StringVar(&tracePath, "trace", "", "the trace the records ran, to show prompts in the HTML report")
	c.Flags().StringVar(&png, "png", "", "also write each chart as a PNG file in this directory")
	c.Flags().StringVar(&format, "format", "text", "text, json or csv")
	c.Flags().BoolVar(&perClient, "per-client", true, "break figures down by client")
	return c
}

// exists reports whether there is a file at path.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// summarize computes the report of rs; closed-loop clients, which have no
// schedule, are left out of the send and scheduled rates.
func summarize(rs *trace.Records, perClient bool) *metrics.Summary {
	return metrics.Summarize(rs, metrics.Options{PerClient: perClient})
}

// readRecordFiles reads records files and merges them (trace.Merge); a
// directory stands for its records.jsonl, or, without one, for the
// records.jsonl of each of its subdirectories (the shards of a sharded
// run). A truncated last line, and shards missing from a merge, are
// reported on warn.
func readRecordFiles(warn io.Writer, paths []string) (*trace.Records, error) {
	return readRecordsFrom(nil, warn, paths)
}

// readRecordsFrom is readRecordFiles where the path - stands for stdin.
func readRecordsFrom(stdin io.Reader, warn io.Writer, paths []string) (*trace.Records, error) {
	var names []string
	for _, path := range paths {
		files, err := recordFiles(path)
		if err != nil {
			return nil, err
		}
		names = append(names, files...)
	}
	all, warnings, err := bundle.ReadRecords(hostFS{stdin}, names)
	if err != nil {
		return nil, err
	}
	for _, w := range warnings {
		fmt.Fprintf(warn, "surge: warning: %s\n", w)
	}
	return all, nil
}

// recordFiles lists the records files path stands for: itself (- for
// stdin), a directory's records.jsonl, or that of each of its
// subdirectories.
func recordFiles(path string) ([]string, error) {
	if path == "-" {
		return []string{path}, nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reading records: %w", err)
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	files, err := bundle.RecordFiles(os.DirFS(path))
	if err != nil {
		return nil, fmt.Errorf("reading records: %s %w", path, err)
	}
	for i, f := range files {
		files[i] = filepath.Join(path, filepath.FromSlash(f))
	}
	return files, nil
}

// warnChart tells warn of a chart of the HTML report that could not be
// drawn; the report says so in its place.
func warnChart(warn io.Writer) func(error) {
	return func(err error) {
		fmt.Fprintf(warn, "surge: warning: %v (the report says so in its place)\n", err)
	}
}
