package workload

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"surge/content"
	"surge/dist"
	"surge/spec"
	"surge/trace"
)

// exactInclusion returns the probability that each rank of 1..len(w) is
// among k drawn one after another without replacement, each draw ∝ w among
// the ranks not drawn yet, by enumerating every sequence of draws.
func exactInclusion(w []float64, k int) []float64 {
	out := make([]float64, len(w))
	var walk func(drawn []int, p float64)
	walk = func(drawn []int, p float64) {
		if len(drawn) == k {
			for _, d := range drawn {
				out[d] += p
			}
			return
		}
		rem := 0.0
		for i, wi := range w {
			if !slices.Contains(drawn, i) {
				rem += wi
			}
		}
		for i, wi := range w {
			if !slices.Contains(drawn, i) {
				walk(append(drawn, i), p*wi/rem)
			}
		}
	}
	walk(nil, 1)
	return out
}

// zipfWeights returns i^-s for i = 1..n.
func zipfWeights(n int, s float64) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = math.Pow(float64(i+1), -s)
	}
	return w
}

// ragPool returns the rag block of a pool of n documents with exponent s.
func ragPool(t testing.TB, n int, s float64) *spec.RAG {
	t.Helper()
	r := &spec.RAG{Documents: n, Zipf: s}
	if s > 0 {
		d, err := dist.New("zipf", dist.Params{"s": s, "n": float64(n)})
		if err != nil {
			t.Fatal(err)
		}
		r.Popularity = d
	}
	return r
}

// TestRetrieve checks the retrieval draw against the exact probability of
// each document being retrieved, over 40,000 requests: the tolerance 0.01
// is about 4 standard errors (√(¼/40000) = 0.0025). Every draw must hold
// k distinct ranks in increasing order.
func TestRetrieve(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		n, k   int
		zipf   float64
	}{
		{"one document is drawn by its zipf(1) popularity itself: (1/i)/H₅", 5, 1, 1},
		{"two of six by zipf(1): a popular first draw lifts the others' chances", 6, 2, 1},
		{"three of seven by a steep zipf(2)", 7, 3, 2},
		{"uniform: each of six is in half of the draws of three", 6, 3, 0},
		{"every document of a steep pool: the last draw finds the one left", 4, 4, 3},
	}
	const draws = 40_000
	for _, tt := range tests {
		rg := ragPool(t, tt.n, tt.zipf)
		r := rand.New(rand.NewPCG(1, uint64(tt.n*10+tt.k)))
		counts := make([]float64, tt.n)
		var ranks []int
		for range draws {
			ranks = retrieve(r, rg, tt.k, ranks[:0])
			if len(ranks) != tt.k || !slices.IsSorted(ranks) || len(slices.Compact(slices.Clone(ranks))) != tt.k ||
				ranks[0] < 1 || ranks[tt.k-1] > tt.n {
				t.Fatalf("%s: drew %v, want %d distinct ranks of 1..%d in increasing order", tt.reason, ranks, tt.k, tt.n)
			}
			for _, x := range ranks {
				counts[x-1]++
			}
		}
		want := exactInclusion(zipfWeights(tt.n, tt.zipf), tt.k)
		for i := range counts {
			if got := counts[i] / draws; math.Abs(got-want[i]) > 0.01 {
				t.Errorf("%s: document %d retrieved in %.4f of requests, want %.4f ± 0.01", tt.reason, i+1, got, want[i])
			}
		}
	}
}

// TestUndrawn checks the fallback for a pick that rounding left on a
// drawn rank.
func TestUndrawn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		i, n   int
		drawn  []int
		want   int
	}{
		{"a free rank is kept", 3, 5, []int{1, 2}, 3},
		{"a drawn rank moves up to the next free one", 2, 5, []int{2, 3}, 4},
		{"with none free above, it moves down", 5, 5, []int{4, 5}, 3},
	}
	for _, tt := range tests {
		if got := undrawn(tt.i, tt.n, tt.drawn); got != tt.want {
			t.Errorf("%s: undrawn(%d, %d, %v) = %d, want %d", tt.reason, tt.i, tt.n, tt.drawn, got, tt.want)
		}
	}
}

