package content

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

// fitTokenizers are the tokenizers Trim and Pad are tested with.
var fitTokenizers = []string{"o200k_base", "cl100k_base", "llama3"}

// fitSynth is testSynth of one of fitTokenizers.
func fitSynth(t *testing.T, name string) (Tokenizer, *Synth) {
	if name == "llama3" {
		name = llama3Path(t)
	}
	return testSynth(t, name)
}

// trimMark is s without the mark tokenCut may end it with.
func trimMark(s string) string {
	for _, m := range cutMarks {
		if t, ok := strings.CutSuffix(s, m); ok {
			return t
		}
	}
	return s
}

func TestTrim(t *testing.T) {
	t.Parallel()
	for _, name := range fitTokenizers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tok, _ := fitSynth(t, name)
			testTrim(t, tok)
		})
	}
}

func testTrim(t *testing.T, tok Tokenizer) {
	texts := []struct{ text, reason string }{
		{"The quick brown fox jumps over the lazy dog. It was not amused, and said so at length.", "plain English"},
		{"Hello,\n\nworld!!!   Spaces   and\ttabs; don't cut here—or there.", "newlines, runs of spaces and punctuation"},
		{"naïve café déjà vu: 東京タワーは赤い。 Русский текст тоже есть.", "accents, Japanese, Cyrillic"},
		{"func main() { fmt.Println(\"hi\"); for i := 0; i < 10; i++ { x += i * 2 } }", "code"},
		{strings.Repeat("antidisestablishmentarianism", 4), "one long word"},
	}
	for _, tt := range texts {
		total := len(tok.Encode(tt.text))
		for n := 1; n < total; n++ {
			got, ok := Trim(tok, tt.text, n)
			if !ok {
				continue
			}
			if c := len(tok.Encode(got)); c != n || !strings.HasPrefix(tt.text, trimMark(got)) {
				t.Errorf("%s %s: Trim(%d) = %q, %d tokens", tok.Name(), tt.reason, n, got, c)
			}
			if r := []rune(got); unicode.IsSpace(r[len(r)-1]) {
				t.Errorf("%s: Trim(%d) = %q ends in white space", tt.reason, n, got)
			}
		}
	}
	if _, ok := Trim(tok, "short text", 50); ok {
		t.Error("Trim to more tokens than the text has: ok")
	}
}

// TestTrimMostly checks that Trim rarely gives up on ordinary prose and
// synthesised prompts of every kind (code, figures, line breaks).
func TestTrimMostly(t *testing.T) {
	t.Parallel()
	tok, _ := fitSynth(t, "o200k_base")
	text := "Steep green tea for two to three minutes in water of about 75 to 80 degrees Celsius. Boiling water and long steeping draw out bitter tannins, which is why many people think they dislike green tea when they have only had it brewed badly."
	total, failed := len(tok.Encode(text)), 0
	for n := 1; n < total; n++ {
		if _, ok := Trim(tok, text, n); !ok {
			failed++
		}
	}
	if failed > total/20 {
		t.Errorf("Trim failed for %d of %d lengths", failed, total-1)
	}
	_, s := fitSynth(t, "o200k_base")
	r := rand.New(rand.NewPCG(5, 6))
	failed = 0
	for range 200 {
		text := string(s.Prompt(nil, r, StyleMixed, 300))
		if _, ok := Trim(tok, text, 1+r.IntN(299)); !ok {
			failed++
		}
	}
	if failed > 4 {
		t.Errorf("Trim failed for %d of 200 synthesised prompts", failed)
	}
}

func TestPad(t *testing.T) {
	t.Parallel()
	for _, name := range fitTokenizers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tok, s := fitSynth(t, name)
			testPad(t, tok, s)
		})
	}
}

func testPad(t *testing.T, tok Tokenizer, s *Synth) {
	r := rand.New(rand.NewPCG(1, 2))
	texts := []string{"Name three prime numbers greater than fifty.", "ends without punctuation", "ends in a newline\n", "東京タワー"}
	for _, text := range texts {
		have := len(tok.Encode(text))
		for _, n := range []int{have + 1, have + 2, have + 3, have + 17, have + 500} {
			got, ok := Pad(tok, s, r, StyleMixed, text, have, n)
			if !ok {
				t.Errorf("%s: Pad(%q, %d): not ok", tok.Name(), text, n)
				continue
			}
			if c := len(tok.Encode(got)); c != n || !strings.HasPrefix(got, text) {
				t.Errorf("%s: Pad(%q, %d) = %d tokens: %q", tok.Name(), text, n, c, got)
			}
		}
	}
	if _, ok := Pad(tok, s, r, StyleMixed, "x", 1, 1); ok {
		t.Error("Pad to the text's own length: ok")
	}
}
