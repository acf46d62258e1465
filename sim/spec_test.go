package sim

import (
	"math"
	"strings"
	"testing"
	"time"
)

// specRun runs n requests of out tokens, each copying copy of its
// prompt, through an engine drafting k tokens, and returns its stats and
// every event.
func specRun(t *testing.T, sp Speculative, copy float64, n, out int, cost Coster) (Stats, []Event) {
	t.Helper()
	e, err := NewEngine(EngineConfig{Speculative: sp}, cost)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		mustAdd(t, e, &Request{ID: uint64(i), PromptLen: 64, OutputLen: out, Copy: copy})
	}
	evs, _ := runUntilIdle(t, e, 0)
	return e.Stats(), evs
}

// TestSpecAcceptanceByCopy: with a fixed seed, the acceptance rate, the
// tokens a drafting step yields and the per-position rates match the
// truncated geometric at a = 0.6 + 0.4·copy within 0.02 (rates) and 0.05
// (tokens), over about 8,000 drafting steps (the last steps of each
// request draft fewer tokens, which the tolerance covers).
func TestSpecAcceptanceByCopy(t *testing.T) {
	t.Parallel()
	const k, n, out = 4, 8, 4000
	for _, tc := range []struct {
		copy float64
		a    float64 // reason: 0.6 + 0.4·copy
	}{{0, 0.6}, {0.5, 0.8}, {1, 1}} {
		st, evs := specRun(t, Speculative{Tokens: k, Seed: 7}, tc.copy, n, out, &fakeCost{})
		if st.GenerationTokens != n*out {
			t.Fatalf("copy %g: generated %d tokens, want %d", tc.copy, st.GenerationTokens, n*out)
		}
		rate := float64(st.SpecAccepted) / float64(st.SpecDraftTokens)
		if want := (ExpectedTokens(tc.a, k) - 1) / k; math.Abs(rate-want) > 0.02 {
			t.Errorf("copy %g: acceptance %.4f, want %.4f ± 0.02", tc.copy, rate, want)
		}
		// Every step after the first (prefill) drafts; it yields 1 + accepted tokens.
		perStep := float64(st.GenerationTokens-n) / float64(st.SpecDrafts)
		if want := ExpectedTokens(tc.a, k); math.Abs(perStep-want) > 0.05 {
			t.Errorf("copy %g: %.3f tokens a step, want E = %.3f ± 0.05", tc.copy, perStep, want)
		}
		for i := range k {
			got := float64(st.SpecAcceptedPerPos[i]) / float64(st.SpecDrafts)
			if want := math.Pow(tc.a, float64(i+1)); math.Abs(got-want) > 0.02 {
				t.Errorf("copy %g: position %d accepted %.4f, want a^%d = %.4f ± 0.02", tc.copy, i, got, i+1, want)
			}
		}
		if last := lastTokens(evs); last != out {
			t.Errorf("copy %g: the last token event says %d tokens, want %d", tc.copy, last, out)
		}
	}
}

// lastTokens is the Tokens of the last finished event.
func lastTokens(evs []Event) int {
	last := 0
	for _, ev := range evs {
		if ev.Kind == EventFinished {
			last = ev.Tokens
		}
	}
	return last
}

// TestSpecDeterministic: the same seed gives the same acceptances, and
// another seed other ones.
func TestSpecDeterministic(t *testing.T) {
	t.Parallel()
	run := func(seed uint64) int64 {
		st, _ := specRun(t, Speculative{Tokens: 3, Seed: seed}, 0.3, 2, 500, &fakeCost{})
		return st.SpecAccepted
	}
	if a, b := run(1), run(1); a != b {
		t.Errorf("seed 1 accepted %d then %d tokens", a, b)
	}
	if a, b := run(1), run(2); a == b {
		t.Errorf("seeds 1 and 2 both accepted %d tokens", a)
	}
}

