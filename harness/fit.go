package harness

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"surge/fit"
	"surge/trace"
	"surge/trace/importers"
)

// FitTraffic reads the sessions of the named files in fsys by client, as
// surge fit fits them: one surge trace (when opts name no format), or
// files surge import reads, imported with opts (completed by ImportSetup,
// tokenizer counting ShareGPT's tokens) as surge import would,
// conversations included. A closed-loop client keeps its concurrency.
func FitTraffic(ctx context.Context, fsys fs.FS, names []string, opts importers.ImportOptions, tokenizer string) (*fit.Traffic, error) {
	tr := &fit.Traffic{}
	if len(names) == 1 && opts.Format == "" {
		if w, ok, err := readIfTrace(fsys, names[0]); ok || err != nil {
			if err != nil {
				return nil, err
			}
			tr.Header(w.Header)
			for _, s := range w.Sessions {
				if err := tr.Write(s); err != nil {
					return nil, tooLarge(err)
				}
			}
			return tr, nil
		}
	}
	opts, err := ImportSetup(fsys, names, opts, tokenizer)
	if err != nil {
		return nil, err
	}
	if _, err := importers.ImportTo(ctx, tr, fsys, names, opts); err != nil {
		return nil, tooLarge(err)
	}
	return tr, nil
}

// tooLarge adds to fit.ErrTooLarge how to fit such a trace: a share of
// it.
func tooLarge(err error) error {
	if errors.Is(err, fit.ErrTooLarge) {
		return fmt.Errorf("%w: fit a share of it, by session (--sample 0.01), by time (--window 0-1h) or the first sessions (--limit 1000000)", err)
	}
	return err
}

// readIfTrace reads the file name of fsys when it is a surge trace; ok
// says whether it was one.
func readIfTrace(fsys fs.FS, name string) (w *Workload, ok bool, err error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, false, nil // the importers say what is wrong with it
	}
	defer f.Close()
	r := bufio.NewReader(f)
	if !IsTrace(r) {
		return nil, false, nil
	}
	if w, err = ReadTrace(r); err != nil {
		return nil, true, trace.InFile(name, err)
	}
	return w, true, nil
}

// FitOptions say how Fit reads a trace and what it does with the fit.
type FitOptions struct {
	// Import and Tokenizer read the files (FitTraffic).
	Import    importers.ImportOptions
	Tokenizer string
	// Flat states each client's mean rate instead of its rate curve.
	Flat bool
	// Check regenerates the fitted spec and compares it with the trace
	// (fit.Check); Strict then fails when a count is off its bound.
	Check, Strict bool
	// Drift, when it names a spec, grades the files against it instead
	// of fitting them (Drift).
	Drift DriftOptions
}

// Fit reads the named files of fsys, fits a spec named name to their
// clients and returns it, writing to log a summary line per client and,
// with Check, the comparison of a trace regenerated from the spec with
// the files'. It returns the spec with the error of a strict check that
// found a count off its bound, so that the spec can still be written.
// With opts.Drift.Against it returns Drift's report instead.
func Fit(ctx context.Context, fsys fs.FS, names []string, name string, opts FitOptions, log io.Writer) ([]byte, error) {
	if opts.Drift.Against != "" {
		return Drift(ctx, fsys, names, opts)
	}
	tr, err := FitTraffic(ctx, fsys, names, opts.Import, opts.Tokenizer)
	if err != nil {
		return nil, err
	}
	clients, err := fit.Clients(tr, opts.Flat)
	if err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	for _, c := range clients {
		fmt.Fprintf(log, "surge fit: %s\n", c.Summary())
	}
	spec, err := fit.Spec(name, clients)
	if err != nil || !opts.Check {
		return spec, err
	}
	r, err := fit.Check(ctx, log, spec, tr, clients)
	if err == nil && opts.Strict {
		err = r.Err()
	}
	if err != nil {
		return spec, fmt.Errorf("fit --check: %w", err)
	}
	return spec, nil
}
