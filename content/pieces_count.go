package content

import (
	"unicode"
	"unicode/utf8"
)

// Why token counts add up.
//
// The BPE tokenizers we support (o200k_base, cl100k_base, Llama 3 and the
// like) first split text into chunks with a regular expression and then
// merge bytes within each chunk only, so the count of a text is the sum of
// the counts of its chunks. Their expressions (see tiktoken's o200k_base)
// are alternations of: a letter run with one optional leading non-letter,
// non-newline character (" word", "(word", o200k also "'s" suffixes), a run
// of at most 3 digits, " ?" and a punctuation run with trailing newlines,
// and three whitespace forms (newline runs, "\s+(?!\S)", "\s+").
//
// Take a word boundary: a space that follows a non-space character and
// precedes a letter, as in "end. Next". No chunk ending at the character
// before the space can take the space in (letter, digit and punctuation
// runs stop at whitespace, and lookahead only follows whitespace), and the
// chunk starting at the space is " Next" whatever came before. So chunks,
// and therefore tokens, never cross such a boundary: the tokens of A+B are
// the tokens of A followed by those of B, whenever A ends in a non-space
// and B begins with a space and a letter.
//
// Prompts are built only from pieces that meet at such boundaries, or at a
// paragraph break whose cost is measured per ending (see Synth.breaks), so
// a prompt's length is the sum of its pieces' counts with no encoding. The
// argument rests on the shape of the pre-tokenizer, so NewSynth verifies
// it (pieces_verify.go) rather than trusting it, and the tests encode whole
// prompts.

// counter counts tokens of text by words, encoding each distinct word once.
type counter struct {
	tok  Tokenizer
	memo map[string]int
}

func newCounter(tok Tokenizer) *counter {
	return &counter{tok: tok, memo: make(map[string]int)}
}

// encoded returns the number of tokens of s, encoding s alone.
func (c *counter) encoded(s string) int {
	n, ok := c.memo[s]
	if !ok {
		n = len(c.tok.Encode(s))
		c.memo[s] = n
	}
	return n
}

// count returns the tokens of s as the sum over its words (see
// splitWords); s may begin with a space (body form) or not (start form).
func (c *counter) count(s string) int {
	total := 0
	for len(s) > 0 {
		i := nextBoundary(s)
		total += c.encoded(s[:i])
		s = s[i:]
	}
	return total
}

// nextBoundary returns the index of the first word boundary in s after its
// first byte, or len(s). A boundary is a space that follows a non-space
// character and precedes a letter.
func nextBoundary(s string) int {
	for i := 1; i+1 < len(s); i++ {
		if s[i] == ' ' && isBoundary(s, i) {
			return i
		}
	}
	return len(s)
}

// isBoundary reports whether the space at s[i] is a word boundary.
func isBoundary(s string, i int) bool {
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	if unicode.IsSpace(prev) {
		return false
	}
	next := rune(s[i+1])
	if next >= utf8.RuneSelf {
		next, _ = utf8.DecodeRuneInString(s[i+1:])
	}
	return unicode.IsLetter(next)
}

// endRun returns the trailing run of s that is neither space, letter nor
// digit: the ending that decides what a paragraph break after s costs.
// Combining marks belong to the run: pre-tokenizers whose letter class
// lacks \p{M} (cl100k_base, Llama 3) put the marks of a Devanagari word's
// last syllable in one chunk with the punctuation and newlines after them.
func endRun(s string) string {
	i := len(s)
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:i])
		if unicode.IsSpace(r) || unicode.IsLetter(r) || unicode.IsDigit(r) {
			break
		}
		i -= n
	}
	return s[i:]
}
