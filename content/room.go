package content

import (
	"cmp"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Bounds of MakeRoom's search. A prefix of a few tokens runs out inside
// the first words of a text, where a handful of cuts find the length; a
// long run without word boundaries (Chinese, say) costs an encoding of
// the run per cut, so the cuts tried in one word are bounded.
const (
	roomCuts  = 64 // cuts tried in one word
	roomTries = 4  // cuts at the start tried with one at the end
)

// MakeRoom returns what is left of text once prefix takes the place of
// its first tokens: a part of text such that prefix followed by it is
// exactly as many tokens in tok as text alone. It cuts text inside the
// word where the prefix's tokens run out; when no cut there leaves the
// length exact (a word whose tokens merge differently once cut), it cuts
// fewer tokens there and the rest inside the last words. ok is false
// when text is shorter than prefix or no such cuts make it exact.
//
// Tokens never cross a word boundary (see pieces_count.go), so the
// tokens of text between its cut words are kept as they were, at the
// same positions: texts that began alike past the first cut still do.
// MakeRoom encodes prefix, the words up to the first it cuts and the
// last words, never the whole text, and checks that prefix joined with
// what it keeps of the first cut word counts as the two apart.
func MakeRoom(tok Tokenizer, prefix, text string) (rest string, ok bool) {
	k := len(tok.Encode(prefix))
	if k == 0 {
		return text, true
	}
	joins := func(c cut) bool {
		r := text[c.at:c.word]
		return r == "" || len(tok.Encode(prefix+r)) == k+c.kept
	}
	cuts, done := startCuts(tok, k, text, joins)
	if done {
		return text[cuts[len(cuts)-1].at:], true
	}
	for _, c := range cuts {
		if c.drop == k && joins(c) {
			return text[c.at:], true // one that keeps a leading space
		}
	}
	// Fewer at the start, most first, and the rest at the end.
	cuts = slices.DeleteFunc(cuts, func(c cut) bool { return c.drop > k })
	slices.SortStableFunc(cuts, func(a, b cut) int { return cmp.Compare(b.drop, a.drop) })
	tried := 0
	for _, c := range cuts {
		if tried == roomTries {
			break
		}
		if !joins(c) {
			continue
		}
		tried++
		if keep, ok := endCut(tok, text[c.word:], k-c.drop); ok {
			return text[c.at : c.word+keep], true
		}
	}
	return "", false
}

// cut is a place to cut a text at: the offset what is kept begins at,
// the tokens the cut drops before it, the end of the word it falls in
// (or the start of the word after, for a cut at a word's start), and the
// tokens kept of that word.
type cut struct{ at, drop, word, kept int }

// startCuts returns the cuts in the word of text where k tokens run out,
// and in the word after when they run out at its start: every rune
// start, and the end of the text when that falls there, in order of
// offset. It stops early, with done, at the first that drops k tokens,
// keeps text beginning with a non-space and joins.
func startCuts(tok Tokenizer, k int, text string, joins func(cut) bool) (cuts []cut, done bool) {
	before := 0 // tokens of text before the word
	for start := 0; start < len(text) && before <= k; {
		end := start + nextBoundary(text[start:])
		word := text[start:end]
		n := len(tok.Encode(word))
		if before+n >= k {
			tried := 0
			for i := range word {
				if tried++; tried > roomCuts {
					break
				}
				r := len(tok.Encode(word[i:]))
				c := cut{at: start + i, drop: before + n - r, word: end, kept: r}
				cuts = append(cuts, c)
				if c.drop == k && !spaceAt(text, c.at) && joins(c) {
					return cuts, true
				}
			}
			if end == len(text) {
				cuts = append(cuts, cut{at: end, drop: before + n, word: end})
				if before+n == k {
					return cuts, true
				}
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

// endCut returns how much of tail, which begins at a word boundary, to
// keep so that e of its tokens are dropped from its end: a cut inside one
// of its last words, the words after it dropped whole. What it keeps does
// not end in a space, which a chat template may trim.
func endCut(tok Tokenizer, tail string, e int) (int, bool) {
	after := 0 // tokens of the words after the one cut
	for end := len(tail); end > 0 && after < e; {
		start := lastBoundary(tail[:end])
		word := tail[start:end]
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
			if after+n-len(tok.Encode(word[:i])) == e {
				return start + i, true
			}
		}
		after += n
		end = start
	}
	return 0, false
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
