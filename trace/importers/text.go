package importers

import (
	"fmt"
	"io"
)

// WriteText says on w what an import of the named files with opts wrote
// and what it left out, as surge import prints it: sessions, span and
// workload hash, the first rows skipped, the sessions capped, cut short
// or left out, and ServeGen clients given the fallback lengths.
func (st Stats) WriteText(w io.Writer, names []string, opts ImportOptions) error {
	ew := &errWriter{w: w}
	switch st.Format {
	case FormatShareGPT:
		st.writeShareGPT(ew, names[0], opts)
		return ew.err
	case FormatWEKA, FormatWEKACSV:
		ew.printf("surge import: %d sessions from %d %s file%s\n", st.Sessions, len(names), st.Format, plural(len(names)))
	case FormatWEKASummary:
		sm := st.Summary
		ew.printf("surge import: %d sessions from %d %s file%s: each conversation's main stream as its summary implies it,\n", st.Sessions, len(names), st.Format, plural(len(names)))
		ew.printf("  prompts grown evenly from first_in to last_in, every answer %d tokens (the summary records none; --lengths IN:OUT sets it)\n", sm.Output)
		if sm.Bound && sm.Output < DefaultSummaryOutput {
			ew.printf("  %d, not %d: %.0f%% of later turns are in conversations whose prompts grow by less a turn, and a pinned history carries each answer\n", sm.Output, DefaultSummaryOutput, 100*summaryShortShare)
		}
		if sm.Subagents > 0 {
			ew.printf("  left out %d sub-agent stream%s (%d requests): the summary does not record their prompts\n", sm.Subagents, plural(sm.Subagents), sm.SubRequests)
		}
	default:
		ew.printf("surge import: %d sessions from %d %s file%s over %v\n", st.Sessions, len(names), st.Format, plural(len(names)), st.Span)
	}
	for _, fs := range st.Files {
		if fs.Skipped.Rows > 0 {
			ew.printf("  %s: skipped %d malformed row%s, the first:\n", fs.Name, fs.Skipped.Rows, plural(fs.Skipped.Rows))
			fs.Skipped.write(ew)
		}
	}
	in, out := opts.fallbackLengths()
	for _, fs := range st.Files {
		if fs.NoLengths {
			ew.printf("  %s: no length PMFs: every request %d:%d tokens (--lengths IN:OUT)\n", fs.Name, in, out)
		}
		if fs.Failed > 0 {
			ew.printf("  %s: left out %d failed request%s (0 response tokens)\n", fs.Name, fs.Failed, plural(fs.Failed))
		}
	}
	if st.Capped > 0 {
		ew.printf("  capped %d session%s to --max-context %d tokens\n", st.Capped, plural(st.Capped), opts.Reshape.MaxContext)
	}
	ew.printf("workload %s\n", st.Hash)
	return ew.err
}

// writeShareGPT is WriteText for the conversations of a ShareGPT file.
func (st Stats) writeShareGPT(ew *errWriter, name string, opts ImportOptions) {
	ew.printf("surge import: %d conversations from %s over %v, tokens in %s\n", st.Sessions, name, st.Span, opts.Tokenizer)
	if sk := st.Files[0].Skipped; sk.Rows > 0 {
		ew.printf("  skipped %d malformed conversation%s, the first:\n", sk.Rows, plural(sk.Rows))
		sk.write(ew)
	}
	if k := st.Truncated; k > 0 {
		ew.printf("  cut %d conversation%s short (a broken human/gpt alternation, an empty message or --max-context)\n", k, plural(k))
	}
	if k := st.Dropped; k > 0 {
		ew.printf("  left out %d conversation%s whose first turn exceeds --max-context %d\n", k, plural(k), opts.Reshape.MaxContext)
	}
	ew.printf("workload %s\n", st.Hash)
}

// write lists the first rows skipped.
func (s Skips) write(ew *errWriter) {
	for _, e := range s.First {
		ew.printf("    %v\n", e)
	}
}

// errWriter writes to w until the first error, which it keeps.
type errWriter struct {
	w   io.Writer
	err error
}

// printf formats to the writer unless a write has failed.
func (ew *errWriter) printf(format string, args ...any) {
	if ew.err == nil {
		_, ew.err = fmt.Fprintf(ew.w, format, args...)
	}
}

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
