package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"surge/content"
	"surge/trace/importers"
)

type importFlags struct {
	format      string
	out         string
	speed       float64
	concurrency int
	client      string
	model       string
	window      string
	rate        float64
	maxContext  int
	sample      float64
	skipBad     bool
	tokenizer   string
	arrivals    string
	seed        uint64
	think       time.Duration
	columns     string
	timeUnit    string
	lengths     string
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

Formats (detected from each file's first line, or forced with --format):
  azure     Azure LLM inference traces, 2023 and 2024 CSV
            (TIMESTAMP,ContextTokens,GeneratedTokens)
  vidur     Vidur's splitwise_*.csv (arrived_at,num_prefill_tokens,...)
  mooncake  Mooncake JSON Lines (timestamp ms, input_length,
            output_length, hash_ids of 512-token blocks)
  weka      WEKA agentic conversations, a JSON file each
  weka-csv  the same conversations flattened to one CSV, a row per request
            (with sub-agent streams; block counts instead of hash ids)
  sharegpt  ShareGPT conversations, a JSON array of {id, conversations:
            [{from, value}]}: real text, a turn per answered message
  burstgpt  BurstGPT CSV (Timestamp,Model,Request tokens,Response tokens,
            Total tokens,Log Type), a client per model and log type
  servegen  ServeGen per-client window CSV (no header; start,rate,cv,
            pattern,shape,scale): requests generated per 10-minute window
            (--seed), lengths from the chunk-N-dataset.json beside it
  csv,      any CSV with a header, or JSON Lines, read by --columns
  jsonl     at=F,input=F,output=F[,client=F][,session=F] (times in
            --time-unit s, ms, us or iso); rows of a session become the
            turns of a conversation, waits the gaps between them
azure, vidur, mooncake and burstgpt become open-loop requests at their
offsets from the file's first row, one client per file (burstgpt: per
model and log type); weka conversations run closed loop, --concurrency at
a time, think times divided by --speed. ShareGPT records no times: its
conversations start at --rate per second (Poisson, --seed; or --arrivals
even), or without --rate run closed loop; --think waits between turns.

Most formats give lengths and content blocks, not text: surge sim and
surge inspect take them as they are, and surge run writes text for them.
ShareGPT gives its own text, token counts in --tokenizer, which surge run
sends as it is. See docs/import.md.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runImport(c, args, f) },
	}
	fs := c.Flags()
	fs.StringVar(&f.format, "format", "auto", "format of the files: auto, azure, vidur, mooncake, weka, weka-csv, sharegpt, burstgpt, servegen, csv or jsonl")
	fs.StringVarP(&f.out, "output", "o", "-", "trace file to write (- for stdout)")
	fs.Float64Var(&f.speed, "speed", 1, "replay this many times faster: offsets (or think times) divided by it")
	fs.IntVar(&f.concurrency, "concurrency", 4, "weka: sessions in flight when replayed")
	fs.StringVar(&f.client, "client", "", "client name (default: weka, or each file's base name); with several files, NAME-1, NAME-2, …")
	fs.StringVar(&f.model, "model", "", "model name for traces that record none (default: left to surge run or sim)")
	fs.StringVar(&f.window, "window", "", "keep requests arriving in FROM-TO of the trace's own offsets (10m-20m, 600-1200, 30m-), starting the replay at FROM")
	fs.Float64Var(&f.rate, "rate", 0, "rescale offsets to this mean rate per second, keeping the burst shape; sharegpt: conversations per second")
	fs.IntVar(&f.maxContext, "max-context", 0, "cap each request's input plus output to N tokens, keeping the output")
	fs.Float64Var(&f.sample, "sample", 1, "keep this fraction of sessions, chosen by a hash of each one's index")
	fs.BoolVar(&f.skipBad, "skip-bad", false, "skip malformed or out-of-order rows, counting them, instead of stopping")
	fs.StringVar(&f.tokenizer, "tokenizer", "o200k_base", "sharegpt: the tokenizer counting the text's tokens (o200k_base, cl100k_base, or a tokenizer.json or model folder)")
	fs.StringVar(&f.arrivals, "arrivals", "poisson", "sharegpt with --rate: poisson or even starts")
	fs.Uint64Var(&f.seed, "seed", 1, "sharegpt, servegen: seed of the generated starts (and servegen's lengths)")
	fs.StringVar(&f.lengths, "lengths", "1024:256", "servegen: IN:OUT tokens of every request of a client with no length PMFs")
	fs.DurationVar(&f.think, "think", 0, "sharegpt: wait between a reply and the next turn")
	fs.StringVar(&f.columns, "columns", "", "csv, jsonl: the fields to read, at=F,input=F,output=F[,client=F][,session=F]")
	fs.StringVar(&f.timeUnit, "time-unit", "s", "csv, jsonl: the unit of the at field: s, ms, us, or iso for ISO 8601 date-times")
	return c
}

func runImport(c *cobra.Command, files []string, f importFlags) error {
	shape, err := f.reshape()
	if err != nil {
		return usageError{err}
	}
	format, err := detectFormat(files, f.format, f.columns != "")
	if err != nil {
		return err
	}
	if err := f.checkColumns(format); err != nil {
		return usageError{err}
	}
	opts, err := f.options(files, format, shape)
	if err != nil {
		return err
	}
	out, commit, err := createOutput(c, f.out)
	if err != nil {
		return err
	}
	st, err := importers.Import(c.Context(), out, osFS{}, files, opts)
	if cerr := commit(err == nil); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	st.WriteText(c.ErrOrStderr(), files, opts) // a note on stderr: failing to write it does not fail the import
	return nil
}

