package harness

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"surge/spec"
	"surge/trace"
)

// loadSpecText is a small spec; its tokenizer is given by path, beside it.
const loadSpecText = `version: 1
name: loaded
seed: 7
requests: 6
tokenizer: o200k_base
clients:
  - name: open
    model: m
    rate: 10/s
    input: 40
    output: 8
`

// traceOf is the trace file of w.
func traceOf(t *testing.T, w *Workload) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw, err := trace.NewWriter(&buf, w.Header)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range w.Sessions {
		if err := tw.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestLoad: a spec compiles (with its edit, with or without text), a
// trace is read as it is and keeps its own bytes for the bundle, and
// both carry a tokenizer for the run.
func TestLoad(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fsys := fstest.MapFS{"specs/a.yaml": {Data: []byte(loadSpecText)}}
	w, err := Load(ctx, fsys, "specs/a.yaml", LoadOptions{Edit: func(s *spec.Spec) error { s.Requests = 4; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if w.Spec == nil || len(w.Sessions) != 4 || w.Tokenizer == nil || string(w.SpecText) != loadSpecText || w.Raw != nil {
		t.Fatalf("spec: spec %v, %d sessions (want 4), tokenizer %v, text kept %v, raw %v", w.Spec != nil, len(w.Sessions), w.Tokenizer, string(w.SpecText) == loadSpecText, w.Raw != nil)
	}
	if p := w.Sessions[0].Turns[0].Prompt; p == "" {
		t.Error("spec: no prompt text")
	}
	bare, err := Load(ctx, fsys, "specs/a.yaml", LoadOptions{NoText: true})
	if err != nil {
		t.Fatal(err)
	}
	if tu := bare.Sessions[0].Turns[0]; tu.Prompt != "" || tu.InputTokens != 40 || len(bare.Sessions) != 6 {
		t.Errorf("NoText: prompt %q, %d input tokens, %d sessions; want none, 40, 6", tu.Prompt, tu.InputTokens, len(bare.Sessions))
	}

	fsys["t.jsonl"] = &fstest.MapFile{Data: traceOf(t, w)}
	tr, err := Load(ctx, fsys, "t.jsonl", LoadOptions{Edit: func(*spec.Spec) error { return errors.New("edit called for a trace") }})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Spec != nil || tr.Hash != w.Hash || len(tr.Sessions) != 4 || tr.Tokenizer == nil || tr.Raw == nil {
		t.Fatalf("trace: spec %v, hash %s (want %s), %d sessions, tokenizer %v, raw %v", tr.Spec != nil, tr.Hash, w.Hash, len(tr.Sessions), tr.Tokenizer, tr.Raw != nil)
	}
	rc, err := tr.Raw()
	if err != nil {
		t.Fatal(err)
	}
	rc.Close()
}

// TestLoadErrors: what is missing or wrong is named, and a cancelled
// context is ErrInterrupted.
func TestLoadErrors(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"a.yaml":    {Data: []byte(loadSpecText)},
		"tok.yaml":  {Data: []byte(strings.Replace(loadSpecText, "tokenizer: o200k_base", "tokenizer: toks/none.json", 1))},
		"bad.yaml":  {Data: []byte("version: 1\nclients: 3\n")},
		"cut.jsonl": {Data: []byte(`{"surge_trace":1,"header"`)},
	}
	ctx := context.Background()
	for _, tt := range []struct{ name, want string }{
		{"missing.yaml", "reading missing.yaml"},
		{"tok.yaml", `tokenizer "toks/none.json"`},
		{"bad.yaml", "bad.yaml"},
		{"cut.jsonl", "cut.jsonl:1: truncated"},
	} {
		if _, err := Load(ctx, fsys, tt.name, LoadOptions{}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Load(%s): %v, want an error saying %q", tt.name, err, tt.want)
		}
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Load(done, fsys, "a.yaml", LoadOptions{}); !errors.Is(err, ErrInterrupted) {
		t.Errorf("a cancelled context: %v, want ErrInterrupted", err)
	}
}

// TestSpecRelative: paths in a spec are read beside it, unless absolute
// or the spec came from standard input.
func TestSpecRelative(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ spec, p, want string }{
		{"specs/a.yaml", "tok.json", "specs/tok.json"},
		{"specs/a.yaml", "../x/tok.json", "x/tok.json"},
		{"../specs/a.yaml", "tok.json", "../specs/tok.json"},
		{"specs/a.yaml", "/abs/tok.json", "/abs/tok.json"},
		{"-", "tok.json", "tok.json"},
		{"a.yaml", "", ""},
	} {
		if got := SpecRelative(tt.spec, tt.p); got != tt.want {
			t.Errorf("SpecRelative(%q, %q) = %q, want %q", tt.spec, tt.p, got, tt.want)
		}
	}
}

// TestGen: Gen writes, edited, the trace Load compiles in memory: the
// same bytes and hash; an edit's error is Gen's, before anything is
// written.
func TestGen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fsys := fstest.MapFS{"specs/a.yaml": {Data: []byte(loadSpecText)}}
	edit := LoadOptions{Edit: func(s *spec.Spec) error { s.Requests = 4; return nil }}
	w, err := Load(ctx, fsys, "specs/a.yaml", edit)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	res, err := Gen(ctx, &out, fsys, "specs/a.yaml", edit)
	if err != nil {
		t.Fatal(err)
	}
	if res.Hash != w.Hash || res.Sessions != 4 || !bytes.Equal(out.Bytes(), traceOf(t, w)) {
		t.Errorf("Gen: hash %s (Load's %s), %d sessions, same bytes %v", res.Hash, w.Hash, res.Sessions, bytes.Equal(out.Bytes(), traceOf(t, w)))
	}
	out.Reset()
	bad := LoadOptions{Edit: func(*spec.Spec) error { return errors.New("no such override") }}
	if _, err := Gen(ctx, &out, fsys, "specs/a.yaml", bad); err == nil || out.Len() > 0 {
		t.Errorf("a failing edit: err %v, %d bytes written", err, out.Len())
	}
}

// TestSummarizeTrace: a trace is summarised with its hash and reuse; a
// file that is not one is named in the error, with its line.
func TestSummarizeTrace(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"specs/a.yaml": {Data: []byte(loadSpecText)}}
	w, err := Load(context.Background(), fsys, "specs/a.yaml", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fsys["t.jsonl"] = &fstest.MapFile{Data: traceOf(t, w)}
	fsys["bad.jsonl"] = &fstest.MapFile{Data: append(traceOf(t, w), "{not json\n"...)}
	sum, err := SummarizeTrace(fsys, "t.jsonl", 16)
	if err != nil {
		t.Fatal(err)
	}
	if sum.WorkloadHash != w.Hash || len(sum.Clients) != 1 || sum.Reuse == nil {
		t.Errorf("hash %s (want %s), %d clients, reuse %v", sum.WorkloadHash, w.Hash, len(sum.Clients), sum.Reuse)
	}
	if _, err := SummarizeTrace(fsys, "bad.jsonl", 16); err == nil || !strings.Contains(err.Error(), "bad.jsonl") {
		t.Errorf("a bad line: %v, want an error naming the file", err)
	}
}
