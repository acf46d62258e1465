package importers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"surge/trace"
)

// ImportOptions say how Import reads a trace and shapes its replay. The
// zero value imports the files as recorded, in the format detected.
type ImportOptions struct {
	// Format is the files' format; empty detects it (DetectFiles), as csv
	// or jsonl when Columns is given.
	Format Format
	// Client names the sessions' client (empty: after each file's base
	// name; weka and sharegpt for those formats); with several files,
	// Client-1, Client-2, ….
	Client string
	// Model names the sessions' model for traces that record none.
	Model string
	// SkipBad skips malformed and out-of-order rows, counting them in the
	// Stats, instead of stopping at the first.
	SkipBad bool
	// Reshape selects, samples and caps the sessions; its Scale is set
	// from Speed, or from Rate.
	Reshape Reshape
	// Speed divides offsets (WEKA and ShareGPT: think times) to replay
	// faster (0: 1).
	Speed float64
	// Rate rescales the offsets of a trace of requests to this mean rate
	// per second, keeping the burst shape, reading the files twice; for
	// ShareGPT, and a csv or jsonl file of lengths without times, it
	// starts sessions at this rate (Poisson from Seed, or Even; 0: closed
	// loop).
	Rate float64
	// Concurrency is how many sessions of a closed-loop client (WEKA, and
	// ShareGPT or a file of lengths without Rate) are in flight when
	// replayed (0: 1).
	Concurrency int
	// Columns and TimeUnit read the csv and jsonl formats.
	Columns  Columns
	TimeUnit string
	// Seed seeds ShareGPT's and lengths-only files' Poisson starts and
	// ServeGen's arrivals and lengths.
	Seed uint64
	// Input and Output are ServeGen's lengths of every request of a
	// client with no length PMFs (both 0: 1024 and 256).
	Input, Output int
	// Count counts the tokens of a ShareGPT text in the tokenizer that
	// Tokenizer and TokenizerHash name in the trace's header.
	Count                    func(string) int
	Tokenizer, TokenizerHash string
	// Even spaces ShareGPT's and lengths-only files' starts 1/Rate apart
	// instead of as a Poisson process.
	Even bool
	// Think is ShareGPT's wait between a reply and the next turn, before
	// Speed divides it.
	Think time.Duration
}

// Stats are what Import wrote.
type Stats struct {
	Format   Format
	Sessions int           // sessions written
	Span     time.Duration // the last start offset, to the millisecond
	Hash     string        // the workload hash
	Capped   int           // sessions with a turn capped to Reshape.MaxContext
	// Files are the files of a trace of requests, and ShareGPT's file.
	Files []FileStats
	// Truncated and Dropped are ShareGPT's conversations cut short, and
	// left out because their first turn exceeds Reshape.MaxContext.
	Truncated, Dropped int
	// Summary is what an import of the WEKA summary CSV left out.
	Summary SummaryStats
}

// FileStats are what one file of an import held that was not imported.
type FileStats struct {
	Name      string
	Skipped   Skips // malformed rows skipped, with SkipBad
	NoLengths bool  // a ServeGen client without length PMFs
	Failed    int   // BurstGPT's failed requests left out
}

// Import reads the named files of fsys and writes them to w as a surge
// trace, as it reads them, in bounded memory, once opts pass Check:
// requests at their offsets (a client per file, or per model and log
// type, or per client field), WEKA conversations closed loop, or ShareGPT
// conversations with their text. Nothing is written before the files'
// headers have been read. An import that keeps no session is an error.
func Import(ctx context.Context, w io.Writer, fsys fs.FS, names []string, opts ImportOptions) (Stats, error) {
	ts := &traceSink{w: w}
	st, err := ImportTo(ctx, ts, fsys, names, opts)
	if err != nil {
		return st, err
	}
	if st.Hash, err = ts.tw.Close(); err != nil {
		return Stats{}, fmt.Errorf("import: %w", err)
	}
	return st, nil
}

// Sink receives an import: the header of its trace, then each session
// in start order.
type Sink interface {
	Header(trace.Header) error
	Write(*trace.Session) error
}

