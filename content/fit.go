package content

import (
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"
)

// fitTries bounds the full encodings Trim and Pad spend verifying a
// candidate before they give up.
const fitTries = 8

// Trim returns a start of text that is exactly n tokens in tok and does
// not end in white space, which a chat template may strip. It cuts inside
// the word where n tokens run out (words carry their leading space, so
// tokens never cross them; see pieces_count.go), counting the words one
// by one and verifying the cut by encoding it whole; when the word counts
// did not add up it tries the other cuts of that word and the word
// boundaries before it, and last the text of the first n tokens, which
// tokenCut may end in an ellipsis in place of white space. ok is false
// when text is shorter than n tokens or no cut is exact.
func Trim(tok Tokenizer, text string, n int) (string, bool) {
	if n <= 0 {
		return "", false
	}
	exact := func(s string) bool { return len(tok.Encode(s)) == n }
	tries := 0
	try := func(s string) bool {
		tries++
		return tries <= fitTries && exact(s)
	}
	var bounds []int // word boundaries passed, for the fallback
	before := 0      // tokens of the words before start
	for start := 0; start < len(text); {
		end := start + nextBoundary(text[start:])
		word := text[start:end]
		wn := len(tok.Encode(word))
		if before+wn >= n {
			for _, i := range wordCuts(tok, word, n-before) {
				if try(text[:start+i]) {
					return text[:start+i], true
				}
			}
			if s, ok := nearBoundary(text, bounds, end, try); ok {
				return s, true
			}
			return tokenCut(tok, text, n)
		}
		bounds = append(bounds, end)
		before += wn
		start = end
	}
	return "", false // shorter than n tokens
}

// wordCuts returns the ends i of word, longest first, at which word[:i]
// is want tokens and does not end in white space; at most roomCuts are
// tried.
func wordCuts(tok Tokenizer, word string, want int) []int {
	var out []int
	tried := 0
	for i := len(word); i > 0 && tried < roomCuts; {
		r, _ := utf8.DecodeLastRuneInString(word[:i])
		if !unicode.IsSpace(r) {
			tried++
			if len(tok.Encode(word[:i])) == want {
				out = append(out, i)
			}
		}
		_, size := utf8.DecodeLastRuneInString(word[:i])
		i -= size
	}
	return out
}

// nearBoundary tries the word boundaries nearest to end, the last first
// (and end itself), for a text whose word counts do not add up.
func nearBoundary(text string, bounds []int, end int, try func(string) bool) (string, bool) {
	cands := []int{end}
	for k := len(bounds) - 1; k >= 0 && len(cands) < fitTries; k-- {
		cands = append(cands, bounds[k])
	}
	for _, c := range cands {
		s := text[:c]
		if r, _ := utf8.DecodeLastRuneInString(s); s != "" && !unicode.IsSpace(r) && try(s) {
			return s, true
		}
	}
	return "", false
}

// cutMarks end a trimmed text whose last token would have been white
// space, in the order tried.
var cutMarks = []string{"…", "...", "."}

// tokenCut is Trim's last resort: the text of text's first n tokens,
// when it is a start of text that does not end in white space and
// encodes to n tokens again (a cut between two tokens of one chunk, such
// as a run of digits or punctuation, which no cut of its word's runes
// counts alike alone); or, when the n-th token ends in white space (a
// line break before a code fence, a space before digits), the first n−1
// tokens without their trailing white space and a mark of cutMarks, if
// that is n tokens.
func tokenCut(tok Tokenizer, text string, n int) (string, bool) {
	ids := tok.Encode(text)
	if len(ids) <= n {
		return "", false
	}
	if s := tok.Decode(ids[:n]); keepable(text, s) && len(tok.Encode(s)) == n {
		return s, true
	}
	if n < 2 {
		return "", false
	}
	head := strings.TrimRightFunc(tok.Decode(ids[:n-1]), unicode.IsSpace)
	if head == "" || !strings.HasPrefix(text, head) {
		return "", false
	}
	for _, m := range cutMarks {
		if s := head + m; len(tok.Encode(s)) == n {
			return s, true
		}
	}
	return "", false
}

// keepable reports whether s, a cut of text, is a start of it that does
// not end in white space.
func keepable(text, s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return s != "" && !unicode.IsSpace(r) && strings.HasPrefix(text, s)
}

// padSeams are what Pad puts between a text and its filler, in the order
// tried: a paragraph break, a line break, a space.
var padSeams = []string{"\n\n", "\n", " "}

// Pad returns text followed by filler written by s in style (English)
// so that the whole is exactly n tokens in tok, s's tokenizer; have is
// text's own count. The filler is sized to what is left after the seam
// between them, and resized by what an encoding of the whole says when
// the seam's tokens merge with their neighbours; each seam of padSeams is
// tried in turn (a space joins the filler's first word, so it alone pads
// by a single token). r draws the filler. ok is false when n ≤ have or no
// seam and filler length is exact.
func Pad(tok Tokenizer, s *Synth, r *rand.Rand, style Style, text string, have, n int) (string, bool) {
	if n <= have {
		return "", false
	}
	var buf []byte
	for _, seam := range padSeams {
		fill := max(1, n-have-len(tok.Encode(seam)))
		if seam == " " {
			fill = n - have // the space joins the filler's first word
		}
		for k := 0; k < 3 && fill >= 1; k++ {
			buf = append(append(buf[:0], text...), seam...)
			buf = s.PromptIn(buf, r, style, English, fill)
			got := len(tok.Encode(string(buf)))
			if got == n {
				return string(buf), true
			}
			fill += n - got
		}
	}
	return "", false
}
