package bundle

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"

	"surge/trace"
)

// The files of a bundle besides the manifest.
const (
	TraceFile         = "trace.jsonl"
	RecordsFile       = "records.jsonl"
	ServerMetricsFile = "server_metrics.jsonl"
)

// Reports are the report files every finished bundle holds.
var Reports = []string{"report.txt", "report.json", "report.html"}

// State says how far a run got in writing its bundle.
type State int

const (
	// Complete: the manifest is written and the run was not interrupted.
	Complete State = iota
	// Interrupted: the manifest is written and says the run was stopped
	// (Ctrl-C) before its schedule ended.
	Interrupted
	// Unfinished: the records end with an end line but there is no
	// manifest: the run ended and its reports or manifest were not
	// written (a report that failed, a kill after the run).
	Unfinished
	// Killed: neither a manifest nor an end line: the run died while
	// requests were going out.
	Killed
)

// String describes s for people.
func (s State) String() string {
	switch s {
	case Complete:
		return "complete"
	case Interrupted:
		return "interrupted (the manifest says so)"
	case Unfinished:
		return "unfinished: the run ended but its manifest was not written"
	case Killed:
		return "killed: the run died before its records' end line"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Bundle is what a bundle directory holds, whole or partial.
type Bundle struct {
	// Manifest is nil when the directory has none, or ManifestErr says
	// why it could not be read.
	Manifest    *Manifest
	ManifestErr error
	// Present are the regular files of the directory, by name, with
	// their sizes.
	Present map[string]int64
	// Records are records.jsonl read back, nil when it is absent or
	// unreadable. RecordsErr says why it is unreadable, or, with
	// Records set, that its last line was cut (a killed run).
	Records    *trace.Records
	RecordsErr error

	fsys fs.FS
}

// ErrNotBundle is Open's error for a directory that holds none of a
// bundle's files.
var ErrNotBundle = fmt.Errorf("not a bundle: no %s, %s or %s", ManifestFile, RecordsFile, TraceFile)

// Open reads the bundle in fsys (a run directory, say os.DirFS(dir)):
// its manifest and its records, and the names of the files it holds. A
// partial bundle (interrupted, killed, a report that failed) opens; a
// directory holding none of a bundle's files does not.
func Open(fsys fs.FS) (*Bundle, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("opening bundle: %w", err)
	}
	b := &Bundle{Present: map[string]int64{}, fsys: fsys}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, fmt.Errorf("opening bundle: %w", err)
		}
		b.Present[e.Name()] = info.Size()
	}
	if !b.Has(ManifestFile) && !b.Has(RecordsFile) && !b.Has(TraceFile) {
		return nil, ErrNotBundle
	}
	if b.Has(ManifestFile) {
		b.Manifest, b.ManifestErr = readManifest(fsys)
	}
	if b.Has(RecordsFile) {
		b.Records, b.RecordsErr = readRecords(fsys, RecordsFile)
	}
	return b, nil
}

// Has reports whether the bundle holds the file name.
func (b *Bundle) Has(name string) bool {
	_, ok := b.Present[name]
	return ok
}

// Open opens the bundle's file name for reading.
func (b *Bundle) Open(name string) (fs.File, error) {
	return b.fsys.Open(name)
}

// State says how far the run got in writing the bundle.
func (b *Bundle) State() State {
	switch {
	case b.Manifest != nil && b.Manifest.Interrupted:
		return Interrupted
	case b.Manifest != nil:
		return Complete
	case b.Records != nil && b.Records.End != nil:
		return Unfinished
	}
	return Killed
}

// Expected names the files a finished bundle like this one holds: the
// manifest, trace, records and reports, and every file its manifest
// names.
func (b *Bundle) Expected() []string {
	names := append([]string{ManifestFile, TraceFile, RecordsFile}, Reports...)
	if b.Manifest != nil {
		for name := range b.Manifest.Files {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// Missing names the files of Expected the bundle does not hold.
func (b *Bundle) Missing() []string {
	var missing []string
	for _, name := range b.Expected() {
		if !b.Has(name) {
			missing = append(missing, name)
		}
	}
	return missing
}

// TraceHash is the workload hash of the bundle's trace.jsonl.
func (b *Bundle) TraceHash() (string, error) {
	f, err := b.fsys.Open(TraceFile)
	if err != nil {
		return "", err
	}
	defer f.Close()
	tr, err := trace.NewReader(f)
	if err != nil {
		return "", fmt.Errorf("%s: %w", TraceFile, err)
	}
	for {
		_, err := tr.Read()
		if err == io.EOF {
			return tr.Hash(), nil
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", TraceFile, err)
		}
	}
}

// readManifest reads the manifest of fsys.
func readManifest(fsys fs.FS) (*Manifest, error) {
	f, err := fsys.Open(ManifestFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f)
}

// readRecords reads the records file name of fsys. A cut last line
// returns the records before it with an error saying so.
func readRecords(fsys fs.FS, name string) (*trace.Records, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("reading records: %w", err)
	}
	defer f.Close()
	rs, err := trace.ReadRecords(f)
	if err != nil {
		return rs, fmt.Errorf("%s: %w", name, err)
	}
	return rs, nil
}

// RecordFiles names the records files of the run directory dir of fsys
// ("." for its root): its records.jsonl, or, without one, that of each of
// its subdirectories (the shards of a sharded run).
func RecordFiles(fsys fs.FS, dir string) ([]string, error) {
	if _, err := fs.Stat(fsys, path.Join(dir, RecordsFile)); err == nil {
		return []string{path.Join(dir, RecordsFile)}, nil
	}
	sub, err := fs.Glob(fsys, path.Join(dir, "*", RecordsFile))
	if err != nil || len(sub) == 0 {
		return nil, errors.New("holds no records.jsonl, nor any directory that does")
	}
	return sub, nil
}

// ReadRecords reads the records of names in fsys, each a records file or
// a run directory (RecordFiles), and merges them (trace.Merge), the files
// of several shards into one run. Its warnings say what was read but is
// not whole: a last line cut by a kill, shards missing from the merge.
func ReadRecords(fsys fs.FS, names []string) (*trace.Records, []string, error) {
	var files []string
	for _, name := range names {
		if info, err := fs.Stat(fsys, name); err != nil || !info.IsDir() {
			files = append(files, name) // opening it says what is wrong
			continue
		}
		in, err := RecordFiles(fsys, name)
		if err != nil {
			return nil, nil, fmt.Errorf("reading records: %s %w", name, err)
		}
		files = append(files, in...)
	}
	var runs []*trace.Records
	var warnings []string
	for _, name := range files {
		rs, err := readRecords(fsys, name)
		if rs == nil {
			return nil, nil, err
		}
		if err != nil {
			warnings = append(warnings, err.Error())
		}
		runs = append(runs, rs)
	}
	all, more, err := trace.Merge(runs, files)
	if err != nil {
		return nil, nil, err
	}
	return all, append(warnings, more...), nil
}