const ragSpec = `version: 1
seed: 4
requests: 4000
clients:
  - name: kb
    model: m
    rate: 20/s
    input: 12
    output: 40
    session: {kind: rag, documents: 8, zipf: 1, chunks: 2, chunk: {dist: uniform, min: 8, max: 30}}
`

// ragDocs returns the texts of the first n documents of client ci's pool
// and the tokens the separator costs.
func ragDocs(t *testing.T, g *Generator, ci, n int) (map[string]int, int) {
	t.Helper()
	b := newBuilder(g)
	docs := map[string]int{}
	for rank := 1; rank <= n; rank++ {
		b.buf = b.buf[:0]
		b.document(&g.clients[ci], rank)
		docs[string(b.buf)] = rank
	}
	if len(docs) != n {
		t.Fatalf("%d documents have %d distinct texts", n, len(docs))
	}
	return docs, len(g.tok.Encode(ragSep))
}

// TestRAGRetrievesByPopularity checks 4,000 rag requests through their
// text: each prompt is two documents of the pool, most popular first, then
// the question, and each document is retrieved as often as zipf(1) drawn
// without replacement says, within 0.03 (about 4 standard errors).
func TestRAGRetrievesByPopularity(t *testing.T) {
	t.Parallel()
	tok, synth := o200k(t)
	g, err := New(parse(t, ragSpec), tok, synth, Options{})
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := ragDocs(t, g, 0, 8)
	_, ss := generate(t, parse(t, ragSpec), Options{})
	counts := make([]float64, 8)
	for _, s := range ss {
		parts := strings.Split(s.Turns[0].Prompt, ragSep)
		if len(parts) != 3 {
			t.Fatalf("session %d: %d parts, want 2 documents and the question", s.Index, len(parts))
		}
		first, second := docs[parts[0]], docs[parts[1]]
		if first == 0 || second == 0 || first >= second {
			t.Fatalf("session %d: documents %d, %d; want two of the pool, most popular first", s.Index, first, second)
		}
		counts[first-1]++
		counts[second-1]++
	}
	want := exactInclusion(zipfWeights(8, 1), 2)
	for i := range counts {
		if got := counts[i] / float64(len(ss)); math.Abs(got-want[i]) > 0.03 {
			t.Errorf("document %d retrieved in %.3f of requests, want %.3f ± 0.03", i+1, got, want[i])
		}
	}
}

// TestRAGText checks that rag prompts are exact for o200k_base: the
// system prompt and the user message (documents, separators, question)
// encode to the lengths the turn says, with a chunk count that varies.
func TestRAGText(t *testing.T) {
	t.Parallel()
	tok, _ := o200k(t)
	_, ss := generate(t, parse(t, `version: 1
requests: 60
clients:
  - name: kb
    model: m
    rate: 5/s
    input: {dist: lognormal, median: 30, sigma: 0.5}
    output: 20
    prompt: mixed
    session: {kind: rag, documents: 40, zipf: 0.8, chunks: {dist: uniform, min: 1, max: 5}, chunk: {dist: lognormal, median: 150, sigma: 0.5}}
    prefix: {pool: 2, length: 50}
`), Options{})
	for _, s := range ss {
		tu := s.Turns[0]
		if len(s.Turns) != 1 || tu.SystemTokens != 50 || len(tok.Encode(tu.System)) != 50 {
			t.Fatalf("session %d: %d turns, system prompt %d tokens", s.Index, len(s.Turns), tu.SystemTokens)
		}
		if n := len(tok.Encode(tu.Prompt)); n != tu.InputTokens-tu.SystemTokens {
			t.Fatalf("session %d: user message is %d tokens, want %d", s.Index, n, tu.InputTokens-tu.SystemTokens)
		}
	}
}

