package redact

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxQuoted is how many bytes of a user's value Clip keeps.
const MaxQuoted = 200

// Clip returns s for a message that quotes it: whole when it is at most
// MaxQuoted bytes, else its first MaxQuoted bytes (cut at a character's
// start) and how long it is, so a 1 MB value makes a short message.
func Clip(s string) string { return ClipTo(s, MaxQuoted) }

// ClipTo is Clip with n bytes kept.
func ClipTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s… (%d bytes)", s[:n], len(s))
}

// ClipLines clips every line of a message to n bytes (ClipTo): a message
// may list many problems, but no line of it needs more than n bytes,
// whatever value a line quotes.
func ClipLines(s string, n int) string {
	if len(s) <= n {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = ClipTo(l, n)
	}
	return strings.Join(lines, "\n")
}
