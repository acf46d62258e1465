package spec

import (
	"slices"
	"strings"
	"testing"
)

func TestMaxTokens(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason  string
		written string // the max_tokens value; "" leaves the key out
		want    int
		printed string // in the canonical form
	}{
		{"left out, it sends the sampled output length", "", MaxTokensOutput, "output"},
		{"output is the default, written out", "output", MaxTokensOutput, "output"},
		{"none sends no max_tokens", "none", MaxTokensNone, "none"},
		{"a plain number is a fixed cap", "512", 512, "512"},
		{"a count with a multiplier reads as a number", "4k", 4000, "4000"},
		{"a fractional count that comes out whole", "1.5k", 1500, "1500"},
		{"quoted, it is the same word", `"none"`, MaxTokensNone, "none"},
	}
	for _, tt := range tests {
		sampling := ""
		if tt.written != "" {
			sampling = ", sampling: {max_tokens: " + tt.written + "}"
		}
		s, err := Parse("t.yaml", []byte(head+"  - {name: a, model: m, rate: 1/s, input: 1, output: 1"+sampling+"}\n"))
		if err != nil {
			t.Errorf("%s: %v", tt.reason, err)
			continue
		}
		if got := s.Clients[0].Sampling.MaxTokens; got != tt.want {
			t.Errorf("%s: MaxTokens = %d, want %d", tt.reason, got, tt.want)
		}
		if line := "max_tokens: " + tt.printed + "\n"; !strings.Contains(string(s.Canonical()), line) {
			t.Errorf("%s: canonical form lacks %q:\n%s", tt.reason, line, s.Canonical())
		}
	}
}

// TestContentMix checks that content: and language: read as weighted
// mixes in the order written, that a single language is a weight of 1,
// and that the canonical form writes them sorted and only when given, so
// a spec without them hashes as before.
func TestContentMix(t *testing.T) {
	t.Parallel()
	const base = "version: 1\nduration: 1m\nclients:\n  - {name: a, model: m, rate: 1/s, input: 10, output: 10"
	s, err := Parse("t.yaml", []byte(base+", content: {code: 0.4, creative: 0.2, analysis: 0.3, translation: 0.1}, language: {zh: 1, en: 3}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := s.Clients[0]
	want := []Weight{{"code", 0.4}, {"creative", 0.2}, {"analysis", 0.3}, {"translation", 0.1}}
	if !slices.Equal(c.Content, want) || !slices.Equal(c.Language, []Weight{{"zh", 1}, {"en", 3}}) {
		t.Errorf("content %v, language %v; want %v and [zh 1, en 3]", c.Content, c.Language, want)
	}
	canon := string(s.Canonical())
	for _, line := range []string{"    content: {analysis: 0.3, code: 0.4, creative: 0.2, translation: 0.1}\n", "    language: {en: 3, zh: 1}\n"} {
		if !strings.Contains(canon, line) {
			t.Errorf("canonical form lacks %q:\n%s", line, canon)
		}
	}
	one, err := Parse("t.yaml", []byte(base+", language: hi}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(one.Clients[0].Language, []Weight{{"hi", 1}}) {
		t.Errorf("language: hi read as %v", one.Clients[0].Language)
	}
	plain, err := Parse("t.yaml", []byte(base+"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c := string(plain.Canonical()); strings.Contains(c, "content:") || strings.Contains(c, "language:") {
		t.Errorf("a spec without content or language writes them:\n%s", c)
	}
}
