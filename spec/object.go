package spec

import (
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// object is a YAML mapping read into named keys: the keys written in it, in
// order, then those merged in with "<<: *anchor" that it does not override.
type object struct {
	node ast.Node // the mapping, where "missing key" problems point
	path string
	keys []string
	vals map[string]ast.Node // value of each key
	kpos map[string]ast.Node // the key itself, where conflicts point
}

// maxMergeDepth bounds nested "<<" merges, which may loop through anchors.
const maxMergeDepth = 8

// object reads n as a mapping, reporting duplicate and malformed keys.
func (d *decoder) object(n ast.Node, path string) (*object, bool) {
	v := d.value(n, path)
	if v == nil {
		return nil, false
	}
	m, ok := v.(*ast.MappingNode)
	if !ok {
		d.errorf(v, path, "expected a mapping, got %s", describe(v))
		return nil, false
	}
	o := &object{node: m, path: path, vals: map[string]ast.Node{}, kpos: map[string]ast.Node{}}
	d.fill(o, m, 0)
	return o, true
}

// fill adds m's keys to o. At depth 0 the keys are o's own and a repeat is an
// error; merged keys (depth > 0) only fill keys not yet present.
func (d *decoder) fill(o *object, m *ast.MappingNode, depth int) {
	var merges []*ast.MappingValueNode
	for _, mv := range m.Values {
		if mv.Key != nil && mv.Key.IsMergeKey() {
			merges = append(merges, mv)
			continue
		}
		name, ok := d.keyName(mv.Key, o.path)
		if !ok {
			continue
		}
		if first, dup := o.kpos[name]; dup {
			if depth == 0 {
				line, col := pos(first)
				d.errorf(mv.Key, join(o.path, name), "duplicate key (first at %d:%d)", line, col)
			}
			continue
		}
		o.keys = append(o.keys, name)
		o.vals[name], o.kpos[name] = mv.Value, mv.Key
	}
	for _, mv := range merges {
		d.merge(o, mv, depth)
	}
}

// merge applies one "<<" entry: a mapping or a list of mappings.
func (d *decoder) merge(o *object, mv *ast.MappingValueNode, depth int) {
	path := join(o.path, "<<")
	if depth >= maxMergeDepth {
		d.errorf(mv.Key, path, "merges nest too deeply (is an anchor merged into itself?)")
		return
	}
	v := d.value(mv.Value, path)
	var srcs []ast.Node
	if seq, ok := v.(*ast.SequenceNode); ok {
		srcs = seq.Values
	} else if v != nil {
		srcs = []ast.Node{v}
	}
	for _, s := range srcs {
		sv := d.value(s, path)
		if m, ok := sv.(*ast.MappingNode); ok {
			d.fill(o, m, depth+1)
		} else if sv != nil {
			d.errorf(sv, path, "<< merges a mapping or a list of mappings, got %s", describe(sv))
		}
	}
}

// keyName returns the text of a mapping key.
func (d *decoder) keyName(k ast.MapKeyNode, path string) (string, bool) {
	var n ast.Node = k
	if mk, ok := k.(*ast.MappingKeyNode); ok {
		n = mk.Value
	}
	n = d.value(n, path)
	if n == nil {
		return "", false
	}
	switch n.(type) {
	case *ast.MappingNode, *ast.SequenceNode, *ast.NullNode:
		d.errorf(n, path, "expected a key name, got %s", describe(n))
		return "", false
	}
	return scalarText(n), true
}

// get returns the value of key and its path.
func (o *object) get(key string) (ast.Node, string, bool) {
	n, ok := o.vals[key]
	return n, join(o.path, key), ok
}

// has reports whether key is present.
func (o *object) has(key string) bool {
	_, ok := o.vals[key]
	return ok
}

// at returns where to point for a problem about key: the key if present,
// else the mapping.
func (o *object) at(key string) ast.Node {
	if k, ok := o.kpos[key]; ok {
		return k
	}
	return o.node
}

// known reports every key of o not in valid. Keys starting with "x-" are
// free for the user (anchors for reuse, notes) and never reported.
func (d *decoder) known(o *object, valid []string, place string) {
	for _, k := range o.keys {
		if slices.Contains(valid, k) || strings.HasPrefix(k, "x-") {
			continue
		}
		d.errorf(o.kpos[k], join(o.path, k), "%s", unknownKeyMsg(k, valid, place))
	}
}

// require reports a missing key at o's position, with a hint of what to
// write; it returns the value and its path when present.
func (d *decoder) require(o *object, key, hint string) (ast.Node, string, bool) {
	n, path, ok := o.get(key)
	if !ok {
		d.errorf(o.node, o.path, "missing key %s (%s)", key, hint)
	}
	return n, path, ok
}

// field decodes key with read into *dst and reports whether it was present
// and valid; dst is left alone otherwise.
func field[T any](o *object, key string, read func(ast.Node, string) (T, bool), dst *T) bool {
	n, path, ok := o.get(key)
	if !ok {
		return false
	}
	v, ok := read(n, path)
	if ok {
		*dst = v
	}
	return ok
}

// check reports msg at key's value when bad is true; it returns !bad.
func (d *decoder) check(o *object, key string, bad bool, format string, args ...any) bool {
	if bad {
		n, path, _ := o.get(key)
		d.errorf(d.value(n, path), path, format, args...)
	}
	return !bad
}

// count reads a whole count like 500 or 12k.
func (d *decoder) count(n ast.Node, path string) (int, bool) {
	return parsed(d, n, path, "a count like 500 or 12k", ParseCount)
}

// number reads a real number, k/M/G suffixes allowed.
func (d *decoder) number(n ast.Node, path string) (float64, bool) {
	return parsed(d, n, path, "a number", ParseNumber)
}

// list reads n as a sequence and returns its items.
func (d *decoder) list(n ast.Node, path string) ([]ast.Node, bool) {
	v := d.value(n, path)
	if v == nil {
		return nil, false
	}
	seq, ok := v.(*ast.SequenceNode)
	if !ok {
		d.errorf(v, path, "expected a list, got %s", describe(v))
		return nil, false
	}
	return seq.Values, true
}

// oneOf reads a string that must be one of choices, with a hint otherwise.
func (d *decoder) oneOf(n ast.Node, path, what string, choices []string) (string, bool) {
	s, ok := d.str(n, path)
	if !ok {
		return "", false
	}
	if slices.Contains(choices, s) {
		return s, true
	}
	d.errorf(d.value(n, path), path, "unknown %s %s%s", what, show(s), didYouMean(s, choices))
	return "", false
}
