package openai

import "fmt"

// TypeError is a member of a chunk or a response whose value has the
// wrong type, such as choices that is a string or a content that is a
// number: the data does not say what a server meant, so it is refused
// rather than read as a success with nothing in it. null is allowed
// wherever a member is.
type TypeError struct {
	Member string // the member's path: "choices[].delta.content"
	Want   string // what it may be: "a string or null"
	Got    string // what it was: "a number"
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("%s is %s, want %s", e.Member, e.Got, e.Want)
}

// typed checks the type of the next value, the member key of the object
// at path: null is consumed and reports false; a value of the kind c opens
// ('{', '[', '"', or '0' for any number) is left to be read and reports
// true; any other value is a *TypeError.
func (s *scanner) typed(path string, key []byte, c byte) (bool, error) {
	got := s.peek()
	switch {
	case got == 'n':
		return false, s.literal("null")
	case got == c, c == '0' && (got == '-' || isDigit(got)):
		return true, nil
	}
	kind := kindName(got)
	if kind == "" {
		return false, s.fail("value")
	}
	member := string(key)
	if path != "" {
		member = path + "." + member
	}
	return false, &TypeError{Member: member, Want: kindName(c) + " or null", Got: kind}
}

// kindName names the kind of JSON value that starts with c, or "" if none
// does.
func kindName(c byte) string {
	switch {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't', c == 'f':
		return "a boolean"
	case c == '-', isDigit(c):
		return "a number"
	}
	return ""
}
