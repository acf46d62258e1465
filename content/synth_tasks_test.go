package content

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"
)

// taskSynthCache builds each tokenizer's Synth with SynthConfig.Tasks once.
var taskSynthCache sync.Map // tokenizer name or path → func() (*taskBuild, error)

// taskBuild is a tokenizer, its Synth with the task text, and the builder
// that made it (for tests of what verification kept).
type taskBuild struct {
	tok Tokenizer
	b   *builder
	s   *Synth
}

// testTaskBuild builds, once per test binary, what NewSynth with
// SynthConfig.Tasks builds for the tokenizer at nameOrPath.
func testTaskBuild(t testing.TB, nameOrPath string) *taskBuild {
	t.Helper()
	f, _ := taskSynthCache.LoadOrStore(nameOrPath, sync.OnceValues(func() (*taskBuild, error) {
		tok, err := Open(nameOrPath)
		if err != nil {
			return nil, err
		}
		b := newBuilder(tok)
		b.addBuiltin()
		b.addSmall()
		b.addTasks()
		s, err := b.finish()
		return &taskBuild{tok: tok, b: b, s: s}, err
	}))
	tb, err := f.(func() (*taskBuild, error))()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// testTaskSynth returns the tokenizer at nameOrPath and its Synth with the
// task styles and languages.
func testTaskSynth(t testing.TB, nameOrPath string) (Tokenizer, *Synth) {
	t.Helper()
	tb := testTaskBuild(t, nameOrPath)
	return tb.tok, tb.s
}

// taskLengths returns k lengths log-uniform in [1, 32768] from seed, after
// 1, 2, 3 and 32,768 when edges is set.
func taskLengths(seed uint64, k int, edges bool) []int {
	var ns []int
	if edges {
		ns = []int{1, 2, 3, 32768}
	}
	r := rand.New(rand.NewPCG(seed, 23))
	for range k {
		ns = append(ns, int(math.Round(math.Exp(r.Float64()*math.Log(32768)))))
	}
	return ns
}

// exactTokenizers are the tokenizers of the exactness tests: the two
// built-in encodings and Llama 3's and Qwen 3's tokenizer.json, whose
// paths llama3Path and qwen3Path find (or skip the subtest, as they say).
var exactTokenizers = []struct {
	name string
	path func(testing.TB) string
}{
	{"o200k_base", func(testing.TB) string { return "o200k_base" }},
	{"cl100k_base", func(testing.TB) string { return "cl100k_base" }},
	{"llama3", llama3Path},
	{"qwen3", qwen3Path},
}

// TestTaskPromptExact is the exactness test of every style × language ×
// tokenizer: each combination gets prompts of lengths log-uniform in
// [1, 32768] (2 per combination, 24 with $CI set, plus 1, 2, 3 and
// 32,768 in English), each encoded whole by the tokenizer.
func TestTaskPromptExact(t *testing.T) {
	t.Parallel()
	k := 2
	if os.Getenv("CI") != "" {
		k = 24
	}
	for _, tz := range exactTokenizers {
		t.Run(tz.name, func(t *testing.T) {
			t.Parallel()
			tok, s := testTaskSynth(t, tz.path(t))
			r := rand.New(rand.NewPCG(7, 8))
			var buf []byte
			failed, total := 0, 0
			for si, st := range Styles() {
				for li, lang := range Languages() {
					for _, n := range taskLengths(uint64(si*16+li), k, lang == English) {
						buf = s.PromptIn(buf[:0], r, st, lang, n)
						total++
						if got := len(tok.Encode(string(buf))); got != n {
							if failed++; failed <= 5 {
								t.Errorf("%s %s prompt of %d tokens encodes to %d: %.300q", st, lang, n, got, buf)
							}
						}
					}
				}
			}
			if failed > 0 {
				t.Errorf("%d of %d prompts have the wrong length", failed, total)
			}
		})
	}
}

func TestEndRun(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"It rose.", "."},
		{"Why?", "?"},
		{"x = f(y)", ")"},
		{"no ending", ""},
		{"चर्चा की।", "ी।"}, // the vowel sign is a mark, chunked with the danda by cl100k_base and Llama 3
		{"लगेगा।", "ा।"},
		{"你好。", "。"},
		{"مرحباً.", "ً."},
	}
	for _, tt := range tests {
		if got := endRun(tt.in); got != tt.want {
			t.Errorf("endRun(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestLanguagesVerified checks that verification keeps nearly all of every
// language's statements for every tokenizer: a script whose pieces do not
// add up would lose them (and be written with English fillers).
func TestLanguagesVerified(t *testing.T) {
	t.Parallel()
	for _, tz := range exactTokenizers {
		t.Run(tz.name, func(t *testing.T) {
			t.Parallel()
			tb := testTaskBuild(t, tz.path(t))
			b, s := tb.b, tb.s
			for li, l := range b.tasks.langs {
				bad := 0
				for _, id := range l.statements {
					if s.pool.pieces[id].bad {
						bad++
					}
				}
				if bad*20 > len(l.statements) {
					t.Errorf("%s: %d of %d statements failed verification", Languages()[li+1], bad, len(l.statements))
				}
			}
		})
	}
}

// TestTaskContent samples prompts of every task style and language and
// checks that they read as their kind: valid UTF-8 without slots, double
// spaces or blank-line runs; the marks of each style (document labels,
// tool definitions that parse as JSON, a translation request naming both
// languages); and, in a language other than English, mostly its script.
func TestTaskContent(t *testing.T) {
	t.Parallel()
	_, s := testTaskSynth(t, "o200k_base")
	r := rand.New(rand.NewPCG(5, 7))
	marks := map[Style]func(string) bool{
		StyleRAG: func(p string) bool {
			return strings.Contains(p, "\n\nDocument 1: ") && strings.Contains(p, "\n\nDocument 2: ")
		},
		StyleTools: func(p string) bool { return strings.Contains(p, "\n\n{\"name\": \"") },
		StyleTranslation: func(p string) bool {
			head, _, _ := strings.Cut(p, "\n")
			for _, l := range Languages()[1:] {
				if strings.Contains(head, "English") && strings.Contains(head, " "+languageName(l)) {
					return true
				}
			}
			return false
		},
		StyleCopy: func(p string) bool {
			head, _, _ := strings.Cut(p, "\n")
			return strings.Contains(head, "word for word") || strings.Contains(head, "exactly") || strings.Contains(head, "verbatim") || strings.Contains(head, "without changing a word")
		},
		StyleMath: func(p string) bool {
			head, _, _ := strings.Cut(p, "\n")
			return strings.ContainsAny(p, "0123456789") && (strings.Contains(head, "step") || strings.Contains(head, "calculation") || strings.Contains(head, "problem"))
		},
	}
	for _, st := range TaskStyles() {
		for _, lang := range Languages() {
			for range 3 {
				p := string(s.PromptIn(nil, r, st, lang, 600+r.IntN(1500)))
				if !utf8.ValidString(p) || strings.ContainsAny(p, "{}§") && st != StyleTools || strings.Contains(p, "  ") || strings.Contains(p, "\n\n\n") {
					t.Errorf("%s %s prompt has invalid text, a slot, a double space or a blank line run: %.300q", st, lang, p)
				}
				if lang == English && marks[st] != nil && !marks[st](p) {
					t.Errorf("%s prompt lacks the marks of its style: %.400q", st, p)
				}
				if lang != English && st != StyleTools && st != StyleTranslation {
					if f := scriptShare(p, lang); f < 0.8 {
						t.Errorf("%s %s prompt has %.0f%% of its letters in the language's script: %.300q", st, lang, 100*f, p)
					}
				}
			}
		}
	}
	for _, p := range toolBlocks() {
		var v map[string]any
		if err := json.Unmarshal([]byte(p), &v); err != nil {
			t.Errorf("tool definition is not JSON: %v: %s", err, p)
		}
	}
}

// scriptShare returns the share of p's letters in lang's script (Latin for
// the European languages, where it counts ASCII and accented letters).
func scriptShare(p string, lang Language) float64 {
	table := map[Language]*unicode.RangeTable{
		Chinese: unicode.Han, Arabic: unicode.Arabic, Hindi: unicode.Devanagari, Russian: unicode.Cyrillic,
		Spanish: unicode.Latin, French: unicode.Latin, German: unicode.Latin,
	}[lang]
	in, all := 0, 0
	for _, c := range p {
		if !unicode.IsLetter(c) {
			continue
		}
		all++
		switch {
		case lang == Japanese && (unicode.In(c, unicode.Han, unicode.Hiragana, unicode.Katakana) || c == 'ー'):
			in++
		case table != nil && unicode.Is(table, c):
			in++
		}
	}
	if all == 0 {
		return 0
	}
	return float64(in) / float64(all)
}

func TestCanWrite(t *testing.T) {
	t.Parallel()
	_, plain := testSynth(t, "o200k_base")
	_, tasks := testTaskSynth(t, "o200k_base")
	tests := []struct {
		s       *Synth
		style   Style
		lang    Language
		wantErr string
	}{
		{plain, StyleQuestion, English, ""},
		{plain, StyleMixed, English, ""},
		{plain, StyleRAG, English, "needs a Synth built with SynthConfig.Tasks"},
		{plain, StyleQuestion, Hindi, "needs a Synth built with SynthConfig.Tasks"},
		{tasks, StyleRAG, Hindi, ""},
		{tasks, Style("poetry"), English, `unknown prompt style "poetry"`},
		{tasks, StyleQuestion, Language("xx"), `unknown prompt language "xx"`},
	}
	for _, tt := range tests {
		err := tt.s.CanWrite(tt.style, tt.lang)
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("CanWrite(%s, %s) = %v, want %q", tt.style, tt.lang, err, tt.wantErr)
		}
	}
}

// TestWriteReferencePrompts writes, when $SURGE_REFERENCE_PROMPTS names a
// directory, the prompts of TestTaskPromptExact's CI set (every style ×
// language at 24 lengths) for each tokenizer, to NAME.jsonl there in the
// form of a trace that bench/exact/count.mjs reads (a header line, then
// one session per prompt, its client naming style and language), so that
// bench/exact/verify.sh can recount them with the reference tokenizers.
func TestWriteReferencePrompts(t *testing.T) {
	dir := os.Getenv("SURGE_REFERENCE_PROMPTS")
	if dir == "" {
		t.Skip("set $SURGE_REFERENCE_PROMPTS to a directory to write the prompts for the reference tokenizers")
	}
	for _, tz := range exactTokenizers {
		_, s := testTaskSynth(t, tz.path(t))
		f, err := os.Create(filepath.Join(dir, tz.name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		enc := json.NewEncoder(f)
		if err := enc.Encode(map[string]string{"reference_prompts": tz.name}); err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(7, 9))
		var buf []byte
		i := 0
		for si, st := range Styles() {
			for li, lang := range Languages() {
				for _, n := range taskLengths(uint64(si*16+li), 24, lang == English) {
					buf = s.PromptIn(buf[:0], r, st, lang, n)
					session := map[string]any{"client": string(st) + "/" + string(lang), "index": i,
						"turns": []map[string]any{{"input_tokens": n, "prompt": string(buf)}}}
					if err := enc.Encode(session); err != nil {
						t.Fatal(err)
					}
					i++
				}
			}
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTaskHashStable pins the task text as TestHashStable pins the
// built-in text: update the digest only when the task templates or the
// languages' vocabularies change on purpose.
func TestTaskHashStable(t *testing.T) {
	t.Parallel()
	const want = "sha256:2319183684624718be6b917c432f25c5dd720c1cefb1413f39045c86020c0128"
	_, o := testTaskSynth(t, "o200k_base")
	_, c := testTaskSynth(t, "cl100k_base")
	if o.Hash() != c.Hash() {
		t.Errorf("hash depends on the tokenizer: %s vs %s", o.Hash(), c.Hash())
	}
	if _, plain := testSynth(t, "o200k_base"); plain.Hash() == o.Hash() {
		t.Error("the task text does not change the hash")
	}
	if o.Hash() != want {
		t.Errorf("Hash() = %s, want %s", o.Hash(), want)
	}
}

// TestIndexes checks that the switches of styleIndex, taskIndex and
// langIndex give each style and language its position in styles(),
// TaskStyles() and Languages(), the order of the Synth's tables, and -1
// for unknown names.
func TestIndexes(t *testing.T) {
	tests := []struct {
		what  string
		names []string
		index func(string) int
	}{
		{"styleIndex", names(styles()), func(s string) int { return styleIndex(Style(s)) }},
		{"taskIndex", names(TaskStyles()), func(s string) int { return taskIndex(Style(s)) }},
		{"langIndex", names(Languages()), func(s string) int { return langIndex(Language(s)) }},
	}
	for _, tt := range tests {
		for i, name := range tt.names {
			if got := tt.index(name); got != i {
				t.Errorf("%s(%q) = %d, want %d", tt.what, name, got, i)
			}
		}
		for _, name := range []string{"", "mixed", "Question", "klingon"} {
			if got := tt.index(name); got != -1 {
				t.Errorf("%s(%q) = %d, want -1", tt.what, name, got)
			}
		}
	}
}

// names returns xs as strings.
func names[T ~string](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = string(x)
	}
	return out
}
