package content

import (
	"strings"
	"unicode/utf8"
)

// byteAlphabet is GPT-2's byte-level alphabet: the printable rune that
// stands for each byte in a byte-level BPE vocabulary, and the inverse map.
//
// Bytes that are printable Latin-1 ('!'..'~', '¡'..'¬', '®'..'ÿ') stand for
// themselves; the other 68 bytes, in increasing order, stand for U+0100,
// U+0101, … So the space byte 0x20 is 'Ġ' (U+0120) and '\n' is 'Ċ' (U+010A).
type byteAlphabet struct {
	runes [256]rune
	bytes [alphabetEnd]int16 // rune → byte, or -1 outside the alphabet
}

// alphabetEnd bounds the runes of the alphabet: 'ÿ' and U+0100..U+0143.
const alphabetEnd = 256 + 68

// newByteAlphabet builds the GPT-2 byte-level alphabet.
func newByteAlphabet() *byteAlphabet {
	a := &byteAlphabet{}
	for r := range a.bytes {
		a.bytes[r] = -1
	}
	next := rune(256)
	for b := range 256 {
		if selfPrinting(byte(b)) {
			a.runes[b] = rune(b)
		} else {
			a.runes[b] = next
			next++
		}
		a.bytes[a.runes[b]] = int16(b)
	}
	return a
}

// selfPrinting reports whether b stands for itself in the alphabet.
func selfPrinting(b byte) bool {
	return ('!' <= b && b <= '~') || (0xA1 <= b && b <= 0xAC) || 0xAE <= b
}

// decode maps a vocabulary entry written in the alphabet back to the raw
// bytes it stands for; ok is false if s holds a rune outside the alphabet.
func (a *byteAlphabet) decode(s string) (raw string, ok bool) {
	var sb strings.Builder
	sb.Grow(utf8.RuneCountInString(s))
	for _, r := range s {
		if r >= alphabetEnd || a.bytes[r] < 0 {
			return "", false
		}
		sb.WriteByte(byte(a.bytes[r]))
	}
	return sb.String(), true
}
