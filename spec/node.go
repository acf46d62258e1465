package spec

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// decoder walks a YAML AST into a Spec, collecting every problem with its
// position rather than stopping at the first.
type decoder struct {
	file    string
	errs    Errors
	warns   Errors                 // absurd but legal values, for Spec.Warnings
	anchors map[string][]anchorDef // by name, in document order
	visits  int                    // nodes read so far, counting each alias use
	// seconds is set while a duration distribution (think time) is read:
	// its values are durations, held in seconds.
	seconds bool
}

// maxVisits bounds the nodes a spec may expand to through aliases, against
// "billion laughs" specs (a list of aliases of lists of aliases …).
const maxVisits = 1 << 20

// anchorDef is one definition of an anchor: where it is and what it holds.
type anchorDef struct {
	offset int
	value  ast.Node
}

// errorf records a problem at node n (or at 1:1 when n is nil).
func (d *decoder) errorf(n ast.Node, path, format string, args ...any) {
	line, col := pos(n)
	d.errs = append(d.errs, &Error{File: d.file, Line: line, Col: col, Path: path, Msg: fmt.Sprintf(format, args...)})
}

// pos returns the line and column where n starts: the first key of a block
// mapping (whose own token is its first colon), the token of anything else.
func pos(n ast.Node) (int, int) {
	if m, ok := n.(*ast.MappingNode); ok && !m.IsFlowStyle && len(m.Values) > 0 {
		n = m.Values[0].Key
	}
	if n == nil || n.GetToken() == nil || n.GetToken().Position == nil {
		return 1, 1
	}
	p := n.GetToken().Position
	return max(p.Line, 1), max(p.Column, 1)
}

// tokenAt returns the text and byte offset of n's token, or "" and 0 when
// it has none.
func tokenAt(n ast.Node) (string, int) {
	if n == nil || n.GetToken() == nil {
		return "", 0
	}
	tk := n.GetToken()
	if tk.Position == nil {
		return tk.Value, 0
	}
	return tk.Value, tk.Position.Offset
}

// join appends a key to a path: "clients[0]" + "model".
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// index appends a list index to a path: "stages" + 2 → "stages[2]".
func index(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// collectAnchors records every anchor in the tree, so that aliases resolve
// even when their anchor sits under a key the spec ignores (x-defaults).
func (d *decoder) collectAnchors(root ast.Node) {
	d.anchors = map[string][]anchorDef{}
	ast.Walk(visitor(func(n ast.Node) {
		if a, ok := n.(*ast.AnchorNode); ok && a.Name != nil {
			name, _ := tokenAt(a.Name)
			_, off := tokenAt(a)
			d.anchors[name] = append(d.anchors[name], anchorDef{offset: off, value: a.Value})
		}
	}), root)
}

// visitor adapts a function to ast.Visitor.
type visitor func(ast.Node)

// Visit calls v on n and keeps walking.
func (v visitor) Visit(n ast.Node) ast.Visitor {
	v(n)
	return v
}

// maxAliasHops bounds alias chains, which may loop (&a *a).
const maxAliasHops = 32

// value strips anchors, tags and aliases from n and returns the node that
// holds the data; nil means an unresolvable alias, already reported.
func (d *decoder) value(n ast.Node, path string) ast.Node {
	if d.visits++; d.visits > maxVisits {
		if d.visits == maxVisits+1 {
			d.errorf(n, path, "spec is too large: it holds more than %d values, counting each use of an alias as the values it stands for", maxVisits)
		}
		return nil
	}
	for range maxAliasHops {
		switch v := n.(type) {
		case *ast.AnchorNode:
			n = v.Value
		case *ast.TagNode:
			n = v.Value
		case *ast.AliasNode:
			n = d.alias(v, path)
			if n == nil {
				return nil
			}
		default:
			return n
		}
	}
	d.errorf(n, path, "alias refers to itself")
	return nil
}

// alias returns the value of the latest definition of v's anchor before v.
func (d *decoder) alias(v *ast.AliasNode, path string) ast.Node {
	name := ""
	if v.Value != nil {
		name, _ = tokenAt(v.Value)
	}
	_, at := tokenAt(v)
	var found ast.Node
	for _, def := range d.anchors[name] {
		if def.offset < at {
			found = def.value
		}
	}
	if found == nil {
		d.errorf(v, path, "alias *%s has no anchor &%s before it", name, name)
	}
	return found
}

// describe names the kind of a node for "expected X, got Y" messages.
func describe(n ast.Node) string {
	switch n.(type) {
	case *ast.MappingNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.NullNode, nil:
		return "nothing"
	}
	return show(scalarText(n))
}

// scalarText returns the text of a scalar node as written (without quotes),
// and "" for anything else.
func scalarText(n ast.Node) string {
	switch v := n.(type) {
	case *ast.StringNode:
		return v.Value
	case *ast.LiteralNode:
		if v.Value != nil {
			return v.Value.Value
		}
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return v.GetToken().Value
	}
	return ""
}

// scalar returns the text of n, or reports that want was expected.
func (d *decoder) scalar(n ast.Node, path, want string) (string, bool) {
	n = d.value(n, path)
	if n == nil {
		return "", false
	}
	switch n.(type) {
	case *ast.StringNode, *ast.LiteralNode, *ast.IntegerNode, *ast.FloatNode,
		*ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return strings.TrimSpace(scalarText(n)), true
	}
	d.errorf(n, path, "expected %s, got %s", want, describe(n))
	return "", false
}

// parsed reads a scalar with one of the unit parsers, reporting its error.
func parsed[T any](d *decoder, n ast.Node, path, want string, parse func(string) (T, error)) (T, bool) {
	var zero T
	s, ok := d.scalar(n, path, want)
	if !ok {
		return zero, false
	}
	v, err := parse(s)
	if err != nil {
		d.errorf(d.value(n, path), path, "%v", err)
		return zero, false
	}
	return v, true
}

// str reads a string value.
func (d *decoder) str(n ast.Node, path string) (string, bool) {
	return d.scalar(n, path, "a string")
}

// boolean reads true or false.
func (d *decoder) boolean(n ast.Node, path string) (bool, bool) {
	s, ok := d.scalar(n, path, "true or false")
	if !ok {
		return false, false
	}
	if b, isBool := d.value(n, path).(*ast.BoolNode); isBool {
		return b.Value, true
	}
	hint := ""
	switch strings.ToLower(s) {
	case "yes", "y", "on":
		hint = " (write true)"
	case "no", "n", "off":
		hint = " (write false)"
	}
	d.errorf(d.value(n, path), path, "expected true or false, got %s%s", show(s), hint)
	return false, false
}
