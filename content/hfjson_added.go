package content

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// addedToken is an entry of added_tokens that Encode matches in text.
type addedToken struct {
	content        string
	id             int
	lstrip, rstrip bool
}

// addedTokens finds added tokens (such as "<|begin_of_text|>") in text.
// Like the Hugging Face library's encode, it matches every added token,
// special or not, wherever its text appears: at each position the longest
// token wins, and the leftmost position first.
type addedTokens struct {
	// byFirst lists the tokens by their first byte, longest first.
	byFirst [256][]addedToken
}

// newAddedTokens indexes the added_tokens of a tokenizer.json.
func newAddedTokens(list []hfAddedToken) (*addedTokens, error) {
	a := &addedTokens{}
	for i, t := range list {
		switch {
		case t.Content == "":
			return nil, fmt.Errorf("tokenizer.json: added_tokens[%d] (id %d) has empty content", i, t.ID)
		case t.SingleWord:
			return nil, fmt.Errorf("tokenizer.json: added_tokens[%d] %q: single_word true is not supported", i, t.Content)
		case t.ID < 0 || t.ID >= maxTokenID:
			return nil, fmt.Errorf("tokenizer.json: added_tokens[%d] %q: id %d out of range [0, %d)", i, t.Content, t.ID, maxTokenID)
		}
		b := t.Content[0]
		a.byFirst[b] = append(a.byFirst[b], addedToken{content: t.Content, id: t.ID, lstrip: t.LStrip, rstrip: t.RStrip})
	}
	for b := range a.byFirst {
		slices.SortStableFunc(a.byFirst[b], func(x, y addedToken) int { return cmp.Compare(len(y.content), len(x.content)) })
	}
	return a, nil
}

// split cuts text at added tokens, calling plain with each stretch of
// ordinary text and token with the id of each added token, in order. An
// added token with lstrip (rstrip) also swallows the white space before
// (after) it.
func (a *addedTokens) split(text string, plain func(string), token func(int)) {
	start := 0 // start of the pending ordinary text
	for i := 0; i < len(text); {
		t, ok := a.match(text[i:])
		if !ok {
			i++
			continue
		}
		end := i + len(t.content)
		left := i
		if t.lstrip {
			left = start + len(strings.TrimRightFunc(text[start:i], unicode.IsSpace))
		}
		if left > start {
			plain(text[start:left])
		}
		token(t.id)
		if t.rstrip {
			end = len(text) - len(strings.TrimLeftFunc(text[end:], unicode.IsSpace))
		}
		start, i = end, end
	}
	if start < len(text) {
		plain(text[start:])
	}
}

// match returns the longest added token that s starts with.
func (a *addedTokens) match(s string) (addedToken, bool) {
	for _, t := range a.byFirst[s[0]] {
		if strings.HasPrefix(s, t.content) {
			return t, true
		}
	}
	return addedToken{}, false
}