// TestSpecTPOT: one request at a time on Llama-3.1-8B on an H100 decodes
// faster with four drafts when its output copies the prompt than
// without speculative decoding, and slower with a draft model that
// guesses nothing right (acceptance ≈ 0 costs the verify and the drafts).
func TestSpecTPOT(t *testing.T) {
	t.Parallel()
	cost := NewCostModel(hwFor(t, "Llama-3.1-8B", "H100-SXM", 1, BF16, BF16), CostParams{})
	tpot := func(sp Speculative, copy float64) time.Duration {
		t.Helper()
		_, evs := specRun(t, sp, copy, 1, 1000, cost)
		var first, last time.Duration
		for _, ev := range evs {
			switch ev.Kind {
			case EventFirstToken:
				first = ev.Time
			case EventFinished:
				last = ev.Time
			}
		}
		return (last - first) / 999
	}
	off := tpot(Speculative{}, 0.9)
	on := tpot(Speculative{Tokens: 4, Seed: 1}, 0.9)
	ngram := tpot(Speculative{Tokens: 4, Method: NGram, Seed: 1}, 0.9)
	bad := tpot(Speculative{Tokens: 4, Acceptance: 1e-9, Seed: 1}, 0)
	t.Logf("TPOT off %v, draft model %v, ngram %v, never accepted %v", off, on, ngram, bad)
	if !(on < off/2) {
		t.Errorf("TPOT with drafts at copy 0.9 %v, want under half of %v without", on, off)
	}
	if !(ngram < on) {
		t.Errorf("TPOT with free n-gram drafts %v, want under the draft model's %v", ngram, on)
	}
	if !(bad > off) {
		t.Errorf("TPOT with drafts never accepted %v, want over %v without", bad, off)
	}
}

// TestVerifyCost: verifying k drafts costs more than one decode (more
// attention, k more logits) but far less than k+1 decodes, since the
// weights are read once.
func TestVerifyCost(t *testing.T) {
	t.Parallel()
	c := NewCostModel(hwFor(t, "Llama-3.1-8B", "H100-SXM", 1, BF16, BF16), CostParams{})
	dec := c.StepTime(Batch{Decode: []int{1000}})
	ver := c.StepTime(Batch{Verify: []Chunk{{Tokens: 5, Context: 1000}}})
	if !(ver > dec && ver < 2*dec) {
		t.Errorf("verify of 4 drafts %v, decode %v: want between 1 and 2 decodes", ver, dec)
	}
}

// TestSpeculativeConfig: out-of-range settings are refused with their name.
func TestSpeculativeConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sp   Speculative
		want string
	}{
		{Speculative{Tokens: -1}, "speculative tokens -1"},
		{Speculative{Tokens: MaxSpeculativeTokens + 1}, "speculative tokens 17"},
		{Speculative{Tokens: 2, Acceptance: 1.5}, "acceptance 1.5"},
		{Speculative{Tokens: 2, DraftCost: math.NaN()}, "draft cost NaN"},
		{Speculative{Tokens: 2, Method: 9}, "unknown speculative method"},
	} {
		_, err := NewEngine(EngineConfig{Speculative: tc.sp}, &fakeCost{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one saying %q", tc.sp, err, tc.want)
		}
	}
	e, _ := NewEngine(EngineConfig{}, &fakeCost{})
	if err := e.Add(&Request{ID: 1, PromptLen: 1, OutputLen: 1, Copy: 2}); err == nil {
		t.Error("a copy fraction of 2 was accepted")
	}
}

// TestParseSpecMethod reads vLLM's names back from String.
func TestParseSpecMethod(t *testing.T) {
	t.Parallel()
	for _, m := range []SpecMethod{DraftModel, NGram} {
		if got, err := ParseSpecMethod(m.String()); err != nil || got != m {
			t.Errorf("ParseSpecMethod(%q) = %v, %v", m.String(), got, err)
		}
	}
	if _, err := ParseSpecMethod("medusa"); err == nil {
		t.Error("medusa was accepted")
	}
}
