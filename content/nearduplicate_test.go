package content

import (
	"math/rand/v2"
	"testing"
)

// TestNearDuplicate edits synthetic prompts of every style at the start,
// middle and end, in each tokenizer: an edited copy is exactly as many
// tokens as the prompt, differs from it, and keeps what the edit's place
// promises a prefix cache: a copy edited at the start shares no first
// run with the prompt, one edited at the end shares all but its last
// run, one edited in the middle about half. Nearly every prompt of 64 or
// more tokens can be edited (a prompt is sent unchanged otherwise, never
// at another length).
func TestNearDuplicate(t *testing.T) {
	t.Parallel()
	eachTokenizer(t, func(t *testing.T, tok Tokenizer, s *Synth) {
		all := append(styles(), StyleMixed)
		r := rand.New(rand.NewPCG(9, 2))
		fill := func(dst []byte, n int) []byte { return s.Prompt(dst, r, StyleMixed, n) }
		tried, edited := 0, 0
		for i := range 120 {
			n := 64 + 37*i
			text := string(s.Prompt(nil, r, all[i%len(all)], n))
			for _, where := range []Where{WhereStart, WhereMiddle, WhereEnd} {
				tried++
				got, ok := NearDuplicate(tok, text, where, 8, fill)
				if !ok {
					continue
				}
				edited++
				if len(tok.Encode(got)) != n || got == text {
					t.Errorf("%s edit of a %d-token prompt: %d tokens (changed %v)", where, n, len(tok.Encode(got)), got != text)
				}
				shared := commonPrefix(got, text)
				switch {
				case where == WhereStart && shared > len(text)/4:
					t.Errorf("start edit of a %d-token prompt keeps %d of %d bytes in front", n, shared, len(text))
				case where == WhereEnd && shared < len(text)/2:
					t.Errorf("end edit of a %d-token prompt keeps only %d of %d bytes in front", n, shared, len(text))
				case where == WhereMiddle && (shared < len(text)/4 || shared > 3*len(text)/4+1):
					t.Errorf("middle edit of a %d-token prompt keeps %d of %d bytes in front", n, shared, len(text))
				}
			}
		}
		if edited < tried*95/100 {
			t.Errorf("%d of %d edits made, want at least 95%%", edited, tried)
		}
	})
}

// TestNearDuplicateNone: an exact copy is the text; text without word
// boundaries cannot be edited.
func TestNearDuplicateNone(t *testing.T) {
	t.Parallel()
	tok, err := Builtin("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	fill := func(dst []byte, n int) []byte { return append(dst, "x"...) }
	if got, ok := NearDuplicate(tok, "a b c", WhereNone, 8, fill); !ok || got != "a b c" {
		t.Errorf("none: %q %v, want the text", got, ok)
	}
	if _, ok := NearDuplicate(tok, "天气很好我们去公园散步吧", WhereMiddle, 2, fill); ok {
		t.Error("an edit of text without a word boundary was made")
	}
}

// commonPrefix is the length of the bytes a and b begin with alike.
func commonPrefix(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}
