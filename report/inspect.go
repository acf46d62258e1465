package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"surge/trace"
)

// InspectText writes the summary s of the trace called name for people:
// its hashes, sizes and implied prefix reuse, a row of rates and length
// quantiles per client (and for all, when there are several), and
// log-binned histograms of input and output lengths.
func InspectText(w io.Writer, name string, s *trace.Summary) error {
	h := s.Header
	fmt.Fprintf(w, "trace      %s (format %d)\n", name, h.Format)
	fmt.Fprintf(w, "workload   %s\n", s.WorkloadHash)
	fmt.Fprintf(w, "spec       %s  seed %d\n", h.SpecHash, h.Seed)
	fmt.Fprintf(w, "tokenizer  %s  %s\n", h.Tokenizer, h.TokenizerHash)
	fmt.Fprintf(w, "content    %s  text %v\n", h.ContentHash, h.Text)
	all := s.All
	span := time.Duration(all.Span * float64(time.Second)).Round(time.Millisecond)
	sessions, requests, in, out := totals(s)
	fmt.Fprintf(w, "sessions   %d (%d requests) over %v\n", sessions, requests, span)
	fmt.Fprintf(w, "tokens     %d input, %d output\n", in, out)
	if r := s.Reuse; r != nil {
		fmt.Fprintf(w, "reuse      %.1f%% of prompt tokens (%d of %d) are in %d-token blocks an earlier prompt held\n",
			100*r.Ratio(), r.Cached, r.Prompt, r.BlockTokens)
	}
	fmt.Fprintln(w)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "client\tsessions\trate/s\tIAT cv\tinput p1\tp10\tp50\tp90\tp99\tmax\toutput p50\tp99\tmax\t")
	for _, c := range s.Clients {
		streamRow(tw, c)
	}
	if len(s.Clients) > 1 {
		streamRow(tw, all)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	lengthHistogram(w, "input tokens", all, true)
	return lengthHistogram(w, "output tokens", all, false)
}

// totals adds up the sessions, requests and input and output tokens of
// s's clients.
func totals(s *trace.Summary) (sessions, requests int, in, out int64) {
	for _, c := range s.Clients {
		sessions += c.Sessions
		requests += c.Requests
		in += c.TotalInput
		out += c.TotalOutput
	}
	return sessions, requests, in, out
}

// streamRow writes the row of a client, or of all, in InspectText's table.
func streamRow(w io.Writer, c trace.StreamSummary) {
	rate, cv := fmt.Sprintf("%.3g", c.Rate), fmt.Sprintf("%.3f", c.CV)
	if c.Closed {
		rate, cv = "closed", "-"
	}
	in, out := c.InputTokens, c.OutputTokens
	fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t\n",
		c.Name, c.Sessions, rate, cv, in.P1, in.P10, in.P50, in.P90, in.P99, in.Max, out.P50, out.P99, out.Max)
}

// lengthHistogram draws a log-binned text histogram of input or output
// lengths, bars of at most 40 blocks.
func lengthHistogram(w io.Writer, title string, st trace.StreamSummary, input bool) error {
	edges, counts := st.Histogram(input, 12)
	if len(counts) == 0 {
		return nil
	}
	peak := 0
	for _, n := range counts {
		peak = max(peak, n)
	}
	_, err := fmt.Fprintf(w, "\n%s (log bins)\n", title)
	for i, n := range counts {
		bar := strings.Repeat("█", (n*40+peak-1)/max(peak, 1))
		if _, err := fmt.Fprintf(w, "  %8.0f – %-8.0f %-40s %d\n", edges[i], edges[i+1], bar, n); err != nil {
			return err
		}
	}
	return err
}
