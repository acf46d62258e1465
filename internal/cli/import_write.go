package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"surge/trace"
	"surge/trace/importers"
)

// requestFiles are the open files of a request-level import, a source
// and a client each (BurstGPT: a client prefix, its sources naming a
// client per model and log type).
type requestFiles struct {
	files   []*os.File
	streams []requestSource
	clients []string
}

// requestSource is the source of one file of a request-level import.
type requestSource interface {
	importers.Source
	Skipped() importers.Skips
}

// openRequests opens the files of a request-level import and reads their
// headers; file i's block ids are scoped by i+1.
func openRequests(paths []string, format importers.Format, f importFlags) (*requestFiles, error) {
	rf := &requestFiles{clients: clientNames(paths, f.client)}
	if format == importers.FormatServeGen && f.client == "" {
		rf.clients = serveGenClients(paths)
	}
	for i, path := range paths {
		file, err := os.Open(path)
		if err != nil {
			rf.close()
			return nil, fmt.Errorf("import: %w", err)
		}
		rf.files = append(rf.files, file)
		opts := importers.Options{Name: path, Client: rf.clients[i], Model: f.model, Scope: uint64(i + 1), SkipBad: f.skipBad}
		var st requestSource
		switch format {
		case importers.FormatAzure:
			st, err = importers.NewAzure(file, opts)
		case importers.FormatVidur:
			st, err = importers.NewVidur(file, opts)
		case importers.FormatMooncake:
			st = importers.NewMooncake(file, opts)
		case importers.FormatBurstGPT:
			if f.client == "" && len(paths) == 1 {
				opts.Client = "" // the model and log type name the clients
			}
			st, err = importers.NewBurstGPT(file, opts)
		case importers.FormatServeGen:
			st, err = rf.openServeGen(file, path, opts, f)
		case importers.FormatCSV, importers.FormatJSONL:
			cols, _ := importers.ParseColumns(f.columns) // checked by checkColumns
			if cols.Client != "" && f.client == "" && len(paths) == 1 {
				opts.Client = "" // the client field names the clients
			}
			st, err = importers.NewColumns(file, importers.ColumnsOptions{Options: opts, Columns: cols, Unit: f.timeUnit, JSON: format == importers.FormatJSONL})
		}
		if err != nil {
			rf.close()
			return nil, fmt.Errorf("import %s: %w", path, err)
		}
		rf.streams = append(rf.streams, st)
	}
	return rf, nil
}

// source merges the files' sessions in start order.
func (rf *requestFiles) source() importers.Source {
	srcs := make([]importers.Source, len(rf.streams))
	for i, st := range rf.streams {
		srcs[i] = st
	}
	return importers.Merge(srcs...)
}

func (rf *requestFiles) close() {
	for _, file := range rf.files {
		file.Close()
	}
}

// clientNames names the client of each file: --client, numbered when
// there are several files, or else the file's base name without its
// extension, numbered when two files share one.
func clientNames(paths []string, flag string) []string {
	names := make([]string, len(paths))
	seen := map[string]int{}
	for i, p := range paths {
		switch {
		case flag != "" && len(paths) == 1:
			names[i] = flag
		case flag != "":
			names[i] = fmt.Sprintf("%s-%d", flag, i+1)
		default:
			base := strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))
			seen[base]++
			names[i] = base
			if seen[base] > 1 {
				names[i] = fmt.Sprintf("%s-%d", base, seen[base])
			}
		}
	}
	return names
}

// rateScale reads the files once to find the mean rate of the sessions
// the window and sample keep, and returns the factor, observed/target,
// that scales their offsets to the --rate target.
func rateScale(paths []string, format importers.Format, f importFlags, shape importers.Reshape) (float64, error) {
	rf, err := openRequests(paths, format, f)
	if err != nil {
		return 0, err
	}
	defer rf.close()
	o, err := importers.Observe(importers.NewReshaped(rf.source(), importers.Reshape{From: shape.From, To: shape.To, Sample: shape.Sample}))
	if err != nil {
		return 0, fmt.Errorf("import: %w", err)
	}
	if o.Rate() == 0 {
		return 0, fmt.Errorf("import: --rate: the %d sessions kept span no time, so they have no rate to rescale", o.Sessions)
	}
	scale := o.Rate() / f.rate
	if scale > 1e6 {
		return 0, fmt.Errorf("import: --rate %g: the sessions kept arrive at %.3g/s, so the trace would stretch %.3g times; want at most a million", f.rate, o.Rate(), scale)
	}
	return scale, nil
}

