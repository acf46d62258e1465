package content

import (
	"cmp"
	"slices"
	"unicode"
	"unicode/utf8"
)

// roomCuts bounds the cuts MakeRoom tries in one word. A prefix of a few
// tokens runs out inside the first words of a text, where a handful of
// cuts find the length; a long run without word boundaries (Chinese
// written without spaces, say) costs an encoding of the run per cut.
const roomCuts = 64

// MakeRoom returns what is left of text once prefix takes the place of
// its first tokens: a part of text such that prefix followed by it is
// exactly as many tokens in tok as text alone. It cuts text inside the
// word where the prefix's tokens run out. When no cut there leaves the
// length exact (a word whose tokens merge differently once cut, or
// characters of several tokens each, as Chinese is in cl100k_base), it
// cuts fewer tokens at the start, as many as it can, and the rest inside
// the last words (or, for a text whose last word is where they run out,
// at both ends of that word). ok is false when text is shorter than
// prefix or no such cuts make it exact.
//
// Tokens never cross a word boundary (see pieces_count.go), so the
// tokens of text between its cut words are kept as they were, at the
// same positions: texts that began alike past the first cut still do.
// MakeRoom encodes prefix, the first words and the last ones, never the
// whole text, and checks that prefix joined with what it keeps of the
// first cut word counts as the two apart.
func MakeRoom(tok Tokenizer, prefix, text string) (rest string, ok bool) {
	k := len(tok.Encode(prefix))
	if k == 0 {
		return text, true
	}
	joins := func(c cut) bool {
		r := text[c.at:c.word]
		return r == "" || len(tok.Encode(prefix+r)) == k+c.kept
	}
	// The usual case, cheaply: a cut in the word where k tokens run out.
	cuts, done := startCuts(tok, k, text, joins, false)
	if done {
		return text[cuts[len(cuts)-1].at:], true
	}
	for _, c := range cuts {
		if c.drop == k && joins(c) {
			return text[c.at:], true // one that keeps a leading space
		}
	}
	// Fewer at the start, most first, and the rest at the end.
	cuts, _ = startCuts(tok, k, text, joins, true)
	ends := endCuts(tok, k, text)
	slices.SortStableFunc(cuts, func(a, b cut) int { return cmp.Compare(b.drop, a.drop) })
	for _, c := range cuts {
		i := slices.IndexFunc(ends, func(e cut) bool { return e.drop == k-c.drop && e.at >= c.word })
		if i >= 0 && joins(c) {
			return text[c.at:ends[i].at], true
		}
	}
	return lastWordRoom(tok, prefix, k, text)
}

// roomPairs bounds the cuts lastWordRoom tries at each end of a word.
const roomPairs = 16

// lastWordRoom is MakeRoom's last resort, for a text whose last word is
// where the prefix's k tokens run out (often its only word, a sentence of
// Japanese, say): a cut at each end of that word, the words before it
// dropped whole.
func lastWordRoom(tok Tokenizer, prefix string, k int, text string) (string, bool) {
	ls := lastBoundary(text)
	before := 0
	for start := 0; start < ls && before <= k; {
		end := start + nextBoundary(text[start:ls])
		before += len(tok.Encode(text[start:end]))
		start = end
	}
	w := text[ls:]
	keep := len(tok.Encode(w)) - (k - before) // tokens to keep of w
	if before > k || keep <= 0 {
		return "", false
	}
	var starts, ends []int
	for i, r := range w {
		if len(starts) < roomPairs && !unicode.IsSpace(r) {
			starts = append(starts, i)
		}
	}
	for j := len(w); j > 0 && len(ends) < roomPairs; {
		if r, _ := utf8.DecodeLastRuneInString(w[:j]); !unicode.IsSpace(r) {
			ends = append(ends, j)
		}
		_, size := utf8.DecodeLastRuneInString(w[:j])
		j -= size
	}
	for _, i := range starts {
		for _, j := range ends {
			if j <= i {
				break // ends go down
			}
			if r := w[i:j]; len(tok.Encode(r)) == keep && len(tok.Encode(prefix+r)) == k+keep {
				return r, true
			}
		}
	}
	return "", false
}

// cut is a place to cut a text at. At the start: the offset what is kept
// begins at, the tokens dropped before it, the end of the word it falls
// in (or the start of the word after, for a cut at a word's start), and
// the tokens kept of that word. At the end: the offset what is kept ends
// at and the tokens dropped after it.
type cut struct{ at, drop, word, kept int }

// startCuts returns the cuts at the start of text that drop at most k
// tokens, in order of offset: at every rune start of the word where k
// tokens run out, and of the word after when they run out at its start,
// and with all the words before them too; and the end of the text when
// it has exactly k tokens. Unless all, it stops early, with done, at the
// first that drops k tokens, keeps text beginning with a non-space and
// joins.
func startCuts(tok Tokenizer, k int, text string, joins func(cut) bool, all bool) (cuts []cut, done bool) {
	before := 0 // tokens of text before the word
	for start := 0; start < len(text) && before <= k; {
		end := start + nextBoundary(text[start:])
		word := text[start:end]
		n := len(tok.Encode(word))
		if all || before+n >= k {
			tried := 0
			for i := range word {
				if tried++; tried > roomCuts {
					break
				}
				r := len(tok.Encode(word[i:]))
				c := cut{at: start + i, drop: before + n - r, word: end, kept: r}
				if c.drop > k {
					continue
				}
				cuts = append(cuts, c)
				if !all && c.drop == k && !spaceAt(text, c.at) && joins(c) {
					return cuts, true
				}
			}
			if end == len(text) && before+n == k {
				return append(cuts, cut{at: end, drop: k, word: end}), true
			}
		}
		before += n
		start = end
	}
	return cuts, false
}

// spaceAt reports whether text[i:] begins with a space.
func spaceAt(text string, i int) bool {
	r, _ := utf8.DecodeRuneInString(text[i:])
	return i < len(text) && unicode.IsSpace(r)
}

// endCuts returns the cuts at the end of text that drop at most k tokens
// (none among them): inside each of its last words, the words after it
// dropped whole. What they keep does not end in a space, which a chat
// template may trim.
func endCuts(tok Tokenizer, k int, text string) []cut {
	cuts := []cut{{at: len(text)}}
	after := 0 // tokens of the words after the one cut
	for end := len(text); end > 0 && after < k; {
		start := lastBoundary(text[:end])
		word := text[start:end]
		n := len(tok.Encode(word))
		tried := 0
		for i := len(word); i > 0; {
			if tried++; tried > roomCuts {
				break
			}
			_, size := utf8.DecodeLastRuneInString(word[:i])
			i -= size
			if r, _ := utf8.DecodeLastRuneInString(word[:i]); i > 0 && unicode.IsSpace(r) {
				continue
			}
			if drop := after + n - len(tok.Encode(word[:i])); drop <= k {
				cuts = append(cuts, cut{at: start + i, drop: drop})
			}
		}
		after += n
		end = start
	}
	return cuts
}

// lastBoundary returns the index of the last word boundary in s, or 0.
func lastBoundary(s string) int {
	for i := len(s) - 2; i > 0; i-- {
		if s[i] == ' ' && isBoundary(s, i) {
			return i
		}
	}
	return 0
}
