package openai

import "unicode/utf8"

// SWAR constants: one in every byte, and every byte's high bit.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plain reports whether a byte may be copied into a JSON string as is:
// printable ASCII other than '"' and '\\'.
var plain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendString appends s to dst as a quoted JSON string, byte for byte what
// encoding/json writes with HTML escaping off: '"', '\\' and control
// characters escaped, invalid UTF-8 replaced by \ufffd, U+2028 and U+2029
// escaped. Runs of plain bytes are copied whole.
//
// Subtleness ahead: the fast path tests 8 bytes at a time (SWAR). With
// w the little-endian word, a byte b of w is interesting when b < 0x20,
// b == '"', b == '\\' or b ≥ 0x80; the classic tests
//
//	hasLess(w, n) = (w − n·ones) &^ w & highs   (some byte < n, n ≤ 0x80)
//	hasZero(w)    = hasLess(w, 1)
//
// are exact as booleans (though not as positions), so a zero result proves
// all 8 bytes plain and they are skipped; otherwise the bytes are examined
// one at a time.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		for i+8 <= len(s) && !anySpecial(s[i:i+8]) {
			i += 8
		}
		for i < len(s) && s[i] < utf8.RuneSelf && plain[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			dst = appendEscape(dst, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch {
		case r == utf8.RuneError && size == 1:
			esc = `\ufffd`
		case r == '\u2028':
			esc = `\u2028`
		case r == '\u2029':
			esc = `\u2029`
		default:
			i += size
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = append(dst, esc...)
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// anySpecial reports whether any of the 8 bytes of s needs a closer look.
func anySpecial(s string) bool {
	w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	q := w ^ '"'*ones
	b := w ^ '\\'*ones
	ctl := (w - 0x20*ones) &^ w
	quote := (q - ones) &^ q
	slash := (b - ones) &^ b
	return (ctl|quote|slash|w)&highs != 0
}

// appendEscape appends the JSON escape of the ASCII byte c.
func appendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	}
	const hex = "0123456789abcdef"
	return append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
}
