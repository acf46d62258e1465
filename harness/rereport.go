package harness

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"

	"surge/bundle"
	"surge/metrics"
	"surge/report"
	"surge/trace"
)

// Records are the records files or run directories a report reads.
type Records struct {
	// Files holds the Names; the command line's takes the operating
	// system's paths, "-" being standard input.
	Files fs.FS
	Names []string
	// Trace names the trace the records ran, for the prompts of the
	// slowest requests; "" is the run directory's own, when Names is one
	// run directory that holds it.
	Trace string
	// PerClient breaks the figures down by client.
	PerClient bool
	// Log receives warnings: a cut last line, missing shards, unreadable
	// server metrics.
	Log io.Writer
}

// Report reads r's records and returns their report's input: the
// summary, the records, the prompts of the trace, and for one run
// directory the server's metrics scraped during the run.
func Report(r Records) (report.HTMLInput, error) {
	log := r.Log
	if log == nil {
		log = io.Discard
	}
	rs, warnings, err := bundle.ReadRecords(r.Files, r.Names)
	if err != nil {
		return report.HTMLInput{}, err
	}
	for _, w := range warnings {
		fmt.Fprintf(log, "surge: warning: %s\n", w)
	}
	sum := metrics.Summarize(rs, metrics.Options{PerClient: r.PerClient, PerStyle: true})
	in := report.HTMLInput{Summary: sum, Records: rs, Title: "surge report"}
	dir := ""
	if info, err := fs.Stat(r.Files, r.Names[0]); err == nil && info.IsDir() && len(r.Names) == 1 {
		dir = r.Names[0]
	}
	traceName := r.Trace
	if own := path.Join(dir, bundle.TraceFile); traceName == "" && dir != "" && exists(r.Files, own) {
		traceName = own // a bundle holds its trace (a killed run's may not)
	}
	if traceName != "" {
		f, err := r.Files.Open(traceName)
		if err != nil {
			return in, fmt.Errorf("reading the trace: %w", err)
		}
		defer f.Close()
		tr, err := ReadTrace(f)
		if err != nil {
			return in, trace.InFile(traceName, err)
		}
		in.Prompt = Prompts(tr.Sessions)
	}
	if dir != "" {
		if in.Server, in.Engine, err = serverViewIn(r.Files, path.Join(dir, bundle.ServerMetricsFile), sum); err != nil {
			fmt.Fprintf(log, "surge: %v (the report leaves the server's metrics out)\n", err)
		}
	}
	return in, nil
}

// exists reports whether fsys has a file name.
func exists(fsys fs.FS, name string) bool {
	_, err := fs.Stat(fsys, name)
	return err == nil
}

// serverViewIn is ServerView of the scraped metrics at name in fsys,
// when there are any (without them, nothing and no error).
func serverViewIn(fsys fs.FS, name string, sum *metrics.Summary) ([]report.ServerSample, []report.EngineLatency, error) {
	f, err := fsys.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return ServerView(f, sum)
}