// ImportTo is Import handing the trace to sink instead of writing it:
// the header once the files' headers have been read, then each session
// as it is read. Stats.Hash is left empty.
func ImportTo(ctx context.Context, sink Sink, fsys fs.FS, names []string, opts ImportOptions) (Stats, error) {
	opts, err := opts.Detected(fsys, names)
	if err != nil {
		return Stats{}, err
	}
	format := opts.Format
	if err := opts.Check(names); err != nil {
		return Stats{}, fmt.Errorf("import: %w", err)
	}
	switch format {
	case FormatShareGPT:
		return importShareGPT(ctx, sink, fsys, names, opts)
	case FormatWEKA, FormatWEKACSV, FormatWEKASummary:
		return importConversations(ctx, sink, fsys, names, opts)
	}
	return importRequests(ctx, sink, fsys, names, opts)
}

// traceSink writes an import as a surge trace.
type traceSink struct {
	w  io.Writer
	tw *trace.Writer
}

// Header writes the trace's header.
func (t *traceSink) Header(h trace.Header) error {
	tw, err := trace.NewWriter(t.w, h)
	t.tw = tw
	return err
}

// Write writes a session.
func (t *traceSink) Write(s *trace.Session) error { return t.tw.Write(s) }

// lengthsOnly reports whether o reads a generic file of lengths without
// times, whose arrivals the import chooses: Rate a second, or closed loop.
func (o ImportOptions) lengthsOnly() bool {
	return (o.Format == FormatCSV || o.Format == FormatJSONL) && o.Columns.At == "" && o.Columns != Columns{}
}

// speed returns o.Speed, 1 for 0.
func (o ImportOptions) speed() float64 {
	if o.Speed == 0 {
		return 1
	}
	return o.Speed
}

// fallbackLengths returns o.Input and o.Output, 1024 and 256 for both 0.
func (o ImportOptions) fallbackLengths() (in, out int) {
	if o.Input == 0 && o.Output == 0 {
		return 1024, 256
	}
	return o.Input, o.Output
}

// importRequests writes a trace of the files' requests as it reads them.
func importRequests(ctx context.Context, w Sink, fsys fs.FS, names []string, opts ImportOptions) (Stats, error) {
	shape := opts.Reshape
	shape.Scale = 1 / opts.speed()
	if opts.Rate > 0 && !opts.lengthsOnly() { // a file of lengths is paced at Rate instead
		var err error
		if shape.Scale, err = rateScale(fsys, names, opts); err != nil {
			return Stats{}, err
		}
	}
	if err := shape.Validate(); err != nil {
		return Stats{}, fmt.Errorf("import: %w", err)
	}
	rq, err := OpenRequests(fsys, names, opts)
	if err != nil {
		return Stats{}, err
	}
	defer rq.Close()
	clients := rq.clients
	if _, ok := rq.streams[0].(clientLister); ok {
		if clients, err = listClients(fsys, names, opts); err != nil {
			return Stats{}, err
		}
	}
	h := trace.Header{Name: "import:" + string(opts.Format)}
	for _, name := range clients {
		info := trace.ClientInfo{Name: name, Model: opts.Model}
		if opts.lengthsOnly() && opts.Rate == 0 {
			info.Concurrency = max(opts.Concurrency, 1) // lengths without times, replayed closed loop
		}
		h.Clients = append(h.Clients, info)
	}
	rs := NewReshaped(rq, shape)
	st, err := write(ctx, w, h, shape.keepsAll(), drainInto(rs))
	if err != nil {
		return st, err
	}
	st.Format, st.Capped = opts.Format, rs.Capped()
	for i, src := range rq.streams {
		fst := FileStats{Name: names[i], Skipped: src.Skipped()}
		if sg, ok := src.(*ServeGen); ok {
			fst.NoLengths = !sg.HasLengths()
		}
		if b, ok := src.(*BurstGPT); ok {
			fst.Failed = b.Failed()
		}
		st.Files = append(st.Files, fst)
	}
	return st, nil
}