// options checks the flags that apply to format and returns the import's
// options.
func (f importFlags) options(files []string, format importers.Format, shape importers.Reshape) (importers.ImportOptions, error) {
	opts := importers.ImportOptions{
		Format: format, Client: f.client, Model: f.model, SkipBad: f.skipBad, Reshape: shape,
		Speed: f.speed, Rate: f.rate, Concurrency: f.concurrency, TimeUnit: f.timeUnit,
		Seed: f.seed, Even: f.arrivals == "even", Think: f.think,
	}
	opts.Columns, _ = importers.ParseColumns(f.columns) // checked by checkColumns
	var err error
	switch format {
	case importers.FormatShareGPT:
		err = f.shareGPT(files, &opts)
	case importers.FormatWEKA, importers.FormatWEKACSV:
		switch {
		case f.window != "" || f.rate > 0:
			err = usageError{errors.New("--window and --rate do not apply to weka conversations, which run closed loop")}
		case format == importers.FormatWEKACSV && len(files) > 1:
			err = usageError{fmt.Errorf("weka-csv: give one file, not %d: each holds every conversation", len(files))}
		}
	case importers.FormatServeGen:
		if opts.Input, opts.Output, err = importers.ParseLengths(f.lengths); err != nil {
			err = fmt.Errorf("import %s: --lengths %w", files[0], err)
		}
	}
	return opts, err
}

// shareGPT checks the flags of a ShareGPT import and loads --tokenizer
// into opts.
func (f importFlags) shareGPT(files []string, opts *importers.ImportOptions) error {
	switch {
	case len(files) > 1:
		return usageError{fmt.Errorf("sharegpt: give one file, not %d", len(files))}
	case f.window != "":
		return usageError{errors.New("--window does not apply to sharegpt, which records no times")}
	case f.arrivals != "poisson" && f.arrivals != "even":
		return usageError{fmt.Errorf("--arrivals %q: want poisson or even", f.arrivals)}
	case f.think < 0:
		return usageError{fmt.Errorf("--think %v: want a duration ≥ 0", f.think)}
	}
	tok, err := openTokenizer(f.tokenizer)
	if err != nil {
		return usageError{fmt.Errorf("--tokenizer: %w", err)}
	}
	opts.Count = func(s string) int { return len(tok.Encode(s)) }
	opts.Tokenizer, opts.TokenizerHash = tok.Name(), content.Fingerprint(tok)
	return nil
}

// detectFormat returns the files' format: --format, or detected from
// each file's first bytes (with a column mapping, csv or jsonl).
func detectFormat(files []string, force string, mapped bool) (importers.Format, error) {
	if force == "auto" {
		return importers.DetectFiles(osFS{}, files, mapped)
	}
	format, err := importers.ParseFormat(force)
	if err != nil {
		return "", usageError{fmt.Errorf("--format %w", err)}
	}
	return format, nil
}

// osFS opens files by the paths the user gave, relative to the working
// directory or absolute, which fs.ValidPath would refuse: errors and
// client names then show each path as it was typed.
type osFS struct{}

// Open opens the file at path.
func (osFS) Open(path string) (fs.File, error) { return os.Open(path) }

// checkColumns checks --columns and --time-unit: given exactly for the
// csv and jsonl formats.
func (f importFlags) checkColumns(format importers.Format) error {
	generic := format == importers.FormatCSV || format == importers.FormatJSONL
	switch {
	case generic && f.columns == "":
		return fmt.Errorf("%s: give --columns at=F,input=F,output=F[,client=F][,session=F]", format)
	case !generic && f.columns != "":
		return fmt.Errorf("--columns is for the csv and jsonl formats, not %s", format)
	case !slices.Contains(importers.TimeUnits, f.timeUnit):
		return fmt.Errorf("--time-unit %q: want one of %s", f.timeUnit, strings.Join(importers.TimeUnits, ", "))
	}
	if generic {
		if _, err := importers.ParseColumns(f.columns); err != nil {
			return fmt.Errorf("--columns: %w", err)
		}
	}
	return nil
}

// reshape checks the flags and returns what they ask of the sessions,
// the time scale from --speed alone.
func (f importFlags) reshape() (importers.Reshape, error) {
	switch {
	case !(f.speed > 0) || math.IsInf(f.speed, 0):
		return importers.Reshape{}, fmt.Errorf("--speed %g: want a positive factor", f.speed)
	case f.speed != 1 && f.rate > 0:
		return importers.Reshape{}, errors.New("--speed and --rate both set the time scale: give one")
	case !(f.rate >= 0) || math.IsInf(f.rate, 0):
		return importers.Reshape{}, fmt.Errorf("--rate %g: want a positive rate per second", f.rate)
	case f.concurrency < 1:
		return importers.Reshape{}, fmt.Errorf("--concurrency %d: want at least 1", f.concurrency)
	case f.sample <= 0 || f.sample > 1:
		return importers.Reshape{}, fmt.Errorf("--sample %g: want a fraction in (0, 1]", f.sample)
	}
	r := importers.Reshape{Scale: 1 / f.speed, Sample: f.sample, MaxContext: f.maxContext}
	var err error
	if r.From, r.To, err = importers.ParseWindow(f.window); err != nil {
		return r, fmt.Errorf("--window %q: %w", f.window, err)
	}
	if err := r.Validate(); err != nil {
		return r, fmt.Errorf("--window, --max-context: %w", err)
	}
	return r, nil
}
