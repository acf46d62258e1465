package workload

import (
	"bytes"
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

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
	g, err := New(s, tok, synth, opts)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := trace.NewWriter(&buf, g.Header())
	if err != nil {
		t.Fatal(err)
	}
	var ss []*trace.Session
	_, err = g.Generate(context.Background(), func(s *trace.Session) error {
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
	s.Seed = 10
	diff, _ := generate(t, s, Options{})
	if bytes.Equal(one, diff) {
		t.Fatal("seed 10 gave the same trace as seed 9")
	}
}

func TestSessionsDependOnlyOnSeedClientIndex(t *testing.T) {
	t.Parallel()
	// Session i of client chat must not change when the run is longer or
	// when another client is added with its own rate.
	base := parse(t, twoClients)
	base.Requests = 50
	_, short := generate(t, base, Options{})
	base.Requests = 300
	_, long := generate(t, base, Options{})
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
requests: 10
clients:
  - {name: closed, model: m, concurrency: 4, input: 5, output: 5}
`)
	s.Requests, s.Duration = 0, 10*time.Second // as if a caller removed the count
	if _, err := New(s, tok, synth, Options{}); err == nil || !strings.Contains(err.Error(), "needs requests") {
		t.Errorf("closed loop without a request count: %v", err)
	}
	s.Duration = 0
	if _, err := New(s, tok, synth, Options{}); err == nil || !strings.Contains(err.Error(), "no end") {
		t.Errorf("no duration and no requests: %v", err)
	}
}

func TestShareRequests(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason   string
		requests int
		weights  []float64
		want     []int
	}{
		{"equal weights divide evenly", 12, []float64{1, 1, 1}, []int{4, 4, 4}},
		{"10 over 3: largest remainder, ties to the first listed", 10, []float64{1, 1, 1}, []int{4, 3, 3}},
		{"10 over 4 must still add up to 10", 10, []float64{1, 1, 1, 1}, []int{3, 3, 2, 2}},
		{"weights are relative", 100, []float64{3, 1}, []int{75, 25}},
		{"largest remainder wins the spare", 10, []float64{0.55, 0.45}, []int{6, 4}},
		{"no requests, no shares", 0, []float64{1, 2}, []int{0, 0}},
	}
	for _, tt := range tests {
		s := &spec.Spec{Requests: tt.requests}
		for _, w := range tt.weights {
			s.Clients = append(s.Clients, spec.Client{Weight: w})
		}
		if got := shareRequests(s); !slices.Equal(got, tt.want) {
			t.Errorf("%s: shareRequests(%d, %v) = %v, want %v", tt.reason, tt.requests, tt.weights, got, tt.want)
		}
	}
}

func TestGenerateWarnsWhenShort(t *testing.T) {
	t.Parallel()
	// The stages end at rate 0 after about 10 arrivals, far short of 1000.
	s := parse(t, `
version: 1
requests: 1000
clients:
  - name: c
    model: m
    arrival: {stages: [{at: 0s, rate: 1/s}, {at: 10s, rate: 1/s}, {at: 10s, rate: 0/s}]}
    input: 5
    output: 5
`)
	tok, synth := o200k(t)
	g, err := New(s, tok, synth, Options{NoText: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Generate(context.Background(), func(*trace.Session) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if res.Sessions >= 100 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), "ran out") {
		t.Errorf("got %d sessions, warnings %v; want few sessions and one warning", res.Sessions, res.Warnings)
	}
}

// TestGenerateEndsAtAYear checks that a rate too low for the request
// count stops the streams at a year, the longest offset a trace holds,
// with the warning, instead of writing offsets the trace refuses (a run
// then waited 31,700 years for them).
func TestGenerateEndsAtAYear(t *testing.T) {
	t.Parallel()
	s := parse(t, `
version: 1
requests: 1000
clients:
  - {name: c, model: m, rate: 1/d, input: 5, output: 5}
`)
	tok, synth := o200k(t)
	g, err := New(s, tok, synth, Options{NoText: true})
	if err != nil {
		t.Fatal(err)
	}
	var last int64
	res, err := g.Generate(context.Background(), func(s *trace.Session) error { last = s.AtUS; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if res.Sessions >= 1000 || last > int64(trace.MaxOffset/time.Microsecond) ||
		len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), "within a year") {
		t.Errorf("got %d sessions, the last at %dus, warnings %v; want fewer than 1000 within a year, and the warning", res.Sessions, last, res.Warnings)
	}
}

func TestGenerateStopsOnCancel(t *testing.T) {
	t.Parallel()
	s := parse(t, twoClients)
	s.Requests = 1_000_000
	tok, synth := o200k(t)
	g, err := New(s, tok, synth, Options{NoText: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	res, err := g.Generate(ctx, func(*trace.Session) error {
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || res.Sessions > 1024 {
		t.Errorf("after cancel: %d sessions, err %v", res.Sessions, err)
	}
}

// TestGoldenWorkloadHash pins the bytes of one trace. It fails when any
// machine, Go version or change produces other bytes for the same spec and
// seed; if a change of generation is intended, update the hash and say so
// in the commit, since old traces can no longer be regenerated.
func TestGoldenWorkloadHash(t *testing.T) {
	t.Parallel()
	const want = "sha256:ae14064bfc0baff9424c2447536d2ca895f60e6780a18e73e0f89a779f172033"
	data, _ := generate(t, parse(t, twoClients), Options{})
	r, err := trace.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := trace.Summarize(r)
	if err != nil {
		t.Fatal(err)
	}
	if sum.WorkloadHash != want {
		t.Errorf("workload hash %s, want %s", sum.WorkloadHash, want)
	}
}

func TestTokens(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		x      float64
		want   int
	}{
		{"rounds to nearest", 10.5, 11},
		{"at least one token", 0.2, 1},
		{"negative samples become one token", -5, 1},
		{"NaN becomes one token", math.NaN(), 1},
		{"a heavy tail is capped at MaxLength", 1e12, spec.MaxLength},
		{"+Inf is capped too", math.Inf(1), spec.MaxLength},
	}
	for _, tt := range tests {
		if got := tokens(tt.x); got != tt.want {
			t.Errorf("%s: tokens(%v) = %d, want %d", tt.reason, tt.x, got, tt.want)
		}
	}
}

func TestFixedMaxTokensCapsExpectedOutput(t *testing.T) {
	t.Parallel()
	s := parse(t, `
version: 1
requests: 200
clients:
  - {name: c, model: m, rate: 10/s, input: 5, output: "uniform(min=10,max=100)", sampling: {max_tokens: 50}}
`)
	_, ss := generate(t, s, Options{NoText: true})
	capped := 0
	for _, x := range ss {
		turn := x.Turns[0]
		if turn.MaxTokens != 50 || turn.OutputTokens > 50 || turn.MinTokens != 0 || turn.IgnoreEOS {
			t.Fatalf("turn %+v: want max_tokens 50 and output_tokens at most 50", turn)
		}
		if turn.OutputTokens == 50 {
			capped++
		}
	}
	if capped < 80 {
		t.Errorf("%d of 200 outputs at the cap, want about 111 (uniform 10..100 above 50)", capped)
	}
}
