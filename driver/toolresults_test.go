package driver

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSplitText checks that a turn's tool results are cut into n pieces
// that join back into the text, each after the first starting at a space
// where there is one, else at a rune, never inside one.
func TestSplitText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		n    int
		want []string
	}{
		{"it is sunny", 1, []string{"it is sunny"}},
		{"it is sunny", 2, []string{"it is", " sunny"}},
		{"one two three four", 3, []string{"one two", " three", " four"}},
		{"word", 3, []string{"w", "o", "rd"}},
		{"ab", 3, []string{"", "a", "b"}},
		{"", 2, []string{"", ""}},
		{"日本語日本語", 2, []string{"日本語", "日本語"}},
	}
	for _, tt := range tests {
		got := splitText(tt.text, tt.n)
		if !slices.Equal(got, tt.want) {
			t.Errorf("splitText(%q, %d) = %q, want %q", tt.text, tt.n, got, tt.want)
		}
		if strings.Join(got, "") != tt.text {
			t.Errorf("splitText(%q, %d) pieces do not join back", tt.text, tt.n)
		}
		for _, p := range got {
			if !utf8.ValidString(p) {
				t.Errorf("splitText(%q, %d): piece %q cuts a rune", tt.text, tt.n, p)
			}
		}
	}
}
