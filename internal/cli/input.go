package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"surge/harness"
	"surge/spec"
	"surge/trace"
)

// workloadInput is what `surge run` sends: a trace's header and sessions,
// compiled from a spec or read from a trace file.
type workloadInput struct {
	header   trace.Header
	sessions []*trace.Session
	hash     string // workload hash
	// path is the spec or trace file the workload came from ("-": stdin);
	// spec and specText are set for a spec, as resolved and as given.
	path     string
	spec     *spec.Spec
	specText []byte
	// sloConfidence is the confidence level of the run's SLO verdicts,
	// for its records header; 0 for the default (a sweep sets its own).
	sloConfidence float64
}

// isTrace reports whether the file at path starts like a surge trace.
func isTrace(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head, _ := bufio.NewReader(f).Peek(16)
	return bytes.HasPrefix(head, []byte(`{"surge_trace"`)), nil
}

// loadWorkload reads a trace file, or compiles a spec (with the gen flags'
// overrides) into sessions in memory.
func loadWorkload(ctx context.Context, path string, f genFlags, c interface{ Changed(string) bool }, stdin io.Reader) (*workloadInput, error) {
	if path == "-" {
		return loadStdin(ctx, f, c, stdin)
	}
	traceFile, err := isTrace(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if traceFile {
		return readTraceFile(path)
	}
	return compileSpec(ctx, path, f, c, stdin)
}

// loadStdin reads a trace or a spec, whichever it is, from stdin.
func loadStdin(ctx context.Context, f genFlags, c interface{ Changed(string) bool }, stdin io.Reader) (*workloadInput, error) {
	data, err := io.ReadAll(stdin)
	if err != nil {
		return nil, fmt.Errorf("reading stdin: %w", err)
	}
	if bytes.HasPrefix(data, []byte(`{"surge_trace"`)) {
		return readTrace("-", bytes.NewReader(data))
	}
	return compileSpec(ctx, "-", f, c, bytes.NewReader(data))
}

func readTraceFile(path string) (*workloadInput, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	return readTrace(path, file)
}

// readTrace reads the trace from r, read from path ("-": stdin).
func readTrace(path string, r io.Reader) (*workloadInput, error) {
	w, err := harness.ReadTrace(r)
	if err != nil {
		return nil, fmt.Errorf("trace %s: %w", path, err)
	}
	return &workloadInput{header: w.Header, sessions: w.Sessions, hash: w.Hash, path: path}, nil
}

func compileSpec(ctx context.Context, path string, f genFlags, c interface{ Changed(string) bool }, stdin io.Reader) (*workloadInput, error) {
	text, err := readSpecText(path, stdin)
	if err != nil {
		return nil, err
	}
	s, err := spec.Parse(specName(path), text)
	if err != nil {
		return nil, err
	}
	if err := f.applyTo(c, s); err != nil {
		return nil, err
	}
	in, err := compile(ctx, path, s)
	if err != nil {
		return nil, err
	}
	in.specText = text
	return in, nil
}

// compile generates the sessions of s, read from path, in memory.
func compile(ctx context.Context, path string, s *spec.Spec) (*workloadInput, error) {
	tok, synth, err := openContent(path, s)
	if err != nil {
		return nil, err
	}
	w, err := harness.Compile(ctx, s, tok, synth)
	if errors.Is(err, harness.ErrInterrupted) {
		return nil, errInterrupted
	}
	if err != nil {
		return nil, fmt.Errorf("spec %s: %w", path, err)
	}
	return &workloadInput{header: w.Header, sessions: w.Sessions, hash: w.Hash, path: path, spec: s}, nil
}

// workload is in as the harness takes it: a trace file's bytes are kept
// in the bundle as they are.
func (in *workloadInput) workload() *harness.Workload {
	w := &harness.Workload{
		Header: in.header, Sessions: in.sessions, Hash: in.hash,
		Spec: in.spec, SpecText: in.specText, SpecPath: in.path, SLOConfidence: in.sloConfidence,
	}
	if in.spec == nil && in.path != "-" {
		path := in.path
		w.Raw = func() (io.ReadCloser, error) { return os.Open(path) }
	}
	return w
}
