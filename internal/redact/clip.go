package redact

import (
	"fmt"
	"unicode/utf8"
)

// MaxQuoted is how many bytes of a user's value Clip keeps.
const MaxQuoted = 200

// Clip returns s for a message that quotes it: whole when it is at most
// MaxQuoted bytes, else its first MaxQuoted bytes (cut at a character's
// start) and how long it is, so a 1 MB value makes a short message.
func Clip(s string) string {
	if len(s) <= MaxQuoted {
		return s
	}
	n := MaxQuoted
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s… (%d bytes)", s[:n], len(s))
}