// rateScale reads the files once to find the mean rate of the sessions
// the window and sample keep, and returns the factor, observed/target,
// that scales their offsets to the target rate.
func rateScale(fsys fs.FS, names []string, opts ImportOptions) (float64, error) {
	rq, err := OpenRequests(fsys, names, opts)
	if err != nil {
		return 0, err
	}
	defer rq.Close()
	r := opts.Reshape
	o, err := Observe(NewReshaped(rq, Reshape{From: r.From, To: r.To, Sample: r.Sample}))
	if err != nil {
		return 0, fmt.Errorf("import: %w", err)
	}
	if o.Rate() == 0 {
		return 0, fmt.Errorf("import: --rate: the %d sessions kept span no time, so they have no rate to rescale", o.Sessions)
	}
	scale := o.Rate() / opts.Rate
	if scale > 1e6 {
		return 0, fmt.Errorf("import: --rate %g: the sessions kept arrive at %.3g/s, so the trace would stretch %.3g times; want at most a million", opts.Rate, o.Rate(), scale)
	}
	return scale, nil
}

// listClients reads the files once to find their clients, for the
// trace's header.
func listClients(fsys fs.FS, names []string, opts ImportOptions) ([]string, error) {
	rq, err := OpenRequests(fsys, names, opts)
	if err != nil {
		return nil, err
	}
	defer rq.Close()
	if _, err := Observe(rq); err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	return rq.clientList(), nil
}

// importConversations writes a trace of WEKA conversations, a
// closed-loop session each: a JSON file each, or all of them in one
// flattened CSV.
func importConversations(ctx context.Context, w Sink, fsys fs.FS, names []string, opts ImportOptions) (Stats, error) {
	client := opts.Client
	if client == "" {
		client = "weka"
	}
	shape := opts.Reshape
	shape.Scale = 1 // Speed divides the think times instead
	rs := NewReshaped(nil, shape)
	h := trace.Header{Name: "import:" + string(opts.Format),
		Clients: []trace.ClientInfo{{Name: client, Model: opts.Model, Concurrency: max(opts.Concurrency, 1)}}}
	wopts := WEKAOptions{Speed: opts.Speed}
	var sum SummaryStats
	st, err := write(ctx, w, h, shape.keepsAll(), func(write func(*trace.Session) error) error {
		keep := func(s *trace.Session) error {
			if rs.Full() {
				return errLimit
			}
			if !rs.Apply(s) {
				return nil
			}
			if opts.Model != "" {
				s.Model = opts.Model
			}
			return write(s)
		}
		switch opts.Format {
		case FormatWEKACSV:
			return limited(readWEKACSV(fsys, names[0], client, wopts, keep))
		case FormatWEKASummary:
			var err error
			sum, err = readWEKASummary(fsys, names[0], client, SummaryOptions{Speed: opts.Speed, Output: opts.Output}, keep)
			return limited(err)
		}
		for i, name := range names {
			if rs.Full() {
				return nil
			}
			s, err := readWEKA(fsys, name, client, wopts, i)
			if err != nil {
				return err
			}
			if err := keep(s); err != nil {
				return limited(err)
			}
		}
		return nil
	})
	st.Format, st.Capped, st.Summary = opts.Format, rs.Capped(), sum
	return st, err
}

// errLimit stops a reading of conversations once Reshape.Limit of them
// were kept.
var errLimit = errors.New("import: limit reached")

// limited returns err, nil for errLimit.
func limited(err error) error {
	if errors.Is(err, errLimit) {
		return nil
	}
	return err
}

