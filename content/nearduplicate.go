package content

// Where names the part of a prompt a near-duplicate changes.
type Where string

// The parts a near-duplicate may change. A prefix cache keyed on the
// prompt's first tokens serves none of a copy changed at the start,
// about half of one changed in the middle and nearly all of one changed
// at the end; an exact copy (WhereNone) is what a response cache serves.
const (
	WhereNone   Where = "none"
	WhereStart  Where = "start"
	WhereMiddle Where = "middle"
	WhereEnd    Where = "end"
)

// Wheres lists the parts, in the order messages name them.
func Wheres() []Where { return []Where{WhereNone, WhereStart, WhereMiddle, WhereEnd} }

// nearTries bounds the fresh lengths NearDuplicate tries for one window.
const nearTries = 3

// NearDuplicate returns text with a run of whole words at where, of at
// least k tokens in tok, replaced by fresh text that fill appends to dst
// (exactly n tokens of it), such that the result is exactly as many
// tokens as text. The run starts and ends at word boundaries, where
// tokens do not cross (see pieces_count.go); fill's text of the run's
// count, then one token fewer and one more, is tried in its place and
// the whole re-encoded each time. ok is false when text has no word
// boundary to cut at (Chinese written without spaces, say) or no try
// made it exact: the caller then sends something else, never a prompt of
// another length. WhereNone returns text itself.
func NearDuplicate(tok Tokenizer, text string, where Where, k int, fill func(dst []byte, n int) []byte) (string, bool) {
	if where == WhereNone || text == "" {
		return text, where == WhereNone
	}
	a, b, ok := nearWindow(tok, text, where, max(k, 1))
	if !ok {
		return "", false
	}
	want := len(tok.Encode(text))
	m := len(tok.Encode(text[a:b]))
	var buf []byte
	for _, n := range [nearTries]int{m, m - 1, m + 1} {
		if n < 1 {
			continue
		}
		buf = append(buf[:0], text[:a]...)
		if a > 0 {
			buf = append(buf, ' ') // the run began with the boundary's space
		}
		buf = fill(buf, n)
		buf = append(buf, text[b:]...)
		if s := string(buf); s != text && len(tok.Encode(s)) == want {
			return s, true
		}
	}
	return "", false
}

// nearWindow returns the run [a, b) of text that NearDuplicate replaces:
// whole words of at least k tokens, the first ones (start), the last ones
// (end) or those from the boundary nearest the middle (middle). A run
// other than the first begins with its boundary's space; one other than
// the last ends before a boundary. ok is false without a boundary, or
// when the run would be the whole text.
func nearWindow(tok Tokenizer, text string, where Where, k int) (a, b int, ok bool) {
	bounds := boundaries(text)
	if len(bounds) == 0 {
		return 0, 0, false
	}
	cuts := append(append([]int{0}, bounds...), len(text))
	switch where {
	case WhereStart:
		return nearRun(tok, text, cuts, 0, k)
	case WhereMiddle:
		i := 1
		for i < len(cuts)-2 && cuts[i] < len(text)/2 {
			i++
		}
		return nearRun(tok, text, cuts, i, k)
	case WhereEnd:
		for i := len(cuts) - 2; i > 0; i-- {
			a, b := cuts[i], len(text)
			if len(tok.Encode(text[a:b])) >= k {
				return a, b, true
			}
		}
	}
	return 0, 0, false
}

// nearRun is the run from cuts[i] to the first later cut past k tokens,
// unless that is the whole text.
func nearRun(tok Tokenizer, text string, cuts []int, i, k int) (a, b int, ok bool) {
	a = cuts[i]
	for j := i + 1; j < len(cuts); j++ {
		b = cuts[j]
		if len(tok.Encode(text[a:b])) >= k {
			break
		}
	}
	return a, b, b > a && (a > 0 || b < len(text))
}

// boundaries returns the offsets of text's word boundaries: spaces a word
// follows and another word precedes (isBoundary).
func boundaries(text string) []int {
	var out []int
	for i := 1; i+1 < len(text); i++ {
		if text[i] == ' ' && isBoundary(text, i) {
			out = append(out, i)
		}
	}
	return out
}
