package workload

import (
	"bytes"
	"cmp"
	"math"
	"strings"
	"sync"
	"testing"

	"surge/content"
	"surge/trace"
)

var (
	taskOnce  sync.Once
	taskSynth *content.Synth
	taskErr   error
)

// o200kTasks is o200k with the task styles and languages.
func o200kTasks(t testing.TB) (content.Tokenizer, *content.Synth) {
	t.Helper()
	tok, _ := o200k(t)
	taskOnce.Do(func() { taskSynth, taskErr = content.NewSynth(tok, content.SynthConfig{Tasks: true}) })
	if taskErr != nil {
		t.Fatal(taskErr)
	}
	return tok, taskSynth
}

const mixSpec = `
version: 1
seed: 3
requests: 2000
rate: 50/s
clients:
  - name: mix
    model: m
    input: {dist: uniform, min: 1, max: 3000}
    output: 20
    content: {code: 0.4, creative: 0.2, analysis: 0.3, translation: 0.1}
    language: {en: 0.5, zh: 0.25, hi: 0.25}
  - name: plain
    model: m
    input: 100
    output: 20
`

// TestContentMix checks that a client's content and language mixes give
// each turn a style and language in their shares, recorded on the turn,
// with prompts of exactly their length, and that a client without them
// keeps its prompt style and English.
func TestContentMix(t *testing.T) {
	t.Parallel()
	s := parse(t, mixSpec)
	if !NeedsTasks(s) {
		t.Fatal("NeedsTasks is false for a spec with task styles and languages")
	}
	tok, synth := o200kTasks(t)
	g, err := New(s, tok, synth, Options{})
	if err != nil {
		t.Fatal(err)
	}
	styles, langs := map[string]int{}, map[string]int{}
	n := 0
	_, err = g.Generate(t.Context(), func(ss *trace.Session) error {
		for _, tr := range ss.Turns {
			if ss.Client == "plain" {
				if tr.Style != "mixed" || tr.Language != "" {
					t.Errorf("plain client turn has style %q language %q", tr.Style, tr.Language)
				}
				continue
			}
			n++
			styles[tr.Style]++
			langs[cmp.Or(tr.Language, "en")]++
			if got := len(tok.Encode(tr.Prompt)); got != tr.InputTokens {
				t.Errorf("%s %s prompt of %d tokens encodes to %d", tr.Style, tr.Language, tr.InputTokens, got)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]float64{"code": 0.4, "creative": 0.2, "analysis": 0.3, "translation": 0.1} {
		if got := float64(styles[name]) / float64(n); math.Abs(got-want) > 0.05 {
			t.Errorf("style %s: share %.3f of %d turns, want %.2f", name, got, n, want)
		}
	}
	for name, want := range map[string]float64{"en": 0.5, "zh": 0.25, "hi": 0.25} {
		if got := float64(langs[name]) / float64(n); math.Abs(got-want) > 0.05 {
			t.Errorf("language %s: share %.3f of %d turns, want %.2f", name, got, n, want)
		}
	}
}

// TestContentNeedsTasks checks that a spec asking for task text fails
// clearly against a Synth built without it.
func TestContentNeedsTasks(t *testing.T) {
	t.Parallel()
	tok, plain := o200k(t)
	_, err := New(parse(t, mixSpec), tok, plain, Options{})
	if err == nil || !strings.Contains(err.Error(), `client "mix"`) || !strings.Contains(err.Error(), "SynthConfig.Tasks") {
		t.Errorf("New with a plain Synth: %v, want an error naming the client and SynthConfig.Tasks", err)
	}
	if NeedsTasks(parse(t, twoClients)) {
		t.Error("NeedsTasks is true for a spec of plain styles")
	}
}

// TestContentTraceDeterministic checks that a mixed-content trace is the
// same bytes twice.
func TestContentTraceDeterministic(t *testing.T) {
	t.Parallel()
	tok, synth := o200kTasks(t)
	gen := func() []byte {
		s := parse(t, mixSpec)
		s.Requests = 200
		g, err := New(s, tok, synth, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		w, err := trace.NewWriter(&buf, g.Header())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Generate(t.Context(), w.Write); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	if !bytes.Equal(gen(), gen()) {
		t.Error("two generations of one spec differ")
	}
}

// TestGoldenContentHash pins the bytes of a trace with content and
// language mixes, as TestGoldenWorkloadHash pins one without: .ci/run
// checks it on a 32-bit build too. Update it only when generation changes
// on purpose, and say so in the commit.
func TestGoldenContentHash(t *testing.T) {
	t.Parallel()
	const want = "sha256:4729b761da4370b1b0a78447f39b96ec63e6f41f64e0a53c88059fed90142663"
	tok, synth := o200kTasks(t)
	s := parse(t, mixSpec)
	s.Requests = 300
	g, err := New(s, tok, synth, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := trace.NewWriter(&buf, g.Header())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Generate(t.Context(), w.Write); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := trace.NewReader(bytes.NewReader(buf.Bytes()))
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