// readWEKACSV reads the flattened WEKA requests CSV, handing each
// conversation to keep.
func readWEKACSV(fsys fs.FS, name, client string, opts WEKAOptions, keep func(*trace.Session) error) error {
	file, err := fsys.Open(name)
	if err != nil {
		return err
	}
	defer file.Close()
	if err := WEKARequests(file, client, opts, keep); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// readWEKASummary reads the WEKA summary CSV, handing each conversation
// to keep; without opts.Output, after a first reading that chooses it
// (SummaryAnswers).
func readWEKASummary(fsys fs.FS, name, client string, opts SummaryOptions, keep func(*trace.Session) error) (SummaryStats, error) {
	bound := opts.Output == 0
	if bound {
		out, err := readFile(fsys, name, SummaryAnswers)
		if err != nil {
			return SummaryStats{}, err
		}
		opts.Output = out
	}
	st, err := readFile(fsys, name, func(r io.Reader) (SummaryStats, error) { return WEKASummaries(r, client, opts, keep) })
	st.Output, st.Bound = opts.Output, bound
	return st, err
}

// readFile opens name and reads it with read, naming the file in errors.
func readFile[T any](fsys fs.FS, name string, read func(io.Reader) (T, error)) (T, error) {
	file, err := fsys.Open(name)
	if err != nil {
		var zero T
		return zero, err
	}
	defer file.Close()
	v, err := read(file)
	if err != nil {
		return v, fmt.Errorf("%s: %w", name, err)
	}
	return v, nil
}

// readWEKA reads one WEKA conversation file as session i.
func readWEKA(fsys fs.FS, name, client string, opts WEKAOptions, i int) (*trace.Session, error) {
	file, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	s, err := WEKA(file, client, i, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

// importShareGPT writes a trace of the ShareGPT conversations of one
// file, with their text: open loop at opts.Rate, or closed loop without
// one.
func importShareGPT(ctx context.Context, w Sink, fsys fs.FS, names []string, opts ImportOptions) (Stats, error) {
	file, err := fsys.Open(names[0])
	if err != nil {
		return Stats{}, fmt.Errorf("import: %w", err)
	}
	defer file.Close()
	client := opts.Client
	if client == "" {
		client = "sharegpt"
	}
	sg, err := NewShareGPT(file, ShareGPTOptions{
		Options: Options{Name: names[0], Client: client, Model: opts.Model, SkipBad: opts.SkipBad},
		Count:   opts.Count,
		Rate:    opts.Rate, Even: opts.Even, Seed: opts.Seed,
		Think: time.Duration(float64(opts.Think) / opts.speed()), MaxContext: opts.Reshape.MaxContext,
	})
	if err != nil {
		return Stats{}, fmt.Errorf("import: %w", err)
	}
	// Rate paces the conversations and Speed divides Think; the context
	// cap ends conversations whole turns early, keeping text.
	shape := opts.Reshape
	shape.Scale, shape.MaxContext = 1, 0
	info := trace.ClientInfo{Name: client, Model: opts.Model, History: trace.HistoryPinned}
	if opts.Rate == 0 {
		info.Concurrency = max(opts.Concurrency, 1)
	}
	h := trace.Header{Name: "import:sharegpt", Tokenizer: opts.Tokenizer, TokenizerHash: opts.TokenizerHash,
		Text: true, Clients: []trace.ClientInfo{info}}
	st, err := write(ctx, w, h, shape.keepsAll(), drainInto(NewReshaped(sg, shape)))
	if err != nil {
		return st, err
	}
	st.Format = FormatShareGPT
	st.Files = []FileStats{{Name: names[0], Skipped: sg.Skipped()}}
	st.Truncated, st.Dropped = sg.Truncated(), sg.Dropped()
	return st, nil
}

// write hands sink the header h and the sessions fill hands to write, as
// it hands them, stopping when ctx is done. kept says the import keeps
// every session (no window or sample), for the error of an empty one.
func write(ctx context.Context, sink Sink, h trace.Header, kept bool, fill func(write func(*trace.Session) error) error) (Stats, error) {
	if err := sink.Header(h); err != nil {
		return Stats{}, fmt.Errorf("import: %w", err)
	}
	var span time.Duration
	n := 0
	err := fill(func(s *trace.Session) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		span = s.At()
		n++
		return sink.Write(s)
	})
	var re *RowError
	switch {
	case errors.As(err, &re):
		return Stats{}, fmt.Errorf("import: %w (--skip-bad skips such rows)", err)
	case err != nil:
		return Stats{}, fmt.Errorf("import: %w", err)
	case n == 0 && kept:
		return Stats{}, errors.New("import: no sessions to write: the files hold no requests")
	case n == 0:
		return Stats{}, errors.New("import: no sessions to write: the window or sample kept none")
	}
	return Stats{Sessions: n, Span: span.Round(time.Millisecond)}, nil
}

// drainInto hands every session of src to write.
func drainInto(src Source) func(write func(*trace.Session) error) error {
	return func(write func(*trace.Session) error) error {
		for {
			s, err := src.Next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if err := write(s); err != nil {
				return err
			}
		}
	}
}
