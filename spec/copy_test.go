package spec

import (
	"strings"
	"testing"
)

// TestCopy: copy reads a fraction, gives the copy prompt style unless
// prompt or content names one, is in the canonical form only when given,
// and out of [0, 1] is an error at its place.
func TestCopy(t *testing.T) {
	t.Parallel()
	const base = "version: 1\nduration: 1m\nclients:\n  - {name: a, model: m, rate: 1/s, input: 10, output: 10"
	tests := []struct {
		reason, extra string
		copy          float64
		prompt        string
		err           string
	}{
		{"absent: nothing copied, the default style", "", 0, "mixed", ""},
		{"a fraction gives the copy style", ", copy: 0.6", 0.6, "copy", ""},
		{"copy 0 keeps the default style", ", copy: 0", 0, "mixed", ""},
		{"a style given is kept", ", copy: 0.9, prompt: code", 0.9, "code", ""},
		{"over 1 is refused", ", copy: 1.5", 0, "", "4:65: clients[0].copy: copy must be a fraction in [0, 1]"},
		{"negative is refused", ", copy: -0.1", 0, "", "clients[0].copy: copy must be a fraction in [0, 1]"},
	}
	for _, tt := range tests {
		s, err := Parse("t.yaml", []byte(base+tt.extra+"}\n"))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.reason, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.reason, err)
			continue
		}
		c := s.Clients[0]
		if c.Copy != tt.copy || c.Prompt != tt.prompt {
			t.Errorf("%s: copy %g, prompt %q; want %g, %q", tt.reason, c.Copy, c.Prompt, tt.copy, tt.prompt)
		}
		if has := strings.Contains(string(s.Canonical()), "copy: "); has != (tt.copy != 0) {
			t.Errorf("%s: canonical form says copy: %v:\n%s", tt.reason, has, s.Canonical())
		}
	}
}
