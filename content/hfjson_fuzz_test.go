package content

import (
	"slices"
	"testing"
)

// FuzzHFRoundTrip checks Decode(Encode(s)) == s on Llama 3's tokenizer for
// any s, valid UTF-8 or not, and that encoding is deterministic (the piece
// cache must not change results).
func FuzzHFRoundTrip(f *testing.F) {
	tok := llama3Tokenizer(f)
	for _, s := range []string{"", "hello world", "a\n \nb", "it's 1234567", "<|begin_of_text|>x", "😀 café\t\r\n", "\xff\xfe", "  \u0085\ufeff  "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ids := tok.Encode(s)
		if got := tok.Decode(ids); got != s {
			t.Fatalf("Decode(Encode(%q)) = %q (ids %v)", s, got, ids)
		}
		if again := tok.Encode(s); !slices.Equal(again, ids) {
			t.Fatalf("Encode(%q) gave %v, then %v", s, ids, again)
		}
	})
}
