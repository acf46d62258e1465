package spec

import (
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
