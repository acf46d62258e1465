package server

import (
	"math/rand/v2"
	"slices"
	"testing"

	"surge/sim"
)

func TestBlockHashesChainPrefixes(t *testing.T) {
	t.Parallel()
	a := make([]int, 50)
	for i := range a {
		a[i] = i
	}
	b := slices.Clone(a)
	b[20] = -1 // differs in the second block
	ha, hb := blockHashes(a, 16), blockHashes(b, 16)
	if len(ha) != 3 || len(blockHashes(a[:15], 16)) != 0 {
		t.Fatalf("%d hashes for 50 tokens, want 3 full blocks only", len(ha))
	}
	if ha[0] != hb[0] || ha[1] == hb[1] || ha[2] == hb[2] {
		t.Errorf("hashes %x vs %x: want equal first block, different after (chained)", ha, hb)
	}
	if !slices.Equal(ha, blockHashes(slices.Clone(a), 16)) {
		t.Error("hashes are not deterministic")
	}
}

func TestOutputLen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		r        request
		cap      int
		min, max int
	}{
		{"ignore_eos runs to the cap", request{ignoreEOS: true}, 50, 50, 50},
		{"min_tokens at the cap forces it", request{minTokens: 50}, 50, 50, 50},
		{"a natural length never exceeds the cap", request{}, 3, 1, 3},
		{"min_tokens raises a natural length", request{minTokens: 5000}, 10000, 5000, 10000},
		{"natural lengths stay positive", request{}, 1 << 20, 1, 1 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for seed := range uint64(200) {
				n := outputLen(tc.r, tc.cap, 200, 0.8, rand.New(rand.NewPCG(seed, 0)))
				if n < tc.min || n > tc.max {
					t.Fatalf("seed %d: length %d outside [%d, %d]", seed, n, tc.min, tc.max)
				}
			}
		})
	}
}

func TestPrepareIsDeterministic(t *testing.T) {
	t.Parallel()
	s, err := New(Config{Model: "m", Coster: &prefillCost{}})
	if err != nil {
		t.Fatal(err)
	}
	r := request{texts: []string{"the same prompt every time"}}
	j1, err1 := s.prepare(r)
	j2, err2 := s.prepare(r)
	if err1 != nil || err2 != nil || j1.outputLen != j2.outputLen || j1.promptLen != 5 {
		t.Errorf("prepare gave %+v and %+v (%v, %v)", j1, j2, err1, err2)
	}
	// Different prompts draw different lengths: 20 prompts, not all equal.
	seen := map[int]bool{}
	for i := range 20 {
		j, _ := s.prepare(request{texts: []string{string(rune('a'+i)) + " prompt"}})
		seen[j.outputLen] = true
	}
	if len(seen) < 5 {
		t.Errorf("20 prompts gave only %d distinct lengths", len(seen))
	}
}

func TestNewSizesFromHardware(t *testing.T) {
	t.Parallel()
	m, _ := sim.LookupModel("Llama-3.1-8B")
	g, _ := sim.LookupGPU("H100")
	hw := sim.Hardware{Model: m, GPU: g, TP: 1}
	s, err := New(Config{Hardware: hw})
	if err != nil {
		t.Fatal(err)
	}
	ec := s.EngineConfig()
	if s.Model() != "Llama-3.1-8B" || ec.NumBlocks != hw.KVBlocks(0) || ec.MaxModelLen != min(m.MaxContext, ec.NumBlocks*16) || !ec.EnablePrefixCaching {
		t.Errorf("model %q, engine %+v; want the hardware's KV blocks %d and context", s.Model(), ec, hw.KVBlocks(0))
	}
	big, _ := sim.LookupModel("Llama-3.1-70B")
	if _, err := New(Config{Hardware: sim.Hardware{Model: big, GPU: g, TP: 1}}); err == nil {
		t.Error("70B on one H100 accepted, want weights-do-not-fit error")
	}
}
