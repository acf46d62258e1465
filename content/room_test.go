package content

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// roomPrefixes are prefixes of the shape a run's salt has, of several
// lengths.
var roomPrefixes = []string{"[surge 0123456789]\n", "[surge 9f3c1a2b]\n", "[surge x]\n", "\n", "[surge 0123456789 0123456789 0123456789]\n"}

// checkRoom checks MakeRoom's promise for one text: when ok, rest is a
// part of text, and prefix+rest is exactly as many tokens as text.
func checkRoom(t *testing.T, tok Tokenizer, prefix, text string) (string, bool) {
	t.Helper()
	rest, ok := MakeRoom(tok, prefix, text)
	if !ok {
		return rest, false
	}
	if !strings.Contains(text, rest) {
		t.Fatalf("%s: MakeRoom(%q, %.80q) = %.80q, not a part of the text", tok.Name(), prefix, text, rest)
	}
	if got, want := len(tok.Encode(prefix+rest)), len(tok.Encode(text)); got != want {
		t.Errorf("%s: prefix %q and what MakeRoom left of %.80q (%.80q) are %d tokens, the text alone %d", tok.Name(), prefix, text, rest, got, want)
	}
	return rest, true
}

func TestMakeRoom(t *testing.T) {
	t.Parallel()
	tok, err := Builtin("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	salt := "[surge 0123456789]\n"
	k := len(tok.Encode(salt))
	for _, c := range []struct {
		name, text string
		ok         bool
	}{
		{"prose", "Explain why the sky is blue, in two short paragraphs for a curious child.", true},
		{"code", "def f(x):\n    return x * 2\n\nWhat does f do, and how would you test it?", true},
		{"no spaces", strings.Repeat("数据", 40), true},
		{"one token", "Hello", false},
		{"empty", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			rest, ok := checkRoom(t, tok, salt, c.text)
			if ok != c.ok {
				t.Fatalf("MakeRoom(%q) ok = %v, want %v", c.text, ok, c.ok)
			}
			if ok && len(rest) >= len(c.text) {
				t.Errorf("MakeRoom(%q) = %q: nothing cut for a prefix of %d tokens", c.text, rest, k)
			}
		})
	}
	if rest, ok := MakeRoom(tok, "", "keep me"); !ok || rest != "keep me" {
		t.Errorf("MakeRoom with no prefix = %q, %v; want the text unchanged", rest, ok)
	}
	// A text exactly as long as the prefix leaves nothing; one token
	// shorter does not fit it.
	r := rand.New(rand.NewPCG(1, 2))
	_, s := testSynth(t, "o200k_base")
	exact := string(s.Prompt(nil, r, StyleQuestion, k))
	if rest, ok := checkRoom(t, tok, salt, exact); !ok || rest != "" {
		t.Errorf("MakeRoom of a text of the prefix's %d tokens = %q, %v; want empty, true", k, rest, ok)
	}
	if _, ok := MakeRoom(tok, salt, string(s.Prompt(nil, r, StyleQuestion, k-1))); ok {
		t.Errorf("MakeRoom fit a prefix of %d tokens in a text of %d", k, k-1)
	}
}

