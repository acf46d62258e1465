package content

import (
	"bytes"
	"math/rand/v2"
	"sync"
	"testing"
)

// promptsOf generates one prompt per style and length from seed.
func promptsOf(s *Synth, seed uint64) [][]byte {
	r := rand.New(rand.NewPCG(seed, 99))
	var out [][]byte
	for _, n := range []int{1, 7, 60, 700, 5000} {
		for _, st := range append(styles(), StyleMixed) {
			out = append(out, s.Prompt(nil, r, st, n))
		}
	}
	return out
}

// TestPromptDeterministic checks that a Synth built afresh gives the same
// pool and the same bytes for the same seed, and other text for another.
func TestPromptDeterministic(t *testing.T) {
	t.Parallel()
	tok, cached := testSynth(t, "o200k_base")
	fresh, err := NewSynth(tok, SynthConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Hash() != cached.Hash() {
		t.Fatalf("two builds hash %s and %s", fresh.Hash(), cached.Hash())
	}
	a, b, c := promptsOf(cached, 1), promptsOf(fresh, 1), promptsOf(cached, 2)
	same := 0
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			t.Errorf("prompt %d differs between builds with one seed:\n%q\n%q", i, a[i], b[i])
		}
		if bytes.Equal(a[i], c[i]) {
			same++
		}
	}
	// One-token prompts come from a handful of words, so a few may match.
	if same > 6 {
		t.Errorf("%d of %d prompts are the same for seeds 1 and 2", same, len(a))
	}
}

// TestHashStable pins the built-in text: it must not depend on the
// tokenizer, the machine or the run. Update the digest only when the
// templates or vocabulary change on purpose.
func TestHashStable(t *testing.T) {
	t.Parallel()
	const want = "sha256:e82b66ac431d5d8fdca94c0e3ef2c499ee6cdead50d2cc3017cbba053f061651"
	_, o := testSynth(t, "o200k_base")
	_, c := testSynth(t, "cl100k_base")
	if o.Hash() != c.Hash() {
		t.Errorf("hash depends on the tokenizer: %s vs %s", o.Hash(), c.Hash())
	}
	if o.Hash() != want {
		t.Errorf("Hash() = %s, want %s", o.Hash(), want)
	}
}

// TestPromptConcurrent generates from one Synth on many goroutines (run
// with -race) and checks each matches the same work done sequentially.
func TestPromptConcurrent(t *testing.T) {
	t.Parallel()
	_, s := testSynth(t, "cl100k_base")
	const workers = 8
	want := make([][][]byte, workers)
	for w := range workers {
		want[w] = promptsOf(s, uint64(w))
	}
	got := make([][][]byte, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { got[w] = promptsOf(s, uint64(w)) })
	}
	wg.Wait()
	for w := range workers {
		for i := range want[w] {
			if !bytes.Equal(got[w][i], want[w][i]) {
				t.Errorf("worker %d prompt %d differs when run concurrently", w, i)
			}
		}
	}
}
