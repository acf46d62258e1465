package harness

import (
	"context"
	"math"
	"strconv"
	"testing"

	"surge/content"
	"surge/sim"
	"surge/spec"
)

// specWorkload compiles n requests of 64 exact output tokens at
// concurrency 2 and marks every turn as copying fraction copy.
func specWorkload(t *testing.T, n int, copy float64) *Workload {
	t.Helper()
	s, err := spec.Parse("s.yaml", []byte("version: 1\nrequests: "+strconv.Itoa(n)+"\nwarmup: 0s\nclients:\n  - {name: c, model: llama-3.1-8b, concurrency: 2, input: 100, output: 64, sampling: {exact_output: true}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := content.Builtin(s.Tokenizer)
	if err != nil {
		t.Fatal(err)
	}
	synth, err := content.NewSynth(tok, content.SynthConfig{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Compile(context.Background(), s, tok, synth)
	if err != nil {
		t.Fatal(err)
	}
	for _, ss := range w.Sessions {
		for i := range ss.Turns {
			ss.Turns[i].Copy = copy
		}
	}
	if w.Hash, err = hashSessions(w.Header, w.Sessions); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestSpecDecodeRuns: the built-in engine drafting 4 tokens reports its
// acceptance through the summary, in virtual time from its counters and
// in real time scraped from its /metrics by the code that scrapes vLLM;
// at copy 1 every draft is accepted, at copy 0 the draft model's 0.6 a
// token gives (0.6 + 0.6² + 0.6³ + 0.6⁴)/4 = 0.326 of drafted tokens
// (the last steps of each request draft fewer, which the 0.08 tolerance
// covers).
func TestSpecDecodeRuns(t *testing.T) {
	t.Parallel()
	eng := Engine{Model: "llama-3.1-8b", GPU: "h100", TP: 1, Settings: EngineSettings{SpeculativeTokens: 4}}
	for _, tc := range []struct {
		name string
		copy float64
		want float64
		real bool
	}{
		{"virtual, copy 0", 0, (ExpectedTokensOf(0.6, 4) - 1) / 4, false},
		{"virtual, copy 1", 1, 1, false},
		{"real time, copy 1", 1, 1, true},
	} {
		w := specWorkload(t, 20, tc.copy)
		cfg := Config{Workload: w, Dir: t.TempDir(), NoPreflight: true}
		if tc.real {
			cfg.Engine = eng
		} else {
			v, err := NewVirtual(eng, 1, "round-robin")
			if err != nil {
				t.Fatal(err)
			}
			cfg.Virtual = v
		}
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		d := res.Summary.SpecDecode
		if d == nil {
			t.Fatalf("%s: no speculative decoding in the summary", tc.name)
		}
		t.Logf("%s: %s: acceptance %.3f, %.2f tokens a step, positions %.2f", tc.name, d.Source, d.AcceptanceRate, d.AcceptLength, d.PerPosition)
		if math.Abs(d.AcceptanceRate-tc.want) > 0.08 || len(d.PerPosition) != 4 {
			t.Errorf("%s: acceptance %.3f (%d positions), want %.3f ± 0.08 at 4", tc.name, d.AcceptanceRate, len(d.PerPosition), tc.want)
		}
	}
}

// ExpectedTokensOf is sim.ExpectedTokens, named here for the table.
var ExpectedTokensOf = sim.ExpectedTokens