// TestMakeRoomAtBothEnds is a text whose word where a long prefix's
// tokens run out has no cut of the length wanted (in cl100k_base, its only
// rest of 3 tokens begins with a newline, which merges with the prefix's):
// MakeRoom cuts fewer tokens there and the others at the end.
func TestMakeRoomAtBothEnds(t *testing.T) {
	t.Parallel()
	tok, err := Builtin("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	text := "Review this Go code and suggest improvements.\n\n```go\ntype Parcel struct {\n\tID          int\n\tDestination string\n\tCost        float64\n}\n\nWhich field would you validate first?"
	rest, ok := checkRoom(t, tok, roomPrefixes[4], text)
	if !ok {
		t.Fatal("MakeRoom found no cuts")
	}
	if strings.HasSuffix(text, rest) || strings.HasPrefix(text, rest) {
		t.Errorf("MakeRoom = %q, want a cut at each end", rest)
	}
}

// TestMakeRoomSynthetic is MakeRoom on the text surge sends: prompts of
// every style and of lengths from 1 to some thousands, behind prefixes of
// 1 to 30 tokens, in each tokenizer. Every prompt at least as long as the
// prefix must make room for it exactly.
func TestMakeRoomSynthetic(t *testing.T) {
	t.Parallel()
	ns := exactLengths(300)
	if testing.Short() {
		ns = ns[:80]
	}
	eachTokenizer(t, func(t *testing.T, tok Tokenizer, s *Synth) {
		all := append(styles(), StyleMixed)
		r := rand.New(rand.NewPCG(3, 4))
		failed := 0
		for i, n := range ns {
			n = min(n, 4096)
			prefix := roomPrefixes[i%len(roomPrefixes)]
			text := string(s.Prompt(nil, r, all[i%len(all)], n))
			_, ok := checkRoom(t, tok, prefix, text)
			if fits := len(tok.Encode(prefix)) <= n; ok != fits {
				if failed++; failed <= 5 {
					t.Errorf("MakeRoom(%q) of a %s prompt of %d tokens: ok %v, want %v: %.200q", prefix, all[i%len(all)], n, ok, fits, text)
				}
			}
		}
		if failed > 0 {
			t.Errorf("%d of %d prompts did not make room as they should", failed, len(ns))
		}
	})
}

// TestMakeRoomKeepsSharedBeginnings checks that texts beginning alike are
// cut alike: what is left of each still begins with the same text, so a
// prefix cache sees them share as much as before.
func TestMakeRoomKeepsSharedBeginnings(t *testing.T) {
	t.Parallel()
	tok, s := testSynth(t, "o200k_base")
	r := rand.New(rand.NewPCG(5, 6))
	shared := string(s.Prompt(nil, r, StyleInstruction, 200))
	salt := "[surge 0123456789]\n"
	var cuts []int
	for i := range 5 {
		text := shared + fmt.Sprintf(" Then answer question %d.", i)
		rest, ok := checkRoom(t, tok, salt, text)
		if !ok {
			t.Fatalf("MakeRoom(%.80q) found no cut", text)
		}
		cuts = append(cuts, len(text)-len(rest))
	}
	for _, c := range cuts[1:] {
		if c != cuts[0] {
			t.Fatalf("texts beginning with the same 200 tokens were cut at bytes %v", cuts)
		}
	}
}

// FuzzMakeRoom checks MakeRoom's promise on any text: when it finds room,
// what it leaves is a suffix that makes the length exact.
func FuzzMakeRoom(f *testing.F) {
	tok, err := Builtin("o200k_base")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"", "hello world", "a\n \nb", "it's 1234567 and 89", "😀 café\t\r\n done", "\xff\xfe x y z", "  leading spaces then words here", "数据数据数据数据数据数据数据数据"} {
		f.Add(uint8(0), s)
	}
	f.Fuzz(func(t *testing.T, p uint8, text string) {
		checkRoom(t, tok, roomPrefixes[int(p)%len(roomPrefixes)], text)
	})
}

// TestMakeRoomLanguages is MakeRoom on prompts of every language and
// style, short ones mostly (8 to 48 tokens, the hard cases: a sentence of
// Japanese is one word, and cl100k_base spends several tokens on each
// Chinese or Devanagari character), behind salts of ten random digits.
// Every prompt at least as long as the salt must make room for it.
func TestMakeRoomLanguages(t *testing.T) {
	t.Parallel()
	per := 12
	if testing.Short() {
		per = 3
	}
	for _, name := range []string{"o200k_base", "cl100k_base", "llama3"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := name
			if name == "llama3" {
				path = llama3Path(t)
			}
			tok, s := testTaskSynth(t, path)
			r := rand.New(rand.NewPCG(8, 9))
			failed, tried := 0, 0
			for _, lang := range Languages() {
				for _, st := range Styles() {
					if s.CanWrite(st, lang) != nil {
						continue
					}
					for i := range per {
						n := 8 + r.IntN(40)
						if i == 0 {
							n = 200 + r.IntN(2000)
						}
						prefix := fmt.Sprintf("[surge %010d]\n", r.Int64N(1e10))
						text := string(s.PromptIn(nil, r, st, lang, n))
						tried++
						if _, ok := checkRoom(t, tok, prefix, text); !ok && len(tok.Encode(prefix)) <= n {
							if failed++; failed <= 5 {
								t.Errorf("%s %s prompt of %d tokens: no room for %q: %.120q", lang, st, n, prefix, text)
							}
						}
					}
				}
			}
			if failed > 0 || tried == 0 {
				t.Errorf("%d of %d prompts did not make room", failed, tried)
			}
		})
	}
}