// TestRAGSeparatorAdds checks the claim ragSep rests on, for both built-in
// tokenizers and every prompt style: documents joined by it encode to the
// sum of their lengths plus its own.
func TestRAGSeparatorAdds(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a cl100k_base synthesiser")
	}
	for _, name := range []string{spec.O200k, spec.CL100k} {
		tok, err := content.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		synth, err := content.NewSynth(tok, content.SynthConfig{})
		if err != nil {
			t.Fatal(err)
		}
		sep := len(tok.Encode(ragSep))
		r := rand.New(rand.NewPCG(7, 7))
		styles := []content.Style{content.StyleQuestion, content.StyleInstruction, content.StyleSummarize, content.StyleCode, content.StyleMixed}
		for i := range 400 {
			var text []byte
			want := 0
			for j := range 4 {
				n := 1 + r.IntN(80)
				if j == 0 && i%2 == 0 {
					n = 1 + r.IntN(3) // the shortest documents end in unusual pieces
				}
				text = synth.Prompt(text, r, styles[(i+j)%len(styles)], n)
				want += n
				if j < 3 {
					text = append(text, ragSep...)
					want += sep
				}
			}
			if got := len(tok.Encode(string(text))); got != want {
				t.Fatalf("%s: %q is %d tokens, want %d", name, text, got, want)
			}
		}
	}
}

// TestRAGShapes checks 3,000 rag requests without text against the spec:
// the chunk count uniform on 2..6 (rounded: 2 and 6 an eighth each, 3 to 5
// a quarter), each request's input the question plus every retrieved
// document and its separator, and a document's length the same in every
// request.
func TestRAGShapes(t *testing.T) {
	t.Parallel()
	s := parse(t, `version: 1
requests: 3000
clients:
  - name: kb
    model: m
    rate: 20/s
    input: 25
    output: 40
    session: {kind: rag, documents: 100, zipf: 1.1, chunks: {dist: uniform, min: 2, max: 6}, chunk: 64}
`)
	tok, _ := o200k(t)
	sep := len(tok.Encode(ragSep))
	_, ss := generate(t, s, Options{NoText: true})
	counts := map[int]float64{}
	for _, x := range ss {
		tu := x.Turns[0]
		k := (tu.InputTokens - 25) / (64 + sep)
		if tu.InputTokens != 25+k*(64+sep) || tu.OutputTokens != 40 || tu.Parent != nil || tu.WaitUS != 0 {
			t.Fatalf("session %d: %+v is not a question of 25 and whole documents of 64+%d", x.Index, tu, sep)
		}
		counts[k]++
	}
	want := map[int]float64{2: 0.125, 3: 0.25, 4: 0.25, 5: 0.25, 6: 0.125}
	for k, p := range want {
		// Standard errors are at most √(¼·¾/3000) ≈ 0.008.
		if got := counts[k] / float64(len(ss)); math.Abs(got-p) > 0.03 {
			t.Errorf("%d chunks in %.3f of requests, want %.3f ± 0.03", k, got, p)
		}
	}
	if len(counts) != len(want) {
		t.Errorf("chunk counts %v, want only 2 to 6", counts)
	}
}

// TestRAGClampsChunks checks that a chunk count above the pool retrieves
// the whole pool, each document once.
func TestRAGClampsChunks(t *testing.T) {
	t.Parallel()
	tok, _ := o200k(t)
	_, ss := generate(t, parse(t, `version: 1
requests: 20
clients:
  - {name: kb, model: m, rate: 5/s, input: 5, output: 5, session: {kind: rag, documents: 3, zipf: 2, chunks: {dist: uniform, min: 2, max: 9}, chunk: 10}}
`), Options{NoText: true})
	sep := len(tok.Encode(ragSep))
	full := 0
	for _, x := range ss {
		k := (x.Turns[0].InputTokens - 5) / (10 + sep)
		if k < 2 || k > 3 {
			t.Fatalf("session %d: %d documents of a pool of 3", x.Index, k)
		}
		if k == 3 {
			full++
		}
	}
	if full < 10 {
		t.Errorf("%d of 20 requests retrieved the whole pool; a count uniform on 2..9 passes 3 in most", full)
	}
}

