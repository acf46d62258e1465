package content

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestBuiltinRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text, reason string
	}{
		{"Hello, world! Summarise the passage below in 3 sentences.", "prose"},
		{"", "empty text has no tokens"},
		{"a\n \nb\r\n\r\n  \t x", "newlines and spaces that \\s*[\\r\\n]+ and \\s+(?!\\S) split"},
		{"<|endoftext|> is ordinary text here", "special tokens are not matched"},
		{"\xff\xfe a\xc3 b\xe2\x82", "invalid UTF-8 is encoded byte for byte"},
		{strings.Repeat("xyz", 400), "a piece longer than the cache takes"},
		{strings.Repeat(" ", 500) + "x", "a long run of spaces that \\s+(?!\\S) backtracks over"},
	}
	for _, name := range builtinNames() {
		tok, err := Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		if tok.Name() != name {
			t.Errorf("Builtin(%q).Name() = %q", name, tok.Name())
		}
		for _, tc := range tests {
			ids := tok.Encode(tc.text)
			if back := tok.Decode(ids); back != tc.text {
				t.Errorf("%s: %s: Decode(Encode(%q)) = %q (ids %v)", name, tc.reason, tc.text, back, ids)
			}
			if (len(ids) == 0) != (tc.text == "") {
				t.Errorf("%s: %s: Encode(%q) = %v", name, tc.reason, tc.text, ids)
			}
		}
	}
}

func TestBuiltinDecodeSkipsUnknownIDs(t *testing.T) {
	t.Parallel()
	tok, err := Builtin("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	hi := tok.Encode("hi")
	// -1 and 1<<30 name nothing; 100257 is <|endoftext|>, a special token.
	ids := append([]int{-1, 1 << 30, 100257}, hi...)
	if got := tok.Decode(ids); got != "hi" {
		t.Errorf("Decode(%v) = %q, want %q", ids, got, "hi")
	}
}

func TestBuiltinErrors(t *testing.T) {
	t.Parallel()
	_, err := Builtin("p50k_base")
	want := `unknown built-in tokenizer "p50k_base" (built in: o200k_base, cl100k_base)`
	if err == nil || err.Error() != want {
		t.Errorf("Builtin(p50k_base) error %v, want %q", err, want)
	}
}

func TestBuiltinShared(t *testing.T) {
	t.Parallel()
	a, errA := Builtin("o200k_base")
	b, errB := Builtin("o200k_base")
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if a != b {
		t.Error("two calls of Builtin(o200k_base) built the tables twice")
	}
}

func TestBuiltinConcurrentEncode(t *testing.T) {
	t.Parallel()
	tok, err := Builtin("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	vectors := readVectors(t, filepath.Join("..", "tiktoken", "o200k_vectors.jsonl"))
	checkConcurrentEncode(t, tok, vectors, func(hfVector) bool { return false })
}
