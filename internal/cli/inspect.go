package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"surge/sim/virtual"
	"surge/trace"
)

func newInspect() *cobra.Command {
	var asJSON bool
	var block int
	c := &cobra.Command{
		Use:   "inspect TRACE|BUNDLE",
		Short: "Summarise a trace (rates, burstiness, lengths, hashes) or check a run's bundle",
		Long: `inspect summarises a trace: per-client rates and burstiness, length
quantiles, the prefix reuse it implies and its hashes.

Given a run directory (a bundle, as surge run and surge sim write), it
says how far the run got (complete, interrupted, killed, or ended without
its manifest), which files it holds and which it lacks, what the manifest
says of the run, checks every file present against the size and SHA-256
the manifest gives, checks trace.jsonl's workload hash against the
manifest's (or the records header's, without a manifest), and summarises
the records. It exits 1 when a file present does not check out; a missing
file is said, not failed. - reads a trace from standard input.`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if isBundle(args[0]) {
				return inspectBundle(c.OutOrStdout(), args[0])
			}
			if err := notBundle(args[0]); err != nil {
				return err
			}
			if block < 1 {
				return usageError{fmt.Errorf("--block-size %d: want at least 1", block)}
			}
			sum, err := summarizeFile(args[0], c.InOrStdin(), block)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(c.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(sum)
			}
			writeSummary(c.OutOrStdout(), args[0], sum)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON")
	c.Flags().IntVar(&block, "block-size", 16, "KV-cache block size, in tokens, for the prefix reuse the trace implies")
	return c
}

// summarizeFile summarises the trace at path (- for stdin), with the
// prefix reuse it implies in blocks of block tokens.
func summarizeFile(path string, stdin io.Reader, block int) (*trace.Summary, error) {
	r := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("reading trace: %w", err)
		}
		defer f.Close()
		r = f
	}
	tr, err := trace.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("trace %s: %w", path, err)
	}
	var sessions []*trace.Session
	sum, err := trace.SummarizeFunc(tr, func(s *trace.Session) { sessions = append(sessions, s) })
	if err != nil {
		return nil, fmt.Errorf("trace %s: %w", path, err)
	}
	reuse := virtual.ImpliedReuse(sessions, block)
	sum.Reuse = &reuse
	return sum, nil
}

// writeSummary prints a trace summary for people.
func writeSummary(w io.Writer, path string, s *trace.Summary) {
	h := s.Header
	fmt.Fprintf(w, "trace      %s (format %d)\n", path, h.Format)
	fmt.Fprintf(w, "workload   %s\n", s.WorkloadHash)
	fmt.Fprintf(w, "spec       %s  seed %d\n", h.SpecHash, h.Seed)
	fmt.Fprintf(w, "tokenizer  %s  %s\n", h.Tokenizer, h.TokenizerHash)
	fmt.Fprintf(w, "content    %s  text %v\n", h.ContentHash, h.Text)
	all := s.All
	span := time.Duration(all.Span * float64(time.Second)).Round(time.Millisecond)
	fmt.Fprintf(w, "sessions   %d (%d requests) over %v\n", sumSessions(s), sumRequests(s), span)
	fmt.Fprintf(w, "tokens     %d input, %d output\n", sumTokens(s, true), sumTokens(s, false))
	if r := s.Reuse; r != nil {
		fmt.Fprintf(w, "reuse      %.1f%% of prompt tokens (%d of %d) are in %d-token blocks an earlier prompt held\n",
			100*r.Ratio(), r.Cached, r.Prompt, r.BlockTokens)
	}
	fmt.Fprintln(w)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "client\tsessions\trate/s\tIAT cv\tinput p1\tp10\tp50\tp90\tp99\tmax\toutput p50\tp99\tmax\t")
	for _, c := range s.Clients {
		writeStreamRow(tw, c)
	}
	if len(s.Clients) > 1 {
		writeStreamRow(tw, all)
	}
	tw.Flush()
	writeHistogram(w, "input tokens", all, true)
	writeHistogram(w, "output tokens", all, false)
}

func writeStreamRow(w io.Writer, c trace.StreamSummary) {
	rate, cv := fmt.Sprintf("%.3g", c.Rate), fmt.Sprintf("%.3f", c.CV)
	if c.Closed {
		rate, cv = "closed", "-"
	}
	in, out := c.InputTokens, c.OutputTokens
	fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t\n",
		c.Name, c.Sessions, rate, cv, in.P1, in.P10, in.P50, in.P90, in.P99, in.Max, out.P50, out.P99, out.Max)
}

// writeHistogram draws a log-binned text histogram of lengths.
func writeHistogram(w io.Writer, title string, st trace.StreamSummary, input bool) {
	edges, counts := st.Histogram(input, 12)
	if len(counts) == 0 {
		return
	}
	peak := 0
	for _, n := range counts {
		peak = max(peak, n)
	}
	fmt.Fprintf(w, "\n%s (log bins)\n", title)
	for i, n := range counts {
		bar := strings.Repeat("█", (n*40+peak-1)/max(peak, 1))
		fmt.Fprintf(w, "  %8.0f – %-8.0f %-40s %d\n", edges[i], edges[i+1], bar, n)
	}
}

func sumSessions(s *trace.Summary) (n int) {
	for _, c := range s.Clients {
		n += c.Sessions
	}
	return n
}

func sumRequests(s *trace.Summary) (n int) {
	for _, c := range s.Clients {
		n += c.Requests
	}
	return n
}

func sumTokens(s *trace.Summary, input bool) (n int64) {
	for _, c := range s.Clients {
		if input {
			n += c.TotalInput
		} else {
			n += c.TotalOutput
		}
	}
	return n
}