// importRequests writes a trace of the files' requests as it reads them.
func importRequests(c *cobra.Command, paths []string, format importers.Format, f importFlags, shape importers.Reshape) error {
	rf, err := openRequests(paths, format, f)
	if err != nil {
		return err
	}
	defer rf.close()
	h := trace.Header{Name: "import:" + string(format)}
	names := rf.clients
	if _, ok := rf.streams[0].(clientLister); ok {
		if names, err = listClients(paths, format, f); err != nil {
			return err
		}
	}
	for _, name := range names {
		h.Clients = append(h.Clients, trace.ClientInfo{Name: name, Model: f.model})
	}
	rs := importers.NewReshaped(rf.source(), shape)
	n, span, hash, err := writeImport(c, f.out, h, drainInto(rs))
	if err != nil {
		return err
	}
	w := c.ErrOrStderr()
	fmt.Fprintf(w, "surge import: %d sessions from %d %s file%s over %v\n", n, len(paths), format, plural(len(paths)), span)
	for i, st := range rf.streams {
		if sk := st.Skipped(); sk.Rows > 0 {
			fmt.Fprintf(w, "  %s: skipped %d malformed row%s, the first:\n", paths[i], sk.Rows, plural(sk.Rows))
			for _, e := range sk.First {
				fmt.Fprintf(w, "    %v\n", e)
			}
		}
	}
	for i, st := range rf.streams {
		if sg, ok := st.(*importers.ServeGen); ok && !sg.HasLengths() {
			fmt.Fprintf(w, "  %s: no length PMFs: every request %s tokens (--lengths IN:OUT)\n", paths[i], pick(f.lengths, "1024:256"))
		}
		if b, ok := st.(*importers.BurstGPT); ok && b.Failed() > 0 {
			fmt.Fprintf(w, "  %s: left out %d failed request%s (0 response tokens)\n", paths[i], b.Failed(), plural(b.Failed()))
		}
	}
	if rs.Capped() > 0 {
		fmt.Fprintf(w, "  capped %d session%s to --max-context %d tokens\n", rs.Capped(), plural(rs.Capped()), f.maxContext)
	}
	fmt.Fprintf(w, "workload %s\n", hash)
	return nil
}

// importConversations writes a trace of WEKA conversations, a
// closed-loop session each: a JSON file each, or all of them in one
// flattened CSV.
func importConversations(c *cobra.Command, paths []string, format importers.Format, f importFlags, shape importers.Reshape) error {
	if format == importers.FormatWEKACSV && len(paths) > 1 {
		return usageError{fmt.Errorf("weka-csv: give one file, not %d: each holds every conversation", len(paths))}
	}
	client := pick(f.client, "weka")
	shape.Scale = 1 // --speed divides the think times instead
	rs := importers.NewReshaped(nil, shape)
	h := trace.Header{Name: "import:" + string(format),
		Clients: []trace.ClientInfo{{Name: client, Model: f.model, Concurrency: f.concurrency}}}
	opts := importers.WEKAOptions{Speed: f.speed}
	n, _, hash, err := writeImport(c, f.out, h, func(write func(*trace.Session) error) error {
		keep := func(s *trace.Session) error {
			if !rs.Apply(s) {
				return nil
			}
			s.Model = pick(f.model, s.Model)
			return write(s)
		}
		if format == importers.FormatWEKACSV {
			return importWEKACSV(paths[0], client, opts, keep)
		}
		for i, path := range paths {
			s, err := importWEKA(path, client, opts, i)
			if err != nil {
				return err
			}
			if err := keep(s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	w := c.ErrOrStderr()
	fmt.Fprintf(w, "surge import: %d sessions from %d %s file%s\n", n, len(paths), format, plural(len(paths)))
	if rs.Capped() > 0 {
		fmt.Fprintf(w, "  capped %d session%s to --max-context %d tokens\n", rs.Capped(), plural(rs.Capped()), f.maxContext)
	}
	fmt.Fprintf(w, "workload %s\n", hash)
	return nil
}

// importWEKACSV reads the flattened WEKA requests CSV, handing each
// conversation to keep.
func importWEKACSV(path, client string, opts importers.WEKAOptions, keep func(*trace.Session) error) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	if err := importers.WEKARequests(file, client, opts, keep); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// importWEKA reads one WEKA conversation file as session i.
func importWEKA(path, client string, opts importers.WEKAOptions, i int) (*trace.Session, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	s, err := importers.WEKA(file, client, i, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// writeImport writes a trace of h and the sessions fill hands to write,
// as it hands them, and returns how many it wrote, the last start offset
// and the workload hash. A failed import leaves no file behind.
func writeImport(c *cobra.Command, path string, h trace.Header, fill func(write func(*trace.Session) error) error) (n int, span time.Duration, hash string, err error) {
	out, commit, err := createOutput(c, path)
	if err != nil {
		return 0, 0, "", err
	}
	defer func() {
		if cerr := commit(err == nil); err == nil {
			err = cerr
		}
	}()
	tw, err := trace.NewWriter(out, h)
	if err != nil {
		return 0, 0, "", fmt.Errorf("import: %w", err)
	}
	err = fill(func(s *trace.Session) error {
		span = s.At()
		return tw.Write(s)
	})
	var re *importers.RowError
	switch {
	case errors.As(err, &re):
		return 0, 0, "", fmt.Errorf("import: %w (--skip-bad skips such rows)", err)
	case err != nil:
		return 0, 0, "", fmt.Errorf("import: %w", err)
	case tw.Sessions() == 0:
		return 0, 0, "", errors.New("import: no sessions to write: the window or sample kept none")
	}
	hash, err = tw.Close()
	if err != nil {
		return 0, 0, "", fmt.Errorf("import: %w", err)
	}
	return tw.Sessions(), span.Round(time.Millisecond), hash, nil
}

// drainInto hands every session of src to write.
func drainInto(src importers.Source) func(write func(*trace.Session) error) error {
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
