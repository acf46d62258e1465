package workload

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"surge/content"
	"surge/content/dataset"
	"surge/openai"
	"surge/spec"
	"surge/trace"
)

// Options adjust one compilation of a spec.
type Options struct {
	// NoText leaves the prompt text out of the trace, keeping only each
	// prompt's exact length: for analysis and simulation, or for a driver
	// that brings its own text.
	NoText bool
	// Datasets are the files of the clients with a dataset, by client
	// name, as read from the path each names.
	Datasets map[string]*dataset.Set
}

// Generator compiles one spec into sessions. It is not safe for concurrent
// use.
type Generator struct {
	spec     *spec.Spec
	synth    *content.Synth
	tok      content.Tokenizer
	noText   bool
	clients  []client
	specHash string
	closed   int // sessions of closed-loop clients
	// toolSets holds the tool sets built so far that more than one
	// session sends, by id.
	toolSets map[uint64]*trace.ToolSet
}

// client is a spec client resolved for generation.
type client struct {
	*spec.Client
	key      uint64
	sessions int // closed loop: number of sessions to generate
	text     clientContent
	pool     *pool    // shared system prompts; nil: none
	data     *prompts // the dataset's prompts; nil: synthesised
}

// New prepares the compilation of s, which must have come from spec.Parse
// (with any command-line overrides applied to it). The synthesiser must be
// built for tok, the spec's tokenizer.
func New(s *spec.Spec, tok content.Tokenizer, synth *content.Synth, opts Options) (*Generator, error) {
	sum := sha256.Sum256(s.Canonical())
	g := &Generator{
		spec: s, synth: synth, tok: tok, noText: opts.NoText,
		toolSets: map[uint64]*trace.ToolSet{},
		specHash: "sha256:" + hex.EncodeToString(sum[:]),
	}
	if s.Requests <= 0 && s.Duration <= 0 {
		return nil, errors.New("the run has no end: give duration or requests in the spec, or --duration or --requests")
	}
	if err := g.resolveClients(opts.Datasets); err != nil {
		return nil, err
	}
	return g, nil
}

// resolveClients checks each client's load and gives each closed-loop
// client its share of the request count. Open-loop rates come from
// spec.Parse, which has already split a total rate by weight.
func (g *Generator) resolveClients(sets map[string]*dataset.Set) error {
	shares := shareRequests(g.spec)
	var errs []error
	for i := range g.spec.Clients {
		c := &g.spec.Clients[i]
		rc := client{Client: c, key: nameKey(c.Name), text: newClientContent(c)}
		if err := rc.text.check(g.synth); err != nil {
			errs = append(errs, fmt.Errorf("client %q: %w", c.Name, err))
		}
		if c.Prefix != nil {
			p, err := newPool(c.Prefix)
			if err != nil {
				errs = append(errs, fmt.Errorf("client %q: prefix: %w", c.Name, err))
			}
			rc.pool = p
		}
		if c.Dataset != nil {
			if err := g.openDataset(&rc, sets[c.Name]); err != nil {
				errs = append(errs, fmt.Errorf("client %q: dataset: %w", c.Name, err))
			}
		}
		switch {
		case c.Concurrency > 0 && g.spec.Requests <= 0:
			errs = append(errs, fmt.Errorf("client %q: closed loop (concurrency %d) needs requests: the number of sessions to generate", c.Name, c.Concurrency))
		case c.Concurrency > 0:
			rc.sessions = shares[i]
			g.closed += shares[i]
		case c.Arrival.Rate <= 0 && len(c.Arrival.Curve.Stages) == 0 && c.Arrival.Curve.Ramp == nil:
			errs = append(errs, fmt.Errorf("client %q: no rate: give the client a rate, a concurrency, or the spec a total rate", c.Name))
		}
		g.clients = append(g.clients, rc)
	}
	return errors.Join(errs...)
}

// openDataset gives c the prompts of set, the file its dataset names.
func (g *Generator) openDataset(c *client, set *dataset.Set) error {
	if set == nil {
		return fmt.Errorf("%s was not read (Options.Datasets has no set for the client)", c.Dataset.Path)
	}
	p, err := newPrompts(g.spec.Seed, c, set)
	c.data = p
	return err
}

// shareRequests splits the spec's request count across all clients by
// weight, rounding by largest remainder so the shares add up exactly (ties
// to the client listed first). Closed-loop clients take their share; the
// open-loop clients' shares pool into the open-loop stream.
func shareRequests(s *spec.Spec) []int {
	shares := make([]int, len(s.Clients))
	var total float64
	for _, c := range s.Clients {
		total += c.Weight
	}
	if s.Requests <= 0 || total <= 0 {
		return shares
	}
	rem := make([]float64, len(s.Clients))
	left := s.Requests
	for i, c := range s.Clients {
		exact := float64(s.Requests) * c.Weight / total
		shares[i] = int(exact)
		rem[i] = exact - float64(shares[i])
		left -= shares[i]
	}
	order := make([]int, len(shares))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rem[b], rem[a]) })
	for _, i := range order[:left] {
		shares[i]++
	}
	return shares
}

