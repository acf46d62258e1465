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

func TestClipLines(t *testing.T) {
	t.Parallel()
	msg := "a: ok\nb: " + strings.Repeat("x", 5000) + "\nc: ok"
	got := ClipLines(msg, 100)
	lines := strings.Split(got, "\n")
	if len(lines) != 3 || lines[0] != "a: ok" || lines[2] != "c: ok" || len(lines[1]) > 130 || !strings.HasSuffix(lines[1], "(5003 bytes)") {
		t.Errorf("ClipLines gave %q", got)
	}
	if got := ClipLines("short", 100); got != "short" {
		t.Errorf("a short message changed: %q", got)
	}
}
