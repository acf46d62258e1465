package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

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

A sweep directory (from surge sweep) prints the sweep's report instead.
--html FILE also writes the self-contained HTML report with its charts,
and --png DIR each chart as a PNG image.`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError{fmt.Errorf("report: give at least one records file or run directory (usage: %s)", c.UseLine())}
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			write, ok := reportFormats[format]
			if !ok {
				return usageError{fmt.Errorf("--format %q: want text, json or csv", format)}
			}
			if len(args) == 1 && isSweepDir(args[0]) {
				return reportSweep(c, args[0], format, html, png)
			}
			rs, err := readRecordFiles(c.ErrOrStderr(), args)
			if err != nil {
				return err
			}
			sum := summarize(rs, perClient)
			in := report.HTMLInput{Summary: sum, Records: rs, Title: "surge report", Warn: warnChart(c.ErrOrStderr())}
			if tracePath == "" && len(args) == 1 && isBundle(args[0]) {
				tracePath = filepath.Join(args[0], "trace.jsonl") // a bundle holds its trace
			}
			if tracePath != "" {
				tr, err := readTraceFile(tracePath)
				if err != nil {
					return err
				}
				in.Prompt = promptsOf(tr.sessions)
			}
			if len(args) == 1 {
				if in.Server, in.Engine, err = serverView(args[0], sum); err != nil {
					fmt.Fprintf(c.ErrOrStderr(), "surge: %v (the report leaves the server's metrics out)\n", err)
				}
			}
			if err := writeHTML(html, png, in); err != nil {
				return err
			}
			return write(c.OutOrStdout(), sum, in.Engine)
		},
	}
	c.Flags().StringVar(&html, "html", "", "also write the HTML report to this file")
	c.Flags().StringVar(&tracePath, "trace", "", "the trace the records ran, to show prompts in the HTML report")
	c.Flags().StringVar(&png, "png", "", "also write each chart as a PNG file in this directory")
	c.Flags().StringVar(&format, "format", "text", "text, json or csv")
	c.Flags().BoolVar(&perClient, "per-client", true, "break figures down by client")
	return c
}

// summarize computes the report of rs; closed-loop clients, which have no
// schedule, are left out of the send and scheduled rates.
func summarize(rs *trace.Records, perClient bool) *metrics.Summary {
	return metrics.Summarize(rs, metrics.Options{PerClient: perClient})
}

// reportFormats write a summary with its engine-against-client table.
var reportFormats = map[string]func(io.Writer, *metrics.Summary, []report.EngineLatency) error{
	"text": textReport, "json": report.JSONEngine, "csv": report.CSVEngine,
}

// textReport writes the text report of s, then its engine-against-client
// table es.
func textReport(w io.Writer, s *metrics.Summary, es []report.EngineLatency) error {
	if err := report.Text(w, s); err != nil {
		return err
	}
	return report.EngineText(w, es)
}

// readRecordFiles reads records files and merges them (trace.Merge); a
// directory stands for its records.jsonl, or, without one, for the
// records.jsonl of each of its subdirectories (the shards of a sharded
// run). A truncated last line, and shards missing from a merge, are
// reported on warn.
func readRecordFiles(warn io.Writer, paths []string) (*trace.Records, error) {
	var runs []*trace.Records
	var names []string
	for _, path := range paths {
		files, err := recordFiles(path)
		if err != nil {
			return nil, err
		}
		for _, file := range files {
			rs, err := readRecordFile(warn, file)
			if err != nil {
				return nil, err
			}
			runs, names = append(runs, rs), append(names, file)
		}
	}
	all, warnings, err := trace.Merge(runs, names)
	if err != nil {
		return nil, err
	}
	for _, w := range warnings {
		fmt.Fprintf(warn, "surge: warning: %s\n", w)
	}
	return all, nil
}

// recordFiles lists the records files path stands for: itself, a
// directory's records.jsonl, or that of each of its subdirectories.
func recordFiles(path string) ([]string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reading records: %w", err)
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	own := filepath.Join(path, "records.jsonl")
	if _, err := os.Stat(own); err == nil {
		return []string{own}, nil
	}
	sub, err := filepath.Glob(filepath.Join(path, "*", "records.jsonl"))
	if err != nil || len(sub) == 0 {
		return nil, fmt.Errorf("reading records: %s holds no records.jsonl, nor any directory that does", path)
	}
	return sub, nil
}

func readRecordFile(warn io.Writer, path string) (*trace.Records, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading records: %w", err)
	}
	defer f.Close()
	rs, err := trace.ReadRecords(f)
	if rs != nil && err != nil {
		fmt.Fprintf(warn, "surge: warning: %s: %v\n", path, err)
		return rs, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rs, nil
}

// warnChart tells warn of a chart of the HTML report that could not be
// drawn; the report says so in its place.
func warnChart(warn io.Writer) func(error) {
	return func(err error) {
		fmt.Fprintf(warn, "surge: warning: %v (the report says so in its place)\n", err)
	}
}