// Header returns the trace header of this compilation.
func (g *Generator) Header() trace.Header {
	h := trace.Header{
		Name: g.spec.Name, SpecHash: g.specHash, Seed: g.spec.Seed,
		Tokenizer: g.spec.Tokenizer, TokenizerHash: content.Fingerprint(g.tok),
		ContentHash: g.synth.Hash(), WarmupUS: g.spec.Warmup.Microseconds(),
		Text: !g.noText,
	}
	for _, c := range g.clients {
		ci := trace.ClientInfo{Name: c.Name, Model: c.Model, Concurrency: c.Concurrency, Headers: c.Headers, ExtraBody: c.ExtraBody}
		if c.data != nil {
			ci.Dataset = c.data.info()
		}
		if c.Session.History == spec.HistoryPinned {
			ci.History = trace.HistoryPinned
		}
		if c.Options != nil {
			ci.Options, _ = json.Marshal(c.Options) // plain data: it cannot fail
		}
		h.Clients = append(h.Clients, ci)
	}
	if g.spec.Salt == spec.SaltNone {
		h.Salt = trace.SaltNone
	}
	h.SLO = SLOs(g.spec.SLO)
	h.FaultWindows = faultWindows(g.clients)
	return h
}

// SLOs are a spec's objectives as a trace header carries them.
func SLOs(objs []spec.SLO) []trace.SLO {
	var out []trace.SLO
	for _, o := range objs {
		out = append(out, trace.SLO{Metric: o.Metric, Percentile: o.Percentile, BoundUS: o.Bound.Microseconds()})
	}
	return out
}

// Result describes a finished compilation.
type Result struct {
	Sessions int // sessions emitted
	// Warnings are reasons to doubt the trace is what the spec's author
	// meant, such as fewer sessions than the requests asked for.
	Warnings []error
}

// Generate emits every session in start order: closed-loop sessions first
// (they have no schedule), then the open-loop streams merged by offset until
// the request count or the duration is reached. It stops early with ctx's
// error when ctx is done.
func (g *Generator) Generate(ctx context.Context, emit func(*trace.Session) error) (Result, error) {
	res, err := g.generate(ctx, emit)
	res.Warnings = append(res.Warnings, g.datasetWarnings()...)
	return res, err
}

// generate is Generate but for the datasets' warnings.
func (g *Generator) generate(ctx context.Context, emit func(*trace.Session) error) (Result, error) {
	var res Result
	for _, c := range g.clients {
		if c.data != nil {
			c.data.rewind()
		}
	}
	counted := func(s *trace.Session) error {
		if res.Sessions%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		res.Sessions++
		return emit(s)
	}
	b := newBuilder(g)
	for ci, c := range g.clients {
		for i := 0; i < c.sessions; i++ {
			s, err := b.session(ci, i, 0)
			if err == nil {
				err = counted(s)
			}
			if err != nil {
				return res, err
			}
		}
	}
	open := g.spec.Requests - g.closed
	if g.spec.Requests > 0 && open <= 0 {
		return res, nil
	}
	timedOut, err := g.mergeOpen(b, open, counted)
	if err == nil && g.spec.Requests > 0 && res.Sessions < g.spec.Requests && !timedOut {
		res.Warnings = append(res.Warnings, fmt.Errorf("only %d of the %d requested sessions: the open-loop arrival streams ran out (a rate curve that ends at 0, or a rate too low to reach the count within a year, the longest a trace holds)", res.Sessions, g.spec.Requests))
	}
	return res, err
}

// datasetWarnings are the caveats of every client's dataset.
func (g *Generator) datasetWarnings() []error {
	var out []error
	for _, c := range g.clients {
		if c.data != nil {
			out = append(out, c.data.warnings(c.Name)...)
		}
	}
	return out
}

// mergeOpen merges the open-loop clients' arrival streams in offset order
// until n sessions (if n > 0) or the duration is reached, reporting whether
// the duration ended it.
func (g *Generator) mergeOpen(b *builder, n int, emit func(*trace.Session) error) (timedOut bool, err error) {
	m, err := newMerger(g)
	if err != nil {
		return false, err
	}
	for emitted := 0; n <= 0 || emitted < n; emitted++ {
		ci, index, at, ok := m.next()
		if !ok {
			return false, nil
		}
		if g.spec.Duration > 0 && at >= g.spec.Duration {
			return true, nil
		}
		if at > spec.MaxDuration {
			return false, nil // as if the streams ran out: a trace ends at a year
		}
		s, err := b.session(ci, index, at.Microseconds())
		if err == nil {
			err = emit(s)
		}
		if err != nil {
			return false, err
		}
	}
	return false, nil
}

// builder fills sessions, reusing its generator and buffers.
type builder struct {
	g   *Generator
	pcg *rand.PCG
	rng *rand.Rand
	buf []byte
	// inputs are the lengths of the texts of the session's embeddings
	// turns whose texts are still to be written, in turn order.
	inputs [][]int
}

