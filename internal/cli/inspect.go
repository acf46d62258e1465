package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"surge/harness"
	"surge/internal/hostfs"
	"surge/report"
)

func newInspect() *cobra.Command {
	var format string
	var block int
	c := &cobra.Command{
		Use:   "inspect TRACE|BUNDLE",
		Short: "Summarise a trace (rates, burstiness, lengths, hashes) or check a run's bundle",
		Long: `inspect summarises a trace (- reads it from standard input): per-client
rates and burstiness, length quantiles, the prefix reuse it implies and its
hashes.

Given a run directory (a bundle, as surge run and surge sim write), it says
how far the run got (complete, interrupted, killed, or without its
manifest), which files it holds and lacks, checks every file present and
the trace's workload hash against the manifest, and summarises the records.
It exits 1 when a file present does not check out; a missing file is said,
not failed.`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if isDir(args[0]) {
				return inspectBundle(c.OutOrStdout(), args[0])
			}
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("--format %q: want text or json", format)}
			}
			if block < 1 {
				return usageError{fmt.Errorf("--block-size %d: want at least 1", block)}
			}
			sum, err := harness.SummarizeTrace(hostfs.FS{Stdin: c.InOrStdin()}, filepath.ToSlash(args[0]), block)
			if err != nil {
				return err
			}
			if format == "json" {
				enc := json.NewEncoder(c.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(sum)
			}
			return report.InspectText(c.OutOrStdout(), args[0], sum)
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format of a trace's summary: text or json")
	c.Flags().Var(formatAlias{&format, "json"}, "json", "print the summary as JSON (--format json)")
	c.Flags().Lookup("json").NoOptDefVal = "true"
	c.Flags().IntVar(&block, "block-size", 16, "KV-cache block size, in tokens, for the prefix reuse the trace implies")
	return c
}
