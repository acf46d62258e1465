package importers

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"surge/trace"
)

// Requests is a Source of the sessions of the files of a request-level
// trace, merged in start order, a client each (BurstGPT, and a column
// mapping with a client field: a client per model and log type, or per
// client field). It holds its files open until Close. It is not safe for
// concurrent use.
type Requests struct {
	files   []fs.File
	names   []string
	streams []requestSource
	clients []string
	merged  Source
}

// requestSource is the source of one file of a request-level import.
type requestSource interface {
	Source
	Skipped() Skips
}

// clientLister is a source naming the clients of its sessions as it
// reads them (BurstGPT, and generic traces).
type clientLister interface {
	Clients() []string
}

// OpenRequests opens the named files of fsys, of a request-level format
// (opts.Format, or detected when empty, ImportOptions.Detected), checks opts (Check) and reads
// their headers. File i is client i (opts.Client, numbered when there are
// several files, or else named after the file) and its block ids are
// scoped by i+1.
func OpenRequests(fsys fs.FS, names []string, opts ImportOptions) (*Requests, error) {
	opts, err := opts.Detected(fsys, names)
	if err != nil {
		return nil, err
	}
	format := opts.Format
	if err := opts.Check(names); err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	if !isRequests(format) {
		return nil, fmt.Errorf("import: %s is not a trace of requests at offsets", format)
	}
	rq := &Requests{names: names, clients: clientNames(names, opts.Client)}
	if format == FormatServeGen && opts.Client == "" {
		rq.clients = serveGenClients(names)
	}
	for i := range names {
		st, err := rq.open(fsys, i, format, opts)
		if err != nil {
			rq.Close()
			return nil, err
		}
		rq.streams = append(rq.streams, st)
	}
	srcs := make([]Source, len(rq.streams))
	for i, st := range rq.streams {
		srcs[i] = st
	}
	rq.merged = Merge(srcs...)
	return rq, nil
}

// isRequests reports whether format is read as requests at offsets, a
// file at a time and merged, rather than as conversations.
func isRequests(format Format) bool {
	switch format {
	case FormatWEKA, FormatWEKACSV, FormatWEKASummary, FormatShareGPT:
		return false
	}
	return true
}

// open opens file i and returns its source.
func (rq *Requests) open(fsys fs.FS, i int, format Format, o ImportOptions) (requestSource, error) {
	name := rq.names[i]
	file, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	rq.files = append(rq.files, file)
	opts := Options{Name: name, Client: rq.clients[i], Model: o.Model, Scope: uint64(i + 1), SkipBad: o.SkipBad}
	var st requestSource
	switch format {
	case FormatAzure:
		st, err = NewAzure(file, opts)
	case FormatVidur:
		st, err = NewVidur(file, opts)
	case FormatMooncake:
		st = NewMooncake(file, opts)
	case FormatBurstGPT:
		if o.Client == "" && len(rq.names) == 1 {
			opts.Client = "" // the model and log type name the clients
		}
		st, err = NewBurstGPT(file, opts)
	case FormatServeGen:
		st, err = rq.openServeGen(fsys, file, opts, o)
	case FormatCSV, FormatJSONL:
		if o.Columns.Client != "" && o.Client == "" && len(rq.names) == 1 {
			opts.Client = "" // the client field names the clients
		}
		co := ColumnsOptions{Options: opts, Columns: o.Columns, Unit: o.TimeUnit, JSON: format == FormatJSONL}
		if o.lengthsOnly() {
			co.Rate, co.Even, co.Seed = o.Rate, o.Even, o.Seed
		}
		st, err = NewColumns(file, co)
	default:
		err = fmt.Errorf("unknown format %q", format)
	}
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", name, err)
	}
	return st, nil
}

// openServeGen returns the source of a ServeGen client's window CSV, with
// the length PMFs of the chunk-N-dataset.json beside chunk-N-trace.csv
// when there is one, generating only the windows o.Reshape keeps.
func (rq *Requests) openServeGen(fsys fs.FS, file io.Reader, opts Options, o ImportOptions) (*ServeGen, error) {
	in, out := o.fallbackLengths()
	sopts := ServeGenOptions{Options: opts, Seed: o.Seed, From: o.Reshape.From, To: o.Reshape.To, Input: in, Output: out}
	lengths, err := serveGenLengths(fsys, opts.Name)
	if err != nil {
		return nil, err
	}
	if lengths == nil {
		return NewServeGen(file, nil, sopts)
	}
	rq.files = append(rq.files, lengths)
	return NewServeGen(file, lengths, sopts)
}

// Next returns the earliest next session of the files, or io.EOF after
// the last.
func (rq *Requests) Next() (*trace.Session, error) { return rq.merged.Next() }

// Close closes the files.
func (rq *Requests) Close() error {
	var errs []error
	for _, f := range rq.files {
		errs = append(errs, f.Close())
	}
	return errors.Join(errs...)
}

// clientList returns the clients of the files' sessions, for a trace's
// header: those the sources named as they were read, or a client per
// file.
func (rq *Requests) clientList() []string {
	if _, ok := rq.streams[0].(clientLister); !ok {
		return rq.clients
	}
	var names []string
	for _, st := range rq.streams {
		names = append(names, st.(clientLister).Clients()...)
	}
	return names
}
