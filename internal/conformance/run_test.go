package conformance

import (
	"context"
	"fmt"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"surge/client"
	"surge/content"
	"surge/driver"
	"surge/openai"
	"surge/sim"
	"surge/sim/server"
	"surge/sim/virtual"
	"surge/spec"
	"surge/trace"
	"surge/workload"
)

// servedModel is the model every spec here names and the engine serves.
const servedModel = "meta-llama/Llama-3.1-8B-Instruct"

// key names one turn of a trace: client, session index, turn.
type key struct {
	client  string
	session int
	turn    int
}

func (k key) String() string { return fmt.Sprintf("%s/%d/%d", k.client, k.session, k.turn) }

// keyOf is the turn a record is of.
func keyOf(r *trace.Record) key { return key{r.Client, r.Session, r.Turn} }

// workloadOf is a compiled spec: its header and sessions.
type workloadOf struct {
	header   trace.Header
	sessions []*trace.Session
}

// turn returns the trace's turn k names, and its session.
func (w *workloadOf) turn(k key) (*trace.Session, *trace.Turn) {
	for _, s := range w.sessions {
		if s.Client == k.client && s.Index == k.session {
			return s, &s.Turns[k.turn]
		}
	}
	return nil, nil
}

// contentOf is the tokenizer and prompt synthesiser every spec uses.
type contentOf struct {
	tok   content.Tokenizer
	synth *content.Synth
}

