package spec

import (
	"strings"
	"testing"

	"surge/content"
)

// TestDuplicates: duplicates reads a share or a mapping with its
// defaults, is in the canonical form when given, and is refused where it
// cannot apply, at its place.
func TestDuplicates(t *testing.T) {
	t.Parallel()
	const base = "version: 1\nduration: 1m\nclients:\n  - {name: a, model: m, rate: 1/s, input: 10"
	tests := []struct {
		reason, extra string
		want          *Duplicates
		err           string
	}{
		{"absent", ", output: 10", nil, ""},
		{"a share, the defaults", ", output: 10, duplicates: 10%", &Duplicates{Share: 0.1, Edit: content.WhereEnd, Tokens: 8, Within: 100}, ""},
		{"a mapping", ", output: 10, duplicates: {share: 0.25, edit: start, tokens: 32, within: 10}", &Duplicates{Share: 0.25, Edit: content.WhereStart, Tokens: 32, Within: 10}, ""},
		{"exact copies", ", output: 10, duplicates: {share: 5%, edit: none}", &Duplicates{Share: 0.05, Edit: content.WhereNone, Tokens: 8, Within: 100}, ""},
		{"a misspelt edit", ", output: 10, duplicates: {share: 5%, edit: begining}", nil, `clients[0].duplicates.edit: unknown edit begining`},
		{"no share", ", output: 10, duplicates: {edit: end}", nil, "missing key share"},
		{"a share over 100%", ", output: 10, duplicates: 150%", nil, "a share must be between 0 and 100%"},
		{"fractional tokens", ", output: 10, duplicates: {share: 5%, tokens: 2.5}", nil, "tokens must be a whole number from 1 to 4096, got 2.5"},
		{"a chat session", ", output: 10, duplicates: 5%, session: {kind: chat, turns: 2}", nil, "duplicates repeat single requests that generate text: not chat sessions"},
		{"embeddings", ", api: embeddings, duplicates: 5%", nil, "not single sessions or api embeddings"},
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
		got := s.Clients[0].Duplicates
		if (got == nil) != (tt.want == nil) || got != nil && *got != *tt.want {
			t.Errorf("%s: %+v, want %+v", tt.reason, got, tt.want)
		}
		if has := strings.Contains(string(s.Canonical()), "duplicates: "); has != (tt.want != nil) {
			t.Errorf("%s: canonical form says duplicates: %v:\n%s", tt.reason, has, s.Canonical())
		}
	}
}
