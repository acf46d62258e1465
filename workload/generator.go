package workload

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"surge/content"
	"surge/spec"
	"surge/trace"
)

// Options adjust one compilation of a spec.
type Options struct {
	Seed     *uint64       // overrides the spec's seed
	Requests int           // overrides the spec's request count when > 0
	Duration time.Duration // overrides the spec's duration when > 0
	// NoText leaves the prompt text out of the trace, keeping only its
	// exact length; a driver then synthesises it from the same recipe.
	NoText bool
}

// Generator compiles one spec into sessions. It is not safe for concurrent
// use.
type Generator struct {
	spec     *spec.Spec
	synth    *content.Synth
	tok      content.Tokenizer
	seed     uint64
	requests int
	duration time.Duration
	noText   bool
	clients  []client
	specHash string
}

// client is a spec client resolved for generation.
type client struct {
	*spec.Client
	key      uint64
	sessions int // closed loop: number of sessions to generate
	style    content.Style
	maxFixed int // a fixed max_tokens, or 0
	maxNone  bool
}

// New prepares the compilation of s. The synthesiser must be built for the
// spec's tokenizer; specHash identifies s in the trace header.
func New(s *spec.Spec, tok content.Tokenizer, synth *content.Synth, specHash string, opts Options) (*Generator, error) {
	g := &Generator{
		spec: s, synth: synth, tok: tok, seed: s.Seed, specHash: specHash,
		requests: s.Requests, duration: s.Duration, noText: opts.NoText,
	}
	if opts.Seed != nil {
		g.seed = *opts.Seed
	}
	if opts.Requests > 0 {
		g.requests = opts.Requests
	}
	if opts.Duration > 0 {
		g.duration = opts.Duration
	}
	if g.requests <= 0 && g.duration <= 0 {
		return nil, errors.New("the run has no end: give duration or requests in the spec, or --duration or --requests")
	}
	if err := g.resolveClients(); err != nil {
		return nil, err
	}
	return g, nil
}

// resolveClients gives each open-loop client its rate (spec.Parse has
// already split a total rate by weight) and each closed-loop client its
// weight's share of the request count.
func (g *Generator) resolveClients() error {
	var allWeight float64
	for i := range g.spec.Clients {
		allWeight += g.spec.Clients[i].Weight
	}
	var errs []error
	for i := range g.spec.Clients {
		c := &g.spec.Clients[i]
		rc := client{Client: c, key: nameKey(c.Name), style: content.Style(c.Prompt)}
		switch {
		case c.Concurrency > 0 && g.requests <= 0:
			errs = append(errs, fmt.Errorf("client %q: closed loop (concurrency %d) needs requests: the number of sessions to generate", c.Name, c.Concurrency))
		case c.Concurrency > 0:
			rc.sessions = int(math.Round(float64(g.requests) * c.Weight / allWeight))
		case c.Arrival.Rate <= 0 && len(c.Arrival.Curve.Stages) == 0 && c.Arrival.Curve.Ramp == nil:
			errs = append(errs, fmt.Errorf("client %q: no rate: give the client a rate, a concurrency, or the spec a total rate", c.Name))
		}
		if err := rc.parseMaxTokens(); err != nil {
			errs = append(errs, err)
		}
		g.clients = append(g.clients, rc)
	}
	return errors.Join(errs...)
}

func (c *client) parseMaxTokens() error {
	switch c.Sampling.MaxTokens {
	case "", "output":
	case "none":
		c.maxNone = true
	default:
		n, err := strconv.Atoi(c.Sampling.MaxTokens)
		if err != nil || n <= 0 {
			return fmt.Errorf("client %q: max_tokens %q: want output, none or a positive number", c.Name, c.Sampling.MaxTokens)
		}
		c.maxFixed = n
	}
	return nil
}

// Header returns the trace header of this compilation.
func (g *Generator) Header() trace.Header {
	h := trace.Header{
		Name: g.spec.Name, SpecHash: g.specHash, Seed: g.seed,
		Tokenizer: g.tok.Name(), TokenizerHash: content.Fingerprint(g.tok),
		ContentHash: g.synth.Hash(), WarmupUS: g.spec.Warmup.Microseconds(),
		Text: !g.noText,
	}
	for _, c := range g.clients {
		h.Clients = append(h.Clients, trace.ClientInfo{Name: c.Name, Model: c.Model, Concurrency: c.Concurrency})
	}
	return h
}

// Generate emits every session in start order: closed-loop sessions first
// (they have no schedule), then the open-loop streams merged by offset.
// It stops early with ctx's error when ctx is done.
func (g *Generator) Generate(ctx context.Context, emit func(*trace.Session) error) error {
	b := newBuilder(g)
	open := g.requests
	for ci, c := range g.clients {
		for i := 0; i < c.sessions; i++ {
			if err := emit(b.session(ci, i, 0)); err != nil {
				return err
			}
		}
		open -= c.sessions
	}
	if g.requests > 0 && open <= 0 {
		return nil
	}
	return g.mergeOpen(ctx, b, open, emit)
}

// mergeOpen merges the open-loop clients' arrival streams in offset order
// until the request count (if n > 0) or the duration is reached.
func (g *Generator) mergeOpen(ctx context.Context, b *builder, n int, emit func(*trace.Session) error) error {
	m, err := newMerger(g)
	if err != nil {
		return err
	}
	for emitted := 0; n <= 0 || emitted < n; emitted++ {
		if emitted%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		ci, index, at, ok := m.next()
		if !ok || (g.duration > 0 && at >= g.duration) {
			return nil
		}
		if err := emit(b.session(ci, index, at.Microseconds())); err != nil {
			return err
		}
	}
	return nil
}

// builder fills sessions, reusing its generator and buffers.
type builder struct {
	g   *Generator
	pcg *rand.PCG
	rng *rand.Rand
	buf []byte
}

func newBuilder(g *Generator) *builder {
	pcg := rand.NewPCG(0, 0)
	return &builder{g: g, pcg: pcg, rng: rand.New(pcg)}
}

// session builds session index of client ci starting at atUS. Its content
// depends only on (seed, client name, index).
func (b *builder) session(ci, index int, atUS int64) *trace.Session {
	c := &b.g.clients[ci]
	seedSession(b.pcg, b.g.seed, c.key, index)
	in := tokens(c.Input.Sample(b.rng))
	out := tokens(c.Output.Sample(b.rng))
	t := trace.Turn{
		InputTokens: in, OutputTokens: out, Style: string(c.style),
		Temperature: c.Sampling.Temperature, TopP: c.Sampling.TopP,
	}
	switch {
	case c.Sampling.ExactOutput:
		t.MaxTokens, t.MinTokens, t.IgnoreEOS = out, out, true
	case c.maxFixed > 0:
		t.MaxTokens = c.maxFixed
	case !c.maxNone:
		t.MaxTokens = out
	}
	if !b.g.noText {
		b.buf = b.g.synth.Prompt(b.buf[:0], b.rng, c.style, in)
		t.Prompt = string(b.buf)
	}
	return &trace.Session{
		Client: c.Name, Index: index, AtUS: atUS, Model: c.Model, API: c.API,
		Turns: []trace.Turn{t},
	}
}

// tokens rounds a sampled length to a whole number of tokens, at least 1.
func tokens(x float64) int {
	if math.IsNaN(x) || x < 1 {
		return 1
	}
	if x > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(math.Round(x))
}
