package spec

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Error is one problem in a spec, with its position.
type Error struct {
	File      string // the name given to Parse, usually the file path
	Line, Col int    // 1-based position of the offending node
	Path      string // where in the spec, like "clients[0].arrival.cv"; empty for the whole spec
	Msg       string // what is wrong, with a hint when one helps
}

// Error prints the problem as "file:line:col: path: message", leaving out
// the parts that are empty.
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "%d:%d:", e.Line, e.Col)
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Warning prints the problem as a warning, "file:line:col: warning: path:
// message", leaving out the parts that are empty.
func (e *Error) Warning() string {
	w := Error{File: e.File, Line: e.Line, Col: e.Col, Msg: "warning: " + e.Msg}
	if e.Path != "" {
		w.Msg = "warning: " + e.Path + ": " + e.Msg
	}
	return w.Error()
}

// Errors is every problem found in a spec; it implements error.
type Errors []*Error

// Error prints one problem per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the problems, so errors.As finds an *Error.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// sorted orders the problems by position, keeping the order they were found
// in at the same position, and drops exact repeats (one alias used twice can
// report the same node twice).
func (es Errors) sorted() Errors {
	out := slices.Clone(es)
	slices.SortStableFunc(out, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	return slices.CompactFunc(out, func(a, b *Error) bool { return *a == *b })
}
