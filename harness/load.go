package harness

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"

	"surge/content"
	"surge/spec"
	"surge/trace"
	"surge/workload"
)

// traceStart is how every surge trace begins.
var traceStart = []byte(`{"surge_trace"`)

// LoadOptions change what Load does with a spec.
type LoadOptions struct {
	// Edit, when set, changes the spec before it is compiled (the
	// command line's overrides).
	Edit func(*spec.Spec) error
	// NoText compiles the spec without prompt text: the sessions' times
	// and lengths, enough to plan a run but not to send it.
	NoText bool
	// Stream prepares the spec without compiling it, for a simulation
	// that generates its sessions as it runs them, holding only those in
	// flight (surge sim): the Workload has its header but no Sessions or
	// Hash, which any other run compiles when it starts.
	Stream bool
}

// Load reads the workload at name in fsys: a surge trace, read as it is,
// or a spec, compiled in memory as opts say.
// Paths the spec names (its tokenizer, corpus, datasets) are read from fsys
// relative to the spec's directory. The caller's fsys decides what a name
// means: the command line's takes the operating system's paths, "-" being
// standard input. A cancelled ctx ends it with ErrInterrupted.
func Load(ctx context.Context, fsys fs.FS, name string, opts LoadOptions) (*Workload, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	defer f.Close()
	r := bufio.NewReader(f)
	if IsTrace(r) {
		return loadTrace(fsys, name, r)
	}
	// One byte past the bound, so that Parse refuses a longer spec
	// without holding all of it.
	text, err := io.ReadAll(io.LimitReader(r, spec.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading spec: %w", err)
	}
	s, err := spec.Parse(specName(name), text)
	if err != nil {
		return nil, err
	}
	if opts.Edit != nil {
		if err := opts.Edit(s); err != nil {
			return nil, err
		}
	}
	prepare := compileSpec
	if opts.Stream {
		prepare = streamSpec
	}
	w, err := prepare(ctx, fsys, name, s, workload.Options{NoText: opts.NoText})
	if err != nil {
		return nil, err
	}
	w.SpecText = text
	return w, nil
}

// streamSpec is compileSpec but for generating the sessions: it checks
// that s compiles and keeps how to generate it (Workload.generator).
func streamSpec(_ context.Context, fsys fs.FS, name string, s *spec.Spec, opts workload.Options) (*Workload, error) {
	tok, synth, err := openInputs(fsys, name, s, &opts)
	if err != nil {
		return nil, err
	}
	newGen := func() (*workload.Generator, error) { return workload.New(s, tok, synth, opts) }
	g, err := newGen()
	if err != nil {
		return nil, fmt.Errorf("spec %s: %w", name, err)
	}
	return &Workload{Header: g.Header(), Spec: s, SpecPath: name, Tokenizer: tok, generator: newGen}, nil
}

// IsTrace reports whether r's next bytes start a surge trace, without
// consuming them.
func IsTrace(r *bufio.Reader) bool {
	head, _ := r.Peek(len(traceStart))
	return bytes.Equal(head, traceStart)
}

// loadTrace reads the trace at name from r, opening its tokenizer in fsys
// when it can; the bundle keeps the file's own bytes.
func loadTrace(fsys fs.FS, name string, r io.Reader) (*Workload, error) {
	w, err := ReadTrace(r)
	if err != nil {
		return nil, trace.InFile(name, err)
	}
	w.SpecPath = name
	if tok, err := content.OpenFS(fsys, w.tokenizer()); err == nil {
		w.Tokenizer = tok
	}
	if name != "-" {
		w.Raw = func() (io.ReadCloser, error) { return fsys.Open(name) }
	}
	return w, nil
}

// LoadSpec reads and parses the spec at name in fsys.
func LoadSpec(fsys fs.FS, name string) (*spec.Spec, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("reading spec: %w", err)
	}
	defer f.Close()
	return spec.Read(specName(name), f)
}

// CompileSpec generates the sessions of s, read from name in fsys, in
// memory, with the tokenizer and corpus it names.
func CompileSpec(ctx context.Context, fsys fs.FS, name string, s *spec.Spec) (*Workload, error) {
	return compileSpec(ctx, fsys, name, s, workload.Options{})
}

// compileSpec is CompileSpec with the generator's options.
func compileSpec(ctx context.Context, fsys fs.FS, name string, s *spec.Spec, opts workload.Options) (*Workload, error) {
	tok, synth, err := openInputs(fsys, name, s, &opts)
	if err != nil {
		return nil, err
	}
	w, err := compile(ctx, s, tok, synth, opts)
	if errors.Is(err, ErrInterrupted) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("spec %s: %w", name, err)
	}
	w.SpecPath, w.Tokenizer = name, tok
	return w, nil
}

// openInputs opens every file s names (OpenContent), its datasets into
// opts.
func openInputs(fsys fs.FS, name string, s *spec.Spec, opts *workload.Options) (content.Tokenizer, *content.Synth, error) {
	tok, synth, err := OpenContent(fsys, name, s)
	if err != nil {
		return nil, nil, err
	}
	if opts.Datasets, err = OpenDatasets(fsys, name, s); err != nil {
		return nil, nil, err
	}
	return tok, synth, nil
}

// OpenContent opens the tokenizer and prompt synthesiser of s, read from
// name in fsys, and reads its clients' schema files (response_format's
// schema_file) into their response formats: every file the spec names.
func OpenContent(fsys fs.FS, name string, s *spec.Spec) (content.Tokenizer, *content.Synth, error) {
	if err := readSchemas(fsys, name, s); err != nil {
		return nil, nil, err
	}
	tokName := s.Tokenizer
	if !content.IsBuiltin(tokName) {
		tokName = SpecRelative(name, tokName)
	}
	tok, err := content.OpenFS(fsys, tokName)
	if err != nil {
		return nil, nil, fmt.Errorf("spec %s: tokenizer: %w", name, err)
	}
	cfg := content.SynthConfig{Tasks: workload.NeedsTasks(s)}
	if s.Corpus != "" {
		if cfg.Corpus, err = fs.ReadFile(fsys, SpecRelative(name, s.Corpus)); err != nil {
			return nil, nil, fmt.Errorf("spec %s: corpus: %w", name, err)
		}
	}
	synth, err := content.NewSynth(tok, cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("spec %s: preparing prompt text: %w", name, err)
	}
	return tok, synth, nil
}

// SpecRelative resolves p, a path written in the spec at name, relative
// to the spec's directory, so that a spec works from any working
// directory. An absolute p, and any p of a spec read from standard input
// ("-"), stay as they are.
func SpecRelative(name, p string) string {
	if p == "" || path.IsAbs(p) || filepath.IsAbs(filepath.FromSlash(p)) || name == "-" {
		return p
	}
	return path.Join(path.Dir(name), p)
}

// specName is how messages name the spec at name.
func specName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}