// newContent loads o200k_base and its synthesiser.
func newContent(t *testing.T) contentOf {
	t.Helper()
	tok, err := content.Builtin("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	synth, err := content.NewSynth(tok, content.SynthConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return contentOf{tok, synth}
}

// count is the number of tokens of text.
func (c contentOf) count(text string) int { return len(c.tok.Encode(text)) }

// cut makes room for salt in a conversation's first message, as surge run
// does.
func (c contentOf) cut(salt string) func(string) (string, bool) {
	return func(first string) (string, bool) { return content.MakeRoom(c.tok, salt, first) }
}

// salted is first, a conversation's first message, as the driver sends it
// with salt: the salt in place of its first tokens.
func (c contentOf) salted(salt, first string) string {
	if salt == "" {
		return first
	}
	kept, _ := c.cut(salt)(first)
	return salt + kept
}

// compile compiles the spec text into its sessions, in memory.
func (c contentOf) compile(t *testing.T, text string) *workloadOf {
	t.Helper()
	s, err := spec.Parse("conformance.yaml", []byte(text))
	if err != nil {
		t.Fatalf("spec: %v", err)
	}
	g, err := workload.New(s, c.tok, c.synth, workload.Options{})
	if err != nil {
		t.Fatalf("spec: %v", err)
	}
	w := &workloadOf{header: g.Header()}
	if _, err := g.Generate(t.Context(), func(s *trace.Session) error {
		w.sessions = append(w.sessions, s)
		return nil
	}); err != nil {
		t.Fatalf("generating: %v", err)
	}
	return w
}

// engine is the engine both sides run: the server's configuration, from
// which the virtual run takes its engine's.
type engine struct {
	hw           sim.Hardware
	maxModelLen  int // 0: the model's context
	outputMedian int // natural reply length of the real-time server; 0: its default
}

// hardware is Llama-3.1-8B on one H100, the built-in engine's default.
func hardware(t *testing.T) sim.Hardware {
	t.Helper()
	m, err := sim.LookupModel("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	g, err := sim.LookupGPU("h100")
	if err != nil {
		t.Fatal(err)
	}
	return sim.Hardware{Model: m, GPU: g, TP: 1}
}

// serverConfig is the real-time server's configuration.
func (e engine) serverConfig(tok content.Tokenizer) server.Config {
	return server.Config{
		Model: servedModel, Hardware: e.hw, Tokenizer: tok,
		Engine: sim.EngineConfig{MaxModelLen: e.maxModelLen}, OutputMedian: e.outputMedian,
	}
}

// sent is one request as the driver handed it to the client: the turn,
// the messages, when Do was called and returned, and what came back.
type sent struct {
	msgs             []openai.Message
	maxTokens        int
	called, returned time.Time
	text             string
	completion       int
}

// recorder is a driver.Doer that keeps every request it passes on, by the
// turn its last message (the turn's own prompt) names.
type recorder struct {
	next  driver.Doer
	turns map[string]key // a turn's prompt → the turn

	mu    sync.Mutex
	sends map[key]*sent
	errs  []string
}

// newRecorder indexes w's turns by prompt, as salted when it is a
// conversation's first message; prompts must be unique.
func newRecorder(t *testing.T, next driver.Doer, w *workloadOf, salted func(string) string) *recorder {
	t.Helper()
	r := &recorder{next: next, turns: map[string]key{}, sends: map[key]*sent{}}
	for _, s := range w.sessions {
		for k := range s.Turns {
			p := s.Turns[k].Prompt
			if tu := &s.Turns[k]; tu.Parent == nil && tu.System == "" {
				p = salted(p)
			}
			if old, dup := r.turns[p]; dup {
				t.Fatalf("turns %v and %v have the same prompt: the recorder could not tell them apart", old, key{s.Client, s.Index, k})
			}
			r.turns[p] = key{s.Client, s.Index, k}
		}
	}
	return r
}

// Do passes req on and keeps a copy of it with the result.
func (r *recorder) Do(ctx context.Context, req *client.Request) *client.Result {
	called := time.Now()
	res := r.next.Do(ctx, req)
	returned := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(req.Messages) == 0 {
		r.errs = append(r.errs, "a request with no messages")
		return res
	}
	k, ok := r.turns[req.Messages[len(req.Messages)-1].Content]
	switch {
	case !ok:
		r.errs = append(r.errs, fmt.Sprintf("a request whose last message is no turn's prompt: %.60q", req.Messages[len(req.Messages)-1].Content))
		return res
	case r.sends[k] != nil:
		r.errs = append(r.errs, fmt.Sprintf("turn %v sent twice", k))
	}
	r.sends[k] = &sent{
		msgs: slices.Clone(req.Messages), maxTokens: req.MaxTokens,
		called: called, returned: returned, text: res.Text, completion: res.CompletionTokens,
	}
	return res
}

// collect is a sink keeping every record.
type collect struct {
	mu   sync.Mutex
	recs map[key]trace.Record
	dups []key
}

// Write keeps a copy of rec.
func (c *collect) Write(rec *trace.Record) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.recs == nil {
		c.recs = map[key]trace.Record{}
	}
	k := keyOf(rec)
	if _, dup := c.recs[k]; dup {
		c.dups = append(c.dups, k)
	}
	c.recs[k] = *rec
	return nil
}

// outcome is what one side did with a workload: a record per turn sent,
// and for the driver what it handed the client and the salt it put
// before each conversation.
type outcome struct {
	side string
	recs map[key]trace.Record
	sent map[key]*sent // nil for the virtual run
	salt string
}

// runDriver sends w in real time to the built-in engine e serves on a
// loopback port, streaming, counting prompts with c's tokenizer, and
// salting each conversation with salt (none when empty) as surge run
// does.
func runDriver(t *testing.T, c contentOf, e engine, w *workloadOf, salt string) outcome {
	t.Helper()
	srv, err := server.New(e.serverConfig(c.tok))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("server: %v", err)
		}
	}()
	cl, err := client.New(client.Config{BaseURL: "http://" + ln.Addr().String(), MaxConns: 64})
	if err != nil {
		t.Fatal(err)
	}
	rec := newRecorder(t, cl, w, func(first string) string { return c.salted(salt, first) })
	cfg := driver.Config{
		Client: rec, Stream: true, Warmup: -1, ReasoningHint: true,
		Count: c.count, Drain: 20 * time.Second,
	}
	if salt != "" {
		cfg.Salt, cfg.SaltTokens, cfg.Cut = salt, c.count(salt), c.cut(salt)
	}
	d, err := driver.New(cfg, w.header, w.sessions)
	if err != nil {
		t.Fatal(err)
	}
	var sink collect
	end, err := d.Run(t.Context(), time.Now(), &sink)
	if err != nil {
		t.Fatalf("driver: %v", err)
	}
	if end.Interrupted {
		t.Fatal("driver: the run was interrupted")
	}
	for _, e := range rec.errs {
		t.Errorf("driver: %s", e)
	}
	if len(sink.dups) > 0 {
		t.Errorf("driver: turns recorded twice: %v", sink.dups)
	}
	return outcome{side: "driver", recs: sink.recs, sent: rec.sends, salt: salt}
}

// runVirtual runs w in virtual time through the engine e configures.
func runVirtual(t *testing.T, c contentOf, e engine, w *workloadOf) outcome {
	t.Helper()
	srv, err := server.New(e.serverConfig(c.tok))
	if err != nil {
		t.Fatal(err)
	}
	cfg := virtual.Config{Engine: srv.EngineConfig(), Cost: sim.NewCostModel(e.hw, sim.CostParams{}), Warmup: -1}
	var sink collect
	end, err := virtual.Run(t.Context(), cfg, w.header, w.sessions, &sink)
	if err != nil {
		t.Fatalf("virtual: %v", err)
	}
	if end.Interrupted {
		t.Fatal("virtual: the run was interrupted")
	}
	if len(sink.dups) > 0 {
		t.Errorf("virtual: turns recorded twice: %v", sink.dups)
	}
	return outcome{side: "virtual", recs: sink.recs}
}
