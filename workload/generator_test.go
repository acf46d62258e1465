package workload

import (
	"bytes"
	"context"
	"math"
	"runtime"
	"sync"
	"testing"

	"surge/content"
	"surge/spec"
	"surge/trace"
)

var (
	synthOnce sync.Once
	synthTok  content.Tokenizer
	synthO200 *content.Synth
	synthErr  error
)

// o200k returns the shared o200k_base tokenizer and synthesiser.
func o200k(t testing.TB) (content.Tokenizer, *content.Synth) {
	t.Helper()
	synthOnce.Do(func() {
		synthTok, synthErr = content.Builtin("o200k_base")
		if synthErr == nil {
			synthO200, synthErr = content.NewSynth(synthTok, content.SynthConfig{})
		}
	})
	if synthErr != nil {
		t.Fatal(synthErr)
	}
	return synthTok, synthO200
}

func parse(t testing.TB, yaml string) *spec.Spec {
	t.Helper()
	s, err := spec.Parse("test.yaml", []byte(yaml))
	if err != nil {
		t.Fatalf("parsing spec: %v", err)
	}
	return s
}

// generate compiles s and returns the trace bytes and sessions.
func generate(t testing.TB, s *spec.Spec, opts Options) ([]byte, []*trace.Session) {
	t.Helper()
	tok, synth := o200k(t)
	g, err := New(s, tok, synth, "sha256:test", opts)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := trace.NewWriter(&buf, g.Header())
	if err != nil {
		t.Fatal(err)
	}
	var ss []*trace.Session
	err = g.Generate(context.Background(), func(s *trace.Session) error {
		ss = append(ss, s)
		return w.Write(s)
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), ss
}

const twoClients = `
version: 1
seed: 9
requests: 400
rate: 40/s
clients:
  - name: chat
    model: m1
    weight: 3
    input: {dist: lognormal, median: 200, sigma: 1, max: 4k}
    output: {dist: uniform, min: 10, max: 300}
    sampling: {exact_output: true, temperature: 0.5}
  - name: api
    model: m2
    api: completions
    arrival: {process: gamma, cv: 2}
    input: 64
    output: 16
    prompt: code
    sampling: {max_tokens: none}
`

func TestDeterministicAcrossGOMAXPROCS(t *testing.T) {
	s := parse(t, twoClients)
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	one, _ := generate(t, s, Options{})
	runtime.GOMAXPROCS(8)
	eight, _ := generate(t, s, Options{})
	if !bytes.Equal(one, eight) {
		t.Fatal("traces differ between GOMAXPROCS=1 and 8")
	}
	other := uint64(10)
	diff, _ := generate(t, s, Options{Seed: &other})
	if bytes.Equal(one, diff) {
		t.Fatal("seed 10 gave the same trace as seed 9")
	}
}

func TestSessionsDependOnlyOnSeedClientIndex(t *testing.T) {
	t.Parallel()
	// Session i of client chat must not change when the run is longer or
	// when another client is added with its own rate.
	base := parse(t, twoClients)
	_, short := generate(t, base, Options{Requests: 50})
	_, long := generate(t, base, Options{Requests: 300})
	byKey := map[[2]any]*trace.Session{}
	for _, s := range long {
		byKey[[2]any{s.Client, s.Index}] = s
	}
	for _, s := range short {
		l := byKey[[2]any{s.Client, s.Index}]
		if l == nil || l.AtUS != s.AtUS || l.Turns[0].Prompt != s.Turns[0].Prompt || l.Turns[0].InputTokens != s.Turns[0].InputTokens {
			t.Fatalf("session %s/%d differs between 50 and 300 requests", s.Client, s.Index)
		}
	}
}

func TestGenerateHonoursSpec(t *testing.T) {
	t.Parallel()
	tok, _ := o200k(t)
	_, ss := generate(t, parse(t, twoClients), Options{})
	if len(ss) != 400 {
		t.Fatalf("%d sessions, want 400", len(ss))
	}
	counts := map[string]int{}
	var last int64
	for _, s := range ss {
		counts[s.Client]++
		if s.AtUS < last {
			t.Fatalf("session %s/%d out of order", s.Client, s.Index)
		}
		last = s.AtUS
		turn := s.Turns[0]
		if n := len(tok.Encode(turn.Prompt)); n != turn.InputTokens {
			t.Errorf("%s/%d: prompt has %d tokens, trace says %d", s.Client, s.Index, n, turn.InputTokens)
		}
		switch s.Client {
		case "chat":
			if !turn.IgnoreEOS || turn.MinTokens != turn.OutputTokens || turn.MaxTokens != turn.OutputTokens || *turn.Temperature != 0.5 || s.API != "chat" {
				t.Errorf("chat turn %+v does not ask for the exact output length", turn)
			}
		case "api":
			if turn.MaxTokens != 0 || turn.InputTokens != 64 || s.API != "completions" || s.Model != "m2" {
				t.Errorf("api session %+v", s)
			}
		}
	}
	// 3:1 weights of 40/s: chat gets about 300 of 400 requests.
	if c := counts["chat"]; math.Abs(float64(c)-300) > 45 {
		t.Errorf("chat got %d of 400 requests, want about 300", c)
	}
}

func TestDurationAndClosedLoop(t *testing.T) {
	t.Parallel()
	s := parse(t, `
version: 1
duration: 20s
requests: 1000
clients:
  - {name: open, model: m, rate: 10/s, input: 5, output: 5}
  - {name: closed, model: m, concurrency: 4, weight: 1, input: 5, output: 5}
`)
	_, ss := generate(t, s, Options{NoText: true})
	closed, open := 0, 0
	for i, x := range ss {
		if x.Turns[0].Prompt != "" {
			t.Fatal("NoText trace carries text")
		}
		if x.Client == "closed" {
			closed++
			if x.AtUS != 0 || i >= 500 {
				t.Errorf("closed-loop session %d at %dus, position %d", x.Index, x.AtUS, i)
			}
			continue
		}
		open++
		if x.AtUS >= 20e6 {
			t.Errorf("open session at %dus, past the 20s duration", x.AtUS)
		}
	}
	// Equal weights: the closed client takes 500 of the 1000 requests; the
	// open one stops at 20 s, about 200 arrivals.
	if closed != 500 || open < 150 || open > 250 {
		t.Errorf("closed %d (want 500), open %d (want about 200)", closed, open)
	}
}

func TestNewErrors(t *testing.T) {
	t.Parallel()
	tok, synth := o200k(t)
	s := parse(t, `
version: 1
duration: 10s
clients:
  - {name: closed, model: m, concurrency: 4, input: 5, output: 5}
`)
	if _, err := New(s, tok, synth, "", Options{}); err == nil {
		t.Error("closed loop without a request count was accepted")
	}
}
