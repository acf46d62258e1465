package cli

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"surge/content"
	"surge/harness"
	"surge/spec"
	"surge/trace"
)

// loadWorkload reads a trace, or compiles a spec with the gen flags'
// overrides, from path ("-": stdin).
func loadWorkload(ctx context.Context, path string, f genFlags, c interface{ Changed(string) bool }, stdin io.Reader) (*harness.Workload, error) {
	w, err := harness.Load(ctx, hostFS{stdin}, filepath.ToSlash(path), harness.LoadOptions{Edit: func(s *spec.Spec) error { return f.applyTo(c, s) }})
	if errors.Is(err, harness.ErrInterrupted) {
		return nil, errInterrupted
	}
	return w, err
}

// readTraceFile reads the whole trace at path.
func readTraceFile(path string) (*harness.Workload, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	w, err := harness.ReadTrace(f)
	if err != nil {
		return nil, trace.InFile(path, err)
	}
	return w, nil
}

// isTrace reports whether the file at path starts like a surge trace.
func isTrace(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	return harness.IsTrace(bufio.NewReader(f)), nil
}

// loadSpec reads and parses the spec at path ("-" for stdin).
func loadSpec(path string, stdin io.Reader) (*spec.Spec, error) {
	return harness.LoadSpec(hostFS{stdin}, filepath.ToSlash(path))
}

// openContent loads the tokenizer and prompt synthesiser of the spec s
// read from path.
func openContent(path string, s *spec.Spec) (content.Tokenizer, *content.Synth, error) {
	return harness.OpenContent(hostFS{}, filepath.ToSlash(path), s)
}

// openTokenizer opens the tokenizer a flag names: a built-in encoding, or
// a tokenizer.json file or model directory at an operating system path.
func openTokenizer(nameOrPath string) (content.Tokenizer, error) {
	return content.OpenFS(hostFS{}, filepath.ToSlash(nameOrPath))
}

// hostFS is the operating system's files by the slash-separated paths the
// user typed, relative to the working directory or absolute, ".."
// included, which fs.ValidPath would refuse: errors and client names then
// show each path as it was typed. "-" is standard input, read once.
type hostFS struct{ stdin io.Reader }

// Open opens the file at name, or standard input for -.
func (h hostFS) Open(name string) (fs.File, error) {
	if name != "-" {
		return os.Open(filepath.FromSlash(name))
	}
	if h.stdin == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("no standard input here")}
	}
	return stdinFile{h.stdin}, nil
}

// Stat returns the file information of name.
func (hostFS) Stat(name string) (fs.FileInfo, error) { return os.Stat(filepath.FromSlash(name)) }

// stdinFile is standard input as an fs.File.
type stdinFile struct{ io.Reader }

func (stdinFile) Stat() (fs.FileInfo, error) { return stdinInfo{}, nil }
func (stdinFile) Close() error               { return nil }

// stdinInfo describes standard input: a stream of unknown size.
type stdinInfo struct{}

func (stdinInfo) Name() string       { return "-" }
func (stdinInfo) Size() int64        { return 0 }
func (stdinInfo) Mode() fs.FileMode  { return fs.ModeNamedPipe }
func (stdinInfo) ModTime() time.Time { return time.Time{} }
func (stdinInfo) IsDir() bool        { return false }
func (stdinInfo) Sys() any           { return nil }
