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
// summary, the records, the prompts of the slowest requests
// (report.Slowest, read from the trace when first asked for), and for one
// run directory the server's metrics scraped during the run.
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
		f.Close()
		in.Prompt = slowestPrompts(r.Files, traceName, rs, log)
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

// slowestPrompts looks up the prompts of the requests the HTML report
// lists as its slowest (report.Slowest) in the trace name of fsys: on the
// first call it reads the trace, session by session, keeping only those
// prompts, so a report without HTML never reads it and one with HTML
// holds a few prompts, not the trace. A trace it cannot read is a
// warning on log, and the prompts are left empty.
func slowestPrompts(fsys fs.FS, name string, rs *trace.Records, log io.Writer) func(client string, session, turn int) string {
	type key struct {
		client        string
		session, turn int
	}
	type sessionKey struct {
		client string
		index  int
	}
	var prompts map[key]string
	load := func() error {
		prompts = map[key]string{}
		sessions := map[sessionKey]bool{}
		for _, r := range report.Slowest(rs) {
			prompts[key{r.Client, r.Session, r.Turn}] = ""
			sessions[sessionKey{r.Client, r.Session}] = true
		}
		f, err := fsys.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		tr, err := trace.NewReader(f)
		if err != nil {
			return err
		}
		want := func(client string, index int) bool { return sessions[sessionKey{client, index}] }
		for {
			s, err := tr.ReadWanted(want)
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			for t := range s.Turns {
				if k := (key{s.Client, s.Index, t}); prompts[k] == "" {
					if _, ok := prompts[k]; ok {
						prompts[k] = s.Turns[t].Prompt
					}
				}
			}
		}
	}
	return func(client string, session, turn int) string {
		if prompts == nil {
			if err := load(); err != nil {
				fmt.Fprintf(log, "surge: warning: reading the trace for the slowest requests' prompts: %v\n", trace.InFile(name, err))
			}
		}
		return prompts[key{client, session, turn}]
	}
}
