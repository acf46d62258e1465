package redact

import "strings"

// URL returns s with the user information of every URL in it removed:
// "http://u:p@h:8000/v1" becomes "http://h:8000/v1", whether s is one
// URL, a list of targets ("llama=http://u:p@h1,*=http://h2"), a message
// that quotes URLs, or JSON-escaped text ("http:\/\/u:p@h"). A user name
// alone is removed too: it may be a token. URLs of the sim scheme are
// kept: sim://Llama-3.1-8B@H100-SXMx1 names a simulated target, not a
// user.
func URL(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	var b strings.Builder
	for {
		at := authority(s)
		if at < 0 {
			break
		}
		b.WriteString(s[:at])
		s = s[at:]
		end := authorityEnd(s)
		if k := strings.LastIndexByte(s[:end], '@'); k >= 0 {
			s = s[k+1:]
		}
	}
	b.WriteString(s)
	return b.String()
}

// authority returns the index just past the first "://" (or its
// JSON-escaped form ":\/\/") of s that follows a scheme other than sim,
// or -1 when there is none.
func authority(s string) int {
	off := 0
	for {
		i, n := sep(s[off:])
		if i < 0 {
			return -1
		}
		i += off
		if !strings.EqualFold(scheme(s[:i]), "sim") {
			return i + n
		}
		off = i + n
	}
}

// sep finds the first "://" or ":\/\/" of s: its index and length.
func sep(s string) (int, int) {
	i, j := strings.Index(s, "://"), strings.Index(s, `:\/\/`)
	switch {
	case i < 0 && j < 0:
		return -1, 0
	case j < 0 || (i >= 0 && i < j):
		return i, 3
	}
	return j, 5
}

// scheme is the URL scheme that ends s: its trailing letters, digits,
// '+', '-' and '.'.
func scheme(s string) string {
	i := len(s)
	for i > 0 && isSchemeByte(s[i-1]) {
		i--
	}
	return s[i:]
}

func isSchemeByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
}

// authorityEnd is the length of the authority at the start of s: up to
// the path, query, fragment, an escape, a space or a quote. A comma does
// not end it (a password may hold one); the next URL of a list does, at
// its own "//".
func authorityEnd(s string) int {
	if i := strings.IndexAny(s, "/\\?#\"'`<> \t\r\n"); i >= 0 {
		return i
	}
	return len(s)
}
