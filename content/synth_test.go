package content

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

// synthCache builds each tokenizer's Synth once for all tests.
var synthCache sync.Map // tokenizer name or path → func() (Tokenizer, *Synth, error)

// testSynth returns the tokenizer nameOrPath opens and its built-in Synth.
func testSynth(t testing.TB, nameOrPath string) (Tokenizer, *Synth) {
	t.Helper()
	f, _ := synthCache.LoadOrStore(nameOrPath, sync.OnceValues(func() (*Synth, error) {
		tok, err := Open(nameOrPath)
		if err != nil {
			return nil, err
		}
		return NewSynth(tok, SynthConfig{})
	}))
	s, err := f.(func() (*Synth, error))()
	if err != nil {
		t.Fatal(err)
	}
	tok, err := Open(nameOrPath)
	if err != nil {
		t.Fatal(err)
	}
	return tok, s
}

// exactLengths returns the prompt lengths the exactness tests check:
// 1, 2, 3, 32,768 and 100,000, then k lengths n = round(exp(U·ln 32768))
// with U uniform in [0, 1) from a fixed seed. That is log-uniform on
// [1, 32768]: each doubling of length gets about the same number of
// prompts, and the mean length is (32768-1)/ln(32768) ≈ 3,150 tokens.
func exactLengths(k int) []int {
	ns := []int{1, 2, 3, 32768, 100000}
	r := rand.New(rand.NewPCG(2024, 11))
	for range k {
		ns = append(ns, int(math.Round(math.Exp(r.Float64()*math.Log(32768)))))
	}
	return ns
}

// checkExact generates a prompt for each length, cycling through every
// style, and requires the tokenizer to count exactly that many tokens.
func checkExact(t *testing.T, tok Tokenizer, s *Synth, ns []int) {
	t.Helper()
	all := append(styles(), StyleMixed)
	r := rand.New(rand.NewPCG(7, 7))
	var buf []byte
	failed := 0
	for i, n := range ns {
		st := all[i%len(all)]
		buf = s.Prompt(buf[:0], r, st, n)
		if got := len(tok.Encode(string(buf))); got != n {
			failed++
			if failed <= 5 {
				t.Errorf("%s: %s prompt of %d tokens encodes to %d: %.300q", tok.Name(), st, n, got, buf)
			}
		}
	}
	if failed > 0 {
		t.Errorf("%s: %d of %d prompts have the wrong length", tok.Name(), failed, len(ns))
	}
}

// TestPromptExact is the acceptance test of exact lengths: 2,000 lengths
// (300 with -short) log-uniform in [1, 32768] plus 1, 2, 3, 32,768 and
// 100,000, styles in turn, encoded whole by each tokenizer.
func TestPromptExact(t *testing.T) {
	t.Parallel()
	k := 2000
	if testing.Short() {
		k = 300
	}
	ns := exactLengths(k)
	eachTokenizer(t, func(t *testing.T, tok Tokenizer, s *Synth) { checkExact(t, tok, s, ns) })
}

// eachTokenizer runs f in parallel subtests, one for each tokenizer the
// text is tested with (o200k_base, cl100k_base and Llama 3's
// tokenizer.json), with its synthesiser.
func eachTokenizer(t *testing.T, f func(t *testing.T, tok Tokenizer, s *Synth)) {
	for _, name := range []string{"o200k_base", "cl100k_base", "llama3"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := name
			if name == "llama3" {
				path = llama3Path(t)
			}
			tok, s := testSynth(t, path)
			f(t, tok, s)
		})
	}
}

func TestPromptEdges(t *testing.T) {
	t.Parallel()
	tok, s := testSynth(t, "o200k_base")
	r := rand.New(rand.NewPCG(1, 1))
	if got := s.Prompt([]byte("keep"), r, StyleQuestion, 0); string(got) != "keep" {
		t.Errorf("Prompt(n=0) = %q, want dst unchanged", got)
	}
	for _, st := range append(styles(), StyleMixed) {
		p := s.Prompt(nil, r, st, 1)
		if ids := tok.Encode(string(p)); len(ids) != 1 {
			t.Errorf("%s: one-token prompt %q has %d tokens", st, p, len(ids))
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Prompt with an unknown style did not panic")
		}
	}()
	s.Prompt(nil, r, Style("poetry"), 10)
}

// byteQuads is a tokenizer whose counts do not add up at word
// boundaries: one token per 4 bytes, rounded up.
type byteQuads struct{}

func (byteQuads) Name() string             { return "byte-quads" }
func (byteQuads) Encode(text string) []int { return make([]int, (len(text)+3)/4) }
func (byteQuads) Decode([]int) string      { return "" }

// TestNewSynthRefusesNonAdditive checks that verification, not faith,
// decides whether counts add up: a tokenizer that splits text without
// regard to words leaves no verified pieces, and NewSynth says so.
func TestNewSynthRefusesNonAdditive(t *testing.T) {
	t.Parallel()
	if _, err := NewSynth(byteQuads{}, SynthConfig{}); err == nil {
		t.Error("NewSynth accepted a tokenizer whose counts do not add up")
	}
	if _, err := NewSynth(byteQuads{}, SynthConfig{Corpus: []byte("One two three. Four five six.")}); err == nil {
		t.Error("NewSynth accepted a corpus with a tokenizer whose counts do not add up")
	}
}
