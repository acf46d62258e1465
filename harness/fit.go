package harness

import (
	"bufio"
	"fmt"
	"io/fs"

	"surge/fit"
	"surge/trace"
	"surge/trace/importers"
)

// FitTraffic reads the sessions of the named files in fsys by client, as
// surge fit fits them: one surge trace, or files surge import reads as
// requests, in format ("" or "auto": detected).
func FitTraffic(fsys fs.FS, names []string, format importers.Format) (*fit.Traffic, error) {
	tr := &fit.Traffic{}
	if len(names) == 1 && (format == "" || format == "auto") {
		if w, ok, err := readIfTrace(fsys, names[0]); ok || err != nil {
			if err != nil {
				return nil, err
			}
			for _, s := range w.Sessions {
				tr.Add(s)
			}
			return tr, nil
		}
	}
	var opts importers.ImportOptions
	if format != "auto" {
		opts.Format = format
	}
	if err := opts.Check(names); err != nil {
		return nil, ConfigError{err}
	}
	src, err := importers.OpenRequests(fsys, names, opts)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	if err := tr.Read(src); err != nil {
		return nil, fmt.Errorf("fit: %w", err)
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
