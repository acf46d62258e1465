package content

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

func TestCorpusDocs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in     string
		want   []string // nil when an error is expected
		reason string
	}{
		{"  Plain text.\nSecond line.\n", []string{"Plain text.\nSecond line."}, "plain text is one trimmed document"},
		{"{\"text\": \"a b\"}\n\n{\"id\": 2, \"text\": \" c \"}\n", []string{"a b", "c"}, "JSON Lines: blank lines and other fields are ignored"},
		{"\n  {\"text\": \"x\"}", []string{"x"}, "JSON Lines are recognised after leading blank lines"},
		{"{\"text\": \"x\"}\n{\"text\": \"\"}", []string{"x"}, "empty documents are dropped"},
		{"{\"text\": \"x\"}\nnot json", nil, "every non-blank line must be JSON"},
		{"{\"body\": \"x\"}", nil, "the text field is required"},
		{"{\"text\": 3}", nil, "the text field must be a string"},
		{"{\"text\": \"\"}", nil, "a corpus with no text at all"},
		{" \n\t", nil, "whitespace only"},
		{"caf\xe9", nil, "invalid UTF-8"},
	} {
		got, err := corpusDocs([]byte(tc.in))
		if tc.want == nil {
			if err == nil {
				t.Errorf("corpusDocs(%q) = %q, want an error (%s)", tc.in, got, tc.reason)
			}
			continue
		}
		if err != nil || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("corpusDocs(%q) = %q, %v; want %q (%s)", tc.in, got, err, tc.want, tc.reason)
		}
	}
}

// corpusSynth builds a Synth of testdata/<file> for the named tokenizer.
func corpusSynth(t *testing.T, name, file string) (Tokenizer, *Synth, []byte) {
	t.Helper()
	data, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSynth(tok, SynthConfig{Corpus: data})
	if err != nil {
		t.Fatal(err)
	}
	return tok, s, data
}

// TestCorpusExact checks exact lengths from a corpus: every length from 1
// to 300, where runs are cut and topped up, and longer ones that wrap
// around the small corpus many times.
func TestCorpusExact(t *testing.T) {
	t.Parallel()
	var ns []int
	for n := 1; n <= 300; n++ {
		ns = append(ns, n)
	}
	ns = append(ns, 1000, 2500, 4099, 20000, 100000)
	for _, name := range []string{"o200k_base", "cl100k_base"} {
		for _, file := range []string{"corpus.txt", "corpus.jsonl"} {
			t.Run(name+"/"+file, func(t *testing.T) {
				t.Parallel()
				tok, s, _ := corpusSynth(t, name, file)
				checkExact(t, tok, s, ns)
			})
		}
	}
}

// TestCorpusText checks that prompts are the corpus's own text: runs begin
// at a sentence, and a long prompt is the corpus, wrapped, after its start.
func TestCorpusText(t *testing.T) {
	t.Parallel()
	_, s, data := corpusSynth(t, "o200k_base", "corpus.txt")
	joined := strings.TrimSpace(string(data))
	twice := joined + " " + joined
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		p := string(s.Prompt(nil, r, StyleMixed, 400))
		if p == "" || p[0] < 'A' || p[0] > 'Z' {
			t.Errorf("corpus prompt does not begin a sentence: %.60q", p)
		}
		// The run is at least the first 200 bytes (about 40 tokens), and
		// a run may wrap around from the end to the start.
		if head := p[:200]; !strings.Contains(twice, head) {
			t.Errorf("corpus prompt does not begin with corpus text: %q", head)
		}
	}
	_, def := testSynth(t, "o200k_base")
	if s.Hash() == def.Hash() || !strings.HasPrefix(s.Hash(), "sha256:") {
		t.Errorf("corpus hash %q should differ from the built-in one %q", s.Hash(), def.Hash())
	}
}

// TestCorpusPieces checks how a corpus is cut: pieces join back into the
// documents, and each after the first begins with a space and a letter
// right after a non-space.
func TestCorpusPieces(t *testing.T) {
	t.Parallel()
	_, s, data := corpusSynth(t, "cl100k_base", "corpus.jsonl")
	docs, err := corpusDocs(data)
	if err != nil {
		t.Fatal(err)
	}
	c := s.corpus
	var all strings.Builder
	for id := c.first; id < c.end; id++ {
		body := string(s.pool.bodyText(id))
		all.WriteString(body)
		if len(body) < 2 || body[0] != ' ' || !strings.ContainsAny(body[1:2], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
			t.Errorf("piece %d %q does not begin with a space and a letter", id, body)
		}
		if strings.HasSuffix(body, " ") {
			t.Errorf("piece %d %q ends in a space", id, body)
		}
	}
	if want := " " + strings.Join(docs, " "); all.String() != want {
		t.Errorf("pieces join to %q, want %q", all.String(), want)
	}
}