// TestRAGDeterminism checks that a rag session depends only on (seed,
// client, index) — not on the run's length or on another client — and
// that its --no-text twin holds the same lengths.
func TestRAGDeterminism(t *testing.T) {
	t.Parallel()
	sameSessions(t, ragSpec, "kb")
}

// sameSessions generates src with 30 and 120 sessions, and with another
// client added, and checks that client's sessions agree in everything but
// their start offsets, which the added client's share of the rate moves;
// and that the --no-text trace holds the same lengths and waits.
func sameSessions(t *testing.T, src, client string) {
	t.Helper()
	short, long := parse(t, src), parse(t, src)
	short.Requests, long.Requests = 30, 120
	other := parse(t, src+"  - {name: other, model: m, rate: 5/s, input: 7, output: 3}\n")
	other.Requests = 1000
	_, a := generate(t, short, Options{})
	_, bl := generate(t, long, Options{})
	_, bo := generate(t, other, Options{})
	_, bn := generate(t, short, Options{NoText: true})
	byIndex := func(ss []*trace.Session) map[int]*trace.Session {
		m := map[int]*trace.Session{}
		for _, s := range ss {
			if s.Client == client {
				m[s.Index] = s
			}
		}
		return m
	}
	l, o := byIndex(bl), byIndex(bo)
	for i, s := range a {
		for _, x := range []*trace.Session{l[s.Index], o[s.Index]} {
			if x == nil || !slices.EqualFunc(s.Turns, x.Turns, sameTurn) || x.DeadlineUS != s.DeadlineUS {
				t.Fatalf("session %s/%d changed with the run's length or another client", s.Client, s.Index)
			}
		}
		n := bn[i]
		if len(n.Turns) != len(s.Turns) || n.DeadlineUS != s.DeadlineUS {
			t.Fatalf("session %d: %d turns with text, %d without", s.Index, len(s.Turns), len(n.Turns))
		}
		for k := range s.Turns {
			x, y := s.Turns[k], n.Turns[k]
			if x.InputTokens != y.InputTokens || x.OutputTokens != y.OutputTokens || x.WaitUS != y.WaitUS || x.SystemID != y.SystemID || y.Prompt != "" {
				t.Fatalf("session %d turn %d differs without text: %+v vs %+v", s.Index, k, x, y)
			}
		}
	}
}

// sameTurn compares the fields of two turns that generation sets.
func sameTurn(a, b trace.Turn) bool {
	return a.InputTokens == b.InputTokens && a.OutputTokens == b.OutputTokens && a.WaitUS == b.WaitUS &&
		a.Prompt == b.Prompt && a.System == b.System && a.SystemID == b.SystemID && a.MaxTokens == b.MaxTokens &&
		(a.Parent == nil) == (b.Parent == nil)
}

// BenchmarkRAG compiles rag requests of four 500-token documents from a
// pool of 10,000 and a 50-token question, with and without text.
func BenchmarkRAG(b *testing.B) {
	for _, noText := range []bool{false, true} {
		b.Run(map[bool]string{false: "text", true: "notext"}[noText], func(b *testing.B) {
			s := parse(b, `version: 1
requests: 1
clients:
  - {name: kb, model: m, rate: 100/s, input: 50, output: 100, session: {kind: rag, documents: 10k, zipf: 1.1, chunks: 4, chunk: 500}}
`)
			tok, synth := o200k(b)
			s.Requests = b.N
			g, err := New(s, tok, synth, Options{NoText: noText})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			if _, err := g.Generate(context.Background(), func(*trace.Session) error { return nil }); err != nil {
				b.Fatal(err)
			}
		})
	}
}
