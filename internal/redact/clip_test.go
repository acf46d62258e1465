package redact

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 1<<19) // 1 MiB of two-byte runes
	for _, tt := range []struct {
		in      string
		maxLen  int
		suffix  string
		whyText string
	}{
		{"abc", 3, "abc", "short values are kept whole"},
		{strings.Repeat("x", MaxQuoted), MaxQuoted, "x", "at the bound"},
		{long, MaxQuoted + 40, "(1048576 bytes)", "a 1 MB value is cut and its length said"},
	} {
		got := Clip(tt.in)
		kept, _, _ := strings.Cut(got, "…")
		if len(got) > tt.maxLen || !strings.HasSuffix(got, tt.suffix) || !strings.HasPrefix(tt.in, kept) {
			t.Errorf("%s: Clip gave %d bytes %.60q", tt.whyText, len(got), got)
		}
		if !utf8.ValidString(got) {
			t.Errorf("%s: Clip cut a character", tt.whyText)
		}
	}
}
