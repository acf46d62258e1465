package harness

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"

	"surge/content"
	"surge/sim/virtual"
	"surge/spec"
	"surge/trace"
	"surge/workload"
)

// Workload is what a run sends: a trace's header and sessions, compiled
// from a spec (Compile) or read from a trace (ReadTrace).
type Workload struct {
	Header   trace.Header
	Sessions []*trace.Session
	Hash     string // the workload hash

	// Spec is the spec the workload was compiled from, nil for a trace;
	// SpecText is its YAML as given and SpecPath its name, for the manifest.
	Spec     *spec.Spec
	SpecText []byte
	SpecPath string

	// Raw, when set, opens the trace's own bytes, which the bundle keeps
	// as they are; without it the bundle's trace is written from Sessions.
	Raw func() (io.ReadCloser, error)

	// SLOConfidence is the confidence level of the SLO verdicts, for the
	// records header; 0 for the default.
	SLOConfidence float64

	// Tokenizer counts the workload's tokens: it writes prompts for a
	// trace without text, counts the salt and the built-in engine's
	// prompts. Nil means the header's tokenizer when it is built in
	// (o200k_base for a trace that names none).
	Tokenizer content.Tokenizer

	// generator, when set, makes a new generator of Spec: the workload
	// was loaded to be generated as it is simulated (LoadOptions.Stream),
	// and Sessions and Hash are empty until materialize compiles them.
	generator func() (*workload.Generator, error)
}

// materialize compiles a workload loaded to stream into Sessions and
// Hash, for a run that needs them all; it does nothing to any other.
func (w *Workload) materialize(ctx context.Context) error {
	if w.generator == nil {
		return nil
	}
	g, err := w.generator()
	if err != nil {
		return err
	}
	sessions, hash, err := generateAll(ctx, g, w.Header)
	if err != nil {
		return err
	}
	w.Sessions, w.Hash, w.generator = sessions, hash, nil
	return nil
}

// ReadTrace reads a whole trace from r.
func ReadTrace(r io.Reader) (*Workload, error) {
	tr, err := trace.NewReader(r)
	if err != nil {
		return nil, err
	}
	w := &Workload{Header: tr.Header}
	for {
		s, err := tr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		w.Sessions = append(w.Sessions, s)
	}
	w.Hash = tr.Hash()
	return w, nil
}

// Compile generates the sessions of s in memory, with prompts from synth
// counted by tok. A cancelled ctx ends it with ErrInterrupted.
func Compile(ctx context.Context, s *spec.Spec, tok content.Tokenizer, synth *content.Synth) (*Workload, error) {
	return compile(ctx, s, tok, synth, workload.Options{})
}

// compile is Compile with the generator's options.
func compile(ctx context.Context, s *spec.Spec, tok content.Tokenizer, synth *content.Synth, opts workload.Options) (*Workload, error) {
	g, err := workload.New(s, tok, synth, opts)
	if err != nil {
		return nil, err
	}
	w := &Workload{Header: g.Header(), Spec: s, Tokenizer: tok}
	w.Sessions, w.Hash, err = generateAll(ctx, g, w.Header)
	if err != nil {
		return nil, err
	}
	return w, nil
}

// generateAll generates every session of g and the workload hash of
// the trace of them under h.
func generateAll(ctx context.Context, g *workload.Generator, h trace.Header) ([]*trace.Session, string, error) {
	tw, err := trace.NewWriter(io.Discard, h)
	if err != nil {
		return nil, "", err
	}
	var sessions []*trace.Session
	_, err = g.Generate(ctx, func(s *trace.Session) error {
		sessions = append(sessions, s)
		return tw.Write(s)
	})
	if errors.Is(err, context.Canceled) {
		return nil, "", ErrInterrupted
	}
	if err != nil {
		return nil, "", err
	}
	hash, err := tw.Close()
	return sessions, hash, err
}

// tokenizer names the tokenizer of the workload's token counts: the
// header's, or o200k_base for a trace that names none (an imported one).
func (w *Workload) tokenizer() string { return cmp.Or(w.Header.Tokenizer, "o200k_base") }

// openTokenizer is w's Tokenizer, or the built-in encoding its header
// names.
func (w *Workload) openTokenizer() (content.Tokenizer, error) {
	if w.Tokenizer != nil {
		return w.Tokenizer, nil
	}
	if name := w.tokenizer(); content.IsBuiltin(name) {
		return content.Builtin(name)
	}
	return nil, fmt.Errorf("tokenizer %q: not built in, and the workload carries none (harness.Load opens it)", w.tokenizer())
}

// closedLoop names the workload's clients that have no schedule.
func (w *Workload) closedLoop() []string {
	var names []string
	for _, c := range w.Header.Clients {
		if c.Concurrency > 0 {
			names = append(names, c.Name)
		}
	}
	return names
}

// impliedReuse is the prefix-cache reuse of the workload's sessions, in
// vLLM's default blocks of 16 tokens; nil when they hold too many blocks
// to tell (virtual.MaxReuseBlocks).
func (w *Workload) impliedReuse() *trace.Reuse {
	r, ok := virtual.ImpliedReuse(w.Sessions, 16)
	if !ok {
		return nil
	}
	return &r
}

// MaxConns is the most requests of w that can be in flight at once with
// open-loop requests capped at capped (0: no cap), the size of each
// server's connection pool.
func (w *Workload) MaxConns(capped int) int {
	if capped > 0 {
		return capped
	}
	n := 256
	for _, c := range w.Header.Clients {
		n += c.Concurrency
	}
	return n
}

// Models are the models w's requests name, sorted, when override (a
// Config's Model) is "" or override itself.
func (w *Workload) Models(override string) []string { return modelsOf(w, override).sent }

// Prompts looks up the prompt of a request among sessions: the new user
// message of the turn.
func Prompts(sessions []*trace.Session) func(client string, session, turn int) string {
	type key struct {
		client string
		index  int
	}
	byKey := make(map[key]*trace.Session, len(sessions))
	for _, s := range sessions {
		byKey[key{s.Client, s.Index}] = s
	}
	return func(client string, session, turn int) string {
		s := byKey[key{client, session}]
		if s == nil || turn < 0 || turn >= len(s.Turns) {
			return ""
		}
		return s.Turns[turn].Prompt
	}
}
