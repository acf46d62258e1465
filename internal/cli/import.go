package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"surge/harness"
	"surge/internal/hostfs"
	"surge/trace/importers"
)

// importFlags are surge import's flags: those of the import's options
// as they are, and those written as text to be parsed into them.
type importFlags struct {
	opts      importers.ImportOptions
	format    string
	out       string
	window    string
	tokenizer string
	arrivals  string
	columns   string
	lengths   string
}

func newImport() *cobra.Command {
	var f importFlags
	c := &cobra.Command{
		Use:   "import FILE... [--format F] [-o TRACE]",
		Short: "Turn a public trace into a surge trace, for replay and analysis",
		Long: `import reads the files of a public trace and writes a surge trace that
replays it: lengths as exact token counts, arrivals at the trace's offsets
(or, for conversations, waits between their requests), and prefix sharing
as content blocks, so requests the trace says share a prefix share it in
the replay. Files are read as they are written out, in bounded memory.

` + importers.FormatHelp + `

Most formats give lengths and content blocks, not text: surge sim and
surge inspect take them as they are, and surge run writes text for them.
ShareGPT gives its own text, token counts in --tokenizer, which surge run
sends as it is. See docs/import.md.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runImport(c, args, f) },
	}
	fs := c.Flags()
	fs.StringVar(&f.format, "format", "auto", "format of the files: auto, azure, vidur, mooncake, weka, weka-csv, weka-summary, sharegpt, burstgpt, servegen, csv or jsonl")
	fs.StringVarP(&f.out, "output", "o", "-", "trace file to write (- for stdout)")
	f.bind(fs)
	return c
}

// bind binds the import's options, all but --format and --output, to fs:
// surge import's flags, which surge fit takes too.
func (f *importFlags) bind(fs *pflag.FlagSet) {
	fs.Float64Var(&f.opts.Speed, "speed", 1, "replay this many times faster: offsets (or think times) divided by it")
	fs.IntVar(&f.opts.Concurrency, "concurrency", 4, "weka: sessions in flight when replayed")
	fs.StringVar(&f.opts.Client, "client", "", "client name (default: weka, or each file's base name); with several files, NAME-1, NAME-2, …")
	fs.StringVar(&f.opts.Model, "model", "", "model name for traces that record none (default: left to surge run or sim)")
	fs.StringVar(&f.window, "window", "", "keep requests arriving in FROM-TO of the trace's own offsets (10m-20m, 600-1200, 30m-), starting the replay at FROM")
	fs.Float64Var(&f.opts.Rate, "rate", 0, "rescale offsets to this mean rate per second, keeping the burst shape; sharegpt: conversations per second")
	fs.IntVar(&f.opts.Reshape.MaxContext, "max-context", 0, "cap each request's input plus output to N tokens, keeping the output")
	fs.Float64Var(&f.opts.Reshape.Sample, "sample", 1, "keep this fraction of sessions, chosen by a hash of each one's index")
	fs.IntVar(&f.opts.Reshape.Limit, "limit", 0, "keep at most this many sessions, the first in start order (0: all)")
	fs.BoolVar(&f.opts.SkipBad, "skip-bad", false, "skip malformed or out-of-order rows, counting them, instead of stopping")
	fs.StringVar(&f.tokenizer, "tokenizer", "o200k_base", "sharegpt: the tokenizer counting the text's tokens (o200k_base, cl100k_base, or a tokenizer.json or model folder)")
	fs.StringVar(&f.arrivals, "arrivals", "poisson", "sharegpt, files of lengths, with --rate: poisson or even starts")
	fs.Uint64Var(&f.opts.Seed, "seed", 1, "sharegpt, servegen, files of lengths: seed of the generated starts (and servegen's lengths)")
	fs.StringVar(&f.lengths, "lengths", "", "servegen: IN:OUT tokens of every request of a client with no length PMFs (default 1024:256); weka-summary: OUT tokens of every answer (default at most 256, as the conversations' growth allows)")
	fs.DurationVar(&f.opts.Think, "think", 0, "sharegpt: wait between a reply and the next turn")
	fs.StringVar(&f.columns, "columns", "", "csv, jsonl: the fields to read, [at=F,]input=F,output=F[,client=F][,session=F][,category=F] (default: guessed from the names); without at, sessions start at --rate or run closed loop")
	fs.StringVar(&f.opts.TimeUnit, "time-unit", "", "csv, jsonl: the unit of the at field: s, ms, us, ns, or iso for ISO 8601 date-times (default: the field name's, else s)")
}

func runImport(c *cobra.Command, files []string, f importFlags) error {
	opts, err := f.setup(files)
	if err != nil {
		return err
	}
	out, commit, err := hostfs.Create(f.out, c.OutOrStdout())
	if err != nil {
		return err
	}
	st, err := importers.Import(c.Context(), out, hostfs.FS{}, files, opts)
	if cerr := commit(err == nil); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	st.WriteText(c.ErrOrStderr(), files, opts) // a note on stderr: failing to write it does not fail the import
	return nil
}

// setup returns the import's options for files, checked and completed
// (harness.ImportSetup).
func (f importFlags) setup(files []string) (importers.ImportOptions, error) {
	opts, err := f.options()
	if err != nil {
		return opts, usageError{err}
	}
	if err := opts.CheckSet(files); err != nil {
		return opts, usageError{err}
	}
	return harness.ImportSetup(hostfs.FS{}, files, opts, filepath.ToSlash(f.tokenizer))
}

// options returns the import's options, with the flags written as text
// parsed into them; importers.ImportOptions.CheckSet checks the rest.
func (f importFlags) options() (importers.ImportOptions, error) {
	opts := f.opts
	var err error
	if f.format != "auto" {
		opts.Format = importers.Format(f.format)
	}
	if opts.Reshape.From, opts.Reshape.To, err = importers.ParseWindow(f.window); err != nil {
		return opts, fmt.Errorf("--window %q: %w", f.window, err)
	}
	if f.columns != "" {
		if opts.Columns, err = importers.ParseColumns(f.columns); err != nil {
			return opts, fmt.Errorf("--columns: %w", err)
		}
	}
	if opts.Even, err = importers.ParseArrivals(f.arrivals); err != nil {
		return opts, fmt.Errorf("--arrivals %w", err)
	}
	if f.lengths != "" {
		if opts.Input, opts.Output, err = importers.ParseLengths(f.lengths); err != nil {
			return opts, fmt.Errorf("--lengths %w", err)
		}
	}
	return opts, nil
}
