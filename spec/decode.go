package spec

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// Parse decodes and validates a spec and fills in its defaults; name is used
// in error positions (usually the file path). On any problem it returns a nil
// Spec and Errors holding all of them, sorted by position.
func Parse(name string, data []byte) (*Spec, error) {
	d := &decoder{file: name}
	s := d.spec(data)
	if len(d.errs) > 0 {
		return nil, d.errs.sorted()
	}
	s.Warnings = d.warns.sorted()
	return s, nil
}

// topKeys are the keys of a spec's top level.
var topKeys = []string{
	"version", "name", "seed", "tokenizer", "corpus", "duration", "requests",
	"warmup", "rate", "clients", "slo", "salt",
}

// Built-in tokenizer names.
const (
	O200k  = "o200k_base"
	CL100k = "cl100k_base"
)

// spec decodes a whole document; it returns nil when there is nothing to
// decode (syntax error, empty file, wrong version).
func (d *decoder) spec(data []byte) *Spec {
	root := d.document(data)
	if root == nil {
		return nil
	}
	d.collectAnchors(root)
	o, ok := d.object(root, "")
	if !ok {
		return nil
	}
	if !d.version(o) {
		return nil
	}
	d.known(o, topKeys, "")
	s := &Spec{Version: Version, Seed: 1, Tokenizer: O200k, Salt: SaltRun}
	src := &source{root: o}
	field(o, "name", d.str, &s.Name)
	field(o, "seed", d.seed, &s.Seed)
	field(o, "tokenizer", d.tokenizer, &s.Tokenizer)
	field(o, "corpus", d.str, &s.Corpus)
	if field(o, "duration", d.duration, &s.Duration) {
		d.check(o, "duration", s.Duration == 0, "duration must be > 0")
	}
	if field(o, "requests", d.count, &s.Requests) {
		d.countIn(o, "requests", s.Requests, MaxRequests, "spec.MaxRequests", warnRequests,
			"a trace of gigabytes, which surge run holds in memory; surge gen -o writes it as it goes")
	}
	field(o, "warmup", d.duration, &s.Warmup)
	if field(o, "rate", d.rate, &s.Rate) {
		d.check(o, "rate", s.Rate == 0, "rate must be > 0")
	}
	if n, path, ok := d.require(o, "clients", "a list of clients, each with a name and a model"); ok {
		s.Clients, src.clients = d.clients(n, path)
	}
	field(o, "salt", d.choice("salt", []string{SaltRun, SaltNone}), &s.Salt)
	if n, path, ok := o.get("slo"); ok {
		s.SLO = d.slo(n, path)
	}
	d.validate(s, src)
	return s
}

// yamlError is the part of goccy/go-yaml's errors that carries a position.
type yamlError interface {
	GetToken() *token.Token
	GetMessage() string
}

// document parses data and returns the body of its single YAML document.
func (d *decoder) document(data []byte) ast.Node {
	tks, ok := d.tokens(data)
	if !ok {
		return nil
	}
	f, err := parseYAML(tks)
	if err != nil {
		e := &Error{File: d.file, Line: 1, Col: 1}
		// GetMessage, not Error: goccy's Error() formats the source around
		// the token and has panicked when there is none (goccy/go-yaml#718).
		if ye, ok := err.(yamlError); ok {
			e.Msg = "yaml: " + ye.GetMessage()
			if tk := ye.GetToken(); tk != nil && tk.Position != nil {
				e.Line, e.Col = max(tk.Position.Line, 1), max(tk.Position.Column, 1)
			}
		} else {
			e.Msg = "yaml: " + err.Error()
		}
		d.errs = append(d.errs, e)
		return nil
	}
	var bodies []ast.Node
	for _, doc := range f.Docs {
		if doc == nil {
			continue
		}
		switch doc.Body.(type) {
		case nil, *ast.DirectiveNode, *ast.CommentGroupNode, *ast.CommentNode:
			// %YAML and %TAG lines parse as a document of their own.
		default:
			bodies = append(bodies, doc.Body)
		}
	}
	switch {
	case len(bodies) == 0:
		d.errorf(nil, "", "spec is empty (it needs at least version: 1 and clients)")
		return nil
	case len(bodies) > 1:
		d.errorf(bodies[1], "", "expected one YAML document, found %d", len(bodies))
		return nil
	}
	return bodies[0]
}

// parseYAML runs the goccy/go-yaml parser on the tokens of a spec. That parser has panicked on
// malformed input before (goccy/go-yaml#191, #540, found by fuzzing); a panic
// there is its bug, not ours, so it becomes an error instead of crashing the
// caller. Only the parser call is guarded: a panic in this package's own code
// still crashes, and FuzzParse would catch it.
func parseYAML(tks token.Tokens) (f *ast.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("the YAML parser failed on this input: %v", r)
		}
	}()
	return parser.Parse(tks, 0, parser.AllowDuplicateMapKey())
}

// version checks the version key; false means the rest cannot be read.
func (d *decoder) version(o *object) bool {
	n, path, ok := d.require(o, "version", "add version: 1")
	if !ok {
		return true
	}
	v, ok := d.count(n, path)
	if ok && v != Version {
		d.errorf(d.value(n, path), path, "unsupported version %d (this surge reads version %d)", v, Version)
		return false
	}
	return true
}

// seed reads a seed: a whole number from 0 to 2⁶⁴−1.
func (d *decoder) seed(n ast.Node, path string) (uint64, bool) {
	return parsed(d, n, path, "a seed", func(s string) (uint64, error) {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("expected a whole number from 0 to 18446744073709551615, got %s", show(s))
		}
		return v, nil
	})
}

// tokenizer reads a built-in tokenizer name or a tokenizer.json path. The
// path is not opened here: only the caller touches the file system.
func (d *decoder) tokenizer(n ast.Node, path string) (string, bool) {
	s, ok := d.str(n, path)
	if !ok {
		return "", false
	}
	if s == O200k || s == CL100k || strings.HasSuffix(s, ".json") || strings.ContainsAny(s, `/\`) {
		return s, true
	}
	d.errorf(d.value(n, path), path, "unknown tokenizer %s%s; a Hugging Face tokenizer is given by the path of its tokenizer.json",
		show(s), didYouMean(s, []string{O200k, CL100k}))
	return "", false
}

// source remembers where the parts of a spec were written, for the
// problems found after decoding.
type source struct {
	root    *object
	clients []*clientSource // parallel to Spec.Clients; nil for a client that is not a mapping
}

// clients reads the list of clients.
func (d *decoder) clients(n ast.Node, path string) ([]Client, []*clientSource) {
	items, ok := d.list(n, path)
	if !ok {
		return nil, nil
	}
	if len(items) == 0 {
		d.errorf(d.value(n, path), path, "needs at least one client")
	}
	cs := make([]Client, len(items))
	srcs := make([]*clientSource, len(items))
	for i, item := range items {
		cs[i], srcs[i] = d.client(item, index(path, i))
	}
	return cs, srcs
}
