package harness

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"surge/metrics"
	"surge/report"
	"surge/sim"
	"surge/trace"
)

// finish reports rs, the run's records as written (nil: read them back,
// readBack, exactly as `surge report` would), with the server's metrics
// when the bundle holds them,
// and writes report.txt, report.json and report.html, the last with
// html's prompts and server samples. The Result has the summary and the
// text report, cfg.TextWidth wide (report.txt is report.TextWidth wide,
// as surge report re-renders it to a file). When a report file cannot be
// written (a full disk), the others are still written and the Result is
// returned with the error, so the text report can still be shown.
func finish(cfg *Config, rs *trace.Records, html report.HTMLInput, engineStats *sim.Stats) (*Result, error) {
	if rs == nil {
		var err error
		if rs, err = readBack(cfg); err != nil {
			return nil, err
		}
	}
	sum := metrics.Summarize(rs, metrics.Options{PerClient: true, PerStyle: true})
	server, engine, err := serverView(cfg.Dir, sum)
	if err != nil {
		fmt.Fprintf(cfg.Log, "surge: %v (the report leaves the server's metrics out)\n", err)
	}
	if engineStats != nil && cfg.Virtual != nil && sum.SpecDecode == nil {
		sum.SpecDecode = engineSpecDecode(*engineStats, cfg.Virtual.Config.Engine.Speculative.Tokens, sum.Window.EndUS)
	}
	if html.Server == nil {
		html.Server = server
	}
	html.Summary, html.Records, html.Engine, html.Title = sum, rs, engine, "surge run "+filepath.Base(cfg.Dir)
	html.Warn = func(err error) {
		fmt.Fprintf(cfg.Log, "surge: warning: %v (the report says so in its place)\n", err)
	}
	render := func(b *strings.Builder, cols int) error {
		if err := report.TextEngineAt(b, sum, engine, cols); err != nil || engineStats == nil {
			return err
		}
		return report.PreemptionTextAt(b, engineStats.Preemptions, engineStats.Finished, cols)
	}
	var text, shown strings.Builder
	if err := render(&text, report.TextWidth); err != nil {
		return nil, err
	}
	if cols := cmp.Or(cfg.TextWidth, report.TextWidth); cols != report.TextWidth {
		if err := render(&shown, cols); err != nil {
			return nil, err
		}
	} else {
		shown.WriteString(text.String())
	}
	files := map[string]func(io.Writer) error{
		"report.txt":  func(w io.Writer) error { _, err := io.WriteString(w, text.String()); return err },
		"report.json": func(w io.Writer) error { return report.JSONEngine(w, sum, engine) },
		"report.html": func(w io.Writer) error { return report.HTML(w, html) },
	}
	res := &Result{Dir: cfg.Dir, Summary: sum, Report: shown.String()}
	if cfg.Dir == "" {
		return res, nil
	}
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := writeFile(filepath.Join(cfg.Dir, name), files[name]); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return res, fmt.Errorf("writing the reports: %w", err)
	}
	return res, nil
}

// readBack reads a run's records back: from the records file of cfg.Dir,
// or without one from the copy of what went to cfg.Records.
func readBack(cfg *Config) (*trace.Records, error) {
	if cfg.Dir != "" {
		return readRecords(cfg.Log, cfg.Dir)
	}
	return parseRecords(cfg.Log, bytes.NewReader(cfg.kept.Bytes()), recordsName(cfg))
}

// recordsName is how messages name a run's records.
func recordsName(cfg *Config) string {
	if cfg.Dir == "" {
		return "the records written"
	}
	return recordsPath(cfg.Dir)
}

// readRecords reads DIR/records.jsonl back; a truncated last line is
// reported on log.
func readRecords(log io.Writer, dir string) (*trace.Records, error) {
	path := recordsPath(dir)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading records: %w", err)
	}
	defer f.Close()
	return parseRecords(log, f, path)
}

// parseRecords reads the records file r, named path in messages; a
// truncated last line is reported on log.
func parseRecords(log io.Writer, r io.Reader, path string) (*trace.Records, error) {
	rs, err := trace.ReadRecords(r)
	if rs != nil && err != nil {
		fmt.Fprintf(log, "surge: warning: %s: %v\n", path, err)
		err = nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	all, warnings, err := trace.Merge([]*trace.Records{rs}, []string{path})
	if err != nil {
		return nil, err
	}
	for _, w := range warnings {
		fmt.Fprintf(log, "surge: warning: %s\n", w)
	}
	return all, nil
}

// writeFile creates path and fills it with fill.
func writeFile(path string, fill func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}
