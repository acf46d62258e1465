package cli

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"

	"surge/content"
	"surge/harness"
	"surge/internal/hostfs"
	"surge/spec"
	"surge/trace"
)

// loadWorkload reads a trace, or compiles a spec with the gen flags'
// overrides, from path ("-": stdin).
func loadWorkload(ctx context.Context, path string, f genFlags, c interface{ Changed(string) bool }, stdin io.Reader) (*harness.Workload, error) {
	return loadWorkloadOpts(ctx, path, f, c, stdin, harness.LoadOptions{})
}

// loadWorkloadOpts is loadWorkload with opts (its Edit set from f).
func loadWorkloadOpts(ctx context.Context, path string, f genFlags, c interface{ Changed(string) bool }, stdin io.Reader, opts harness.LoadOptions) (*harness.Workload, error) {
	opts.Edit = func(s *spec.Spec) error { return f.applyTo(c, s) }
	w, err := harness.Load(ctx, hostfs.FS{Stdin: stdin}, filepath.ToSlash(path), opts)
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
	return harness.LoadSpec(hostfs.FS{Stdin: stdin}, filepath.ToSlash(path))
}

// openContent loads the tokenizer and prompt synthesiser of the spec s
// read from path.
func openContent(path string, s *spec.Spec) (content.Tokenizer, *content.Synth, error) {
	return harness.OpenContent(hostfs.FS{}, filepath.ToSlash(path), s)
}

// openTokenizer opens the tokenizer a flag names: a built-in encoding, or
// a tokenizer.json file or model directory at an operating system path.
func openTokenizer(nameOrPath string) (content.Tokenizer, error) {
	return content.OpenFS(hostfs.FS{}, filepath.ToSlash(nameOrPath))
}