func newBuilder(g *Generator) *builder {
	pcg := rand.NewPCG(0, 0)
	return &builder{g: g, pcg: pcg, rng: rand.New(pcg)}
}

// session builds session index of client ci starting at atUS, with the
// faults its client injects. Its content depends only on (seed, client
// name, index), and its tool set on (seed, its scope); it fails only when
// no tool definition of the asked size can be made.
func (b *builder) session(ci, index int, atUS int64) (*trace.Session, error) {
	s, err := b.build(ci, index, atUS)
	if err != nil {
		return nil, err
	}
	b.duplicate(ci, s)
	addFaults(b.g.spec.Seed, &b.g.clients[ci], s)
	addImages(b.g.spec.Seed, &b.g.clients[ci], s)
	s.Tools, err = b.tools(&b.g.clients[ci], index)
	return s, err
}

// build builds the turns of session index of client ci starting at atUS;
// it fails only when no prompt of the client's dataset serves.
func (b *builder) build(ci, index int, atUS int64) (*trace.Session, error) {
	c := &b.g.clients[ci]
	seedSession(b.pcg, b.g.spec.Seed, c.key, index)
	b.inputs = b.inputs[:0]
	s := &trace.Session{Client: c.Name, Index: index, AtUS: atUS, Model: c.Model, API: c.API}
	switch c.Session.Kind {
	case spec.KindChat:
		if c.data != nil {
			var err error
			s.Turns, err = b.datasetChat(c, index)
			return s, err
		}
		s.Turns = b.chat(c, nil)
		return s, nil
	case spec.KindAgent:
		s.Turns = b.agent(c)
		return s, nil
	case spec.KindRAG:
		s.Turns = b.rag(c)
		return s, nil
	case spec.KindBatch:
		s.Turns, s.DeadlineUS = b.batch(c)
		return s, nil
	}
	if c.data != nil {
		t, err := b.datasetTurn(c, index)
		s.Turns = []trace.Turn{t}
		return s, err
	}
	sysID, sys := b.system(c)
	t := b.newTurn(c)
	if sys != nil {
		t.SystemID, t.SystemTokens, t.System = sysID, sys.tokens, sys.text
		t.InputTokens += sys.tokens
	}
	b.text(c, &t)
	s.Turns = []trace.Turn{t}
	return s, nil
}

// prompt appends to dst a prompt of n tokens in t's style and language.
func (b *builder) prompt(dst []byte, r *rand.Rand, t *trace.Turn, n int) []byte {
	return b.g.synth.PromptIn(dst, r, content.Style(t.Style), turnLanguage(t), n)
}

// newTurn draws a turn's lengths with the session's generator (input,
// output, then reasoning if the client has it) and applies the client's
// sampling settings and max_tokens policy to the whole generation,
// reasoning included, as servers count it.
func (b *builder) newTurn(c *client) trace.Turn {
	if c.API == openai.APIEmbeddings {
		return b.embeddingsTurn(c)
	}
	if openai.Scores(c.API) {
		return b.scoresTurn(c)
	}
	if c.Correlation != 0 {
		return b.correlatedTurn(c)
	}
	return b.turnFor(c, tokens(c.Input.Sample(b.rng)))
}

// turnFor is newTurn for a turn whose prompt length is in, drawing only
// the output and reasoning lengths.
func (b *builder) turnFor(c *client, in int) trace.Turn {
	return b.lengthsTurn(c, in, tokens(c.Output.Sample(b.rng)))
}

// lengthsTurn is a turn of in prompt and out answer tokens, drawing the
// reasoning length if the client has one and applying the sampling
// settings and max_tokens policy.
func (b *builder) lengthsTurn(c *client, in, out int) trace.Turn {
	reasoning := 0
	if c.Reasoning != nil {
		reasoning = max(0, tokens(c.Reasoning.Sample(b.rng)))
	}
	total := out + reasoning
	t := trace.Turn{
		InputTokens: in, OutputTokens: total, ReasoningTokens: reasoning,
		Temperature: c.Sampling.Temperature, TopP: c.Sampling.TopP,
	}
	t.Copy = c.Copy
	c.text.label(b.rng, &t)
	switch m := c.Sampling.MaxTokens; {
	case c.Sampling.ExactOutput:
		t.MaxTokens, t.MinTokens, t.IgnoreEOS = total, total, true
	case m > 0:
		// The server stops at the cap, so the expected output is the smaller.
		t.MaxTokens, t.OutputTokens = m, min(total, m)
		t.ReasoningTokens = min(reasoning, t.OutputTokens)
	case m == spec.MaxTokensOutput:
		t.MaxTokens = total
	}
	return t
}

// tokens rounds a sampled length to a whole number of tokens in
// [1, spec.MaxLength].
func tokens(x float64) int {
	if math.IsNaN(x) || x < 1 {
		return 1
	}
	return int(math.Round(min(x, spec.MaxLength)))
}
