package harness

import (
	"bufio"
	"context"
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
				tr.Add(s)
			}
			return tr, nil
		}
	}
	opts, err := ImportSetup(fsys, names, opts, tokenizer)
	if err != nil {
		return nil, err
	}
	if _, err := importers.ImportTo(ctx, tr, fsys, names, opts); err != nil {
		return nil, err
	}
	return tr, nil
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
