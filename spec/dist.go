package spec

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"surge/dist"
)

// A length distribution (input, output) is written one of three ways:
//
//	output: 256                                      # fixed
//	input: "lognormal(median=1k, sigma=0.9)"         # compact, dist.Parse
//	input: {dist: lognormal, median: 1k, sigma: 0.9} # mapping
//
// A mapping names its kind with dist and gives the kind's parameters
// (dist.ParamNames), min and max included. Two kinds have their own keys:
//
//	{dist: empirical, values: [100, 200], weights: [1, 3]}
//	{dist: empirical, p: [0, .5, 1], x: [10, 200, 4k]}
//	{dist: mixture, components: [{weight: 0.7, dist: ..., ...}, ...], max: 32k}

// unitless are the distribution parameters that are plain numbers even in
// a distribution of durations: shapes, log-scale parameters, a rate (per
// second), zipf's exponent and count.
var unitless = []string{"sigma", "cv", "shape", "alpha", "mu", "rate", "s", "n"}

// maxMixtureDepth bounds mixtures of mixtures.
const maxMixtureDepth = 4

// lengths reads a required token-length distribution under key.
func (d *decoder) lengths(o *object, key, hint string) dist.Dist {
	n, path, ok := d.require(o, key, hint)
	if !ok {
		return nil
	}
	dd := d.dist(n, path, 0)
	if dd == nil {
		return nil
	}
	// Lengths are rounded and clamped to ≥ 1 when sampled, but a distribution
	// that never reaches 1 is surely a mistake (output: 0, max: 0.5).
	q, ok := dd.(dist.Quantiler)
	switch {
	case !ok:
	case q.Quantile(1) < 1:
		d.errorf(d.value(n, path), path, "%s never reaches 1 token (%s)", key, dd)
		return nil
	case q.Quantile(0) > MaxLength:
		// Samples above MaxLength are clamped to it; one that is always
		// above would make every length MaxLength.
		d.errorf(d.value(n, path), path, "%s is always longer than %d tokens, the longest a prompt or output may be (%s); bring it, or its min, down to at most %d",
			key, MaxLength, dd, MaxLength)
		return nil
	}
	return dd
}

// dist reads a distribution in any of its forms.
func (d *decoder) dist(n ast.Node, path string, depth int) dist.Dist {
	v := d.value(n, path)
	if v == nil {
		return nil
	}
	if m, ok := v.(*ast.MappingNode); ok {
		return d.distMapping(m, path, depth)
	}
	if d.seconds {
		return d.fixedDuration(v, path)
	}
	s, ok := d.scalar(v, path, "a token count like 256, a distribution like lognormal(median=1k,sigma=0.9), or a mapping with dist")
	if !ok {
		return nil
	}
	if strings.Contains(s, "(") {
		return d.compact(v, path, s)
	}
	if c, err := ParseCount(s); err == nil {
		return d.build(&object{node: v}, path, "fixed", dist.Params{"value": float64(c)})
	}
	if slices.Contains(distKinds(), s) {
		d.errorf(v, path, "%s needs parameters, like %s(...) or {dist: %s, ...}", s, s, s)
		return nil
	}
	d.errorf(v, path, "expected a token count like 256, a distribution like lognormal(median=1k,sigma=0.9), or a mapping with dist, got %s", show(s))
	return nil
}

// compact reads the compact syntax with dist.Parse.
func (d *decoder) compact(n ast.Node, path, s string) dist.Dist {
	dd, err := dist.Parse(s)
	var se *dist.SyntaxError
	switch {
	case errors.As(err, &se):
		line, col := pos(n)
		e := &Error{File: d.file, Line: line, Col: col, Path: path, Msg: se.Err.Error()}
		// Point at the column dist.Parse names when the text sits on one line
		// exactly as written (plain or quoted without escapes).
		if tk := n.GetToken(); tk != nil && tk.Value == s && !strings.ContainsAny(tk.Origin, "\\\n") {
			switch tk.Type {
			case token.SingleQuoteType, token.DoubleQuoteType:
				e.Col += se.Column
			default:
				e.Col += se.Column - 1
			}
		} else {
			e.Msg = fmt.Sprintf("column %d of the distribution: %v", se.Column, se.Err)
		}
		d.errs = append(d.errs, e)
		return nil
	case err != nil:
		d.errorf(n, path, "%v", err)
		return nil
	}
	return dd
}

// distKinds lists every kind a mapping may name.
func distKinds() []string {
	return slices.Concat(dist.Kinds(), []string{"empirical", "mixture"})
}

// distMapping reads {dist: kind, param: value, ...}.
func (d *decoder) distMapping(m *ast.MappingNode, path string, depth int) dist.Dist {
	o, ok := d.object(m, path)
	if !ok {
		return nil
	}
	kn, kpath, ok := d.require(o, "dist", "the distribution kind: "+strings.Join(distKinds(), ", "))
	if !ok {
		return nil
	}
	kind, ok := d.str(kn, kpath)
	if !ok {
		return nil
	}
	if strings.Contains(kind, "(") {
		// {dist: "lognormal(median=1k,sigma=1)"}, as a mixture component.
		d.known(o, []string{"dist"}, "dist")
		return d.compact(d.value(kn, kpath), kpath, kind)
	}
	if !slices.Contains(distKinds(), kind) {
		d.errorf(d.value(kn, kpath), kpath, "unknown distribution %s%s", show(kind), didYouMean(kind, distKinds()))
		return nil
	}
	names, _ := dist.ParamNames(kind)
	switch kind {
	case "empirical":
		d.known(o, slices.Concat(names, []string{"dist"}), "dist")
		return d.empirical(o)
	case "mixture":
		d.known(o, slices.Concat(names, []string{"dist", "components"}), "dist")
		return d.mixture(o, depth)
	}
	d.known(o, slices.Concat(names, []string{"dist"}), "dist")
	p := dist.Params{}
	good := true
	for _, k := range o.keys {
		if k == "dist" || !slices.Contains(names, k) {
			continue
		}
		var x float64
		read := d.quantity
		if slices.Contains(unitless, k) {
			read = d.number
		}
		if field(o, k, read, &x) {
			p[k] = x
		} else {
			good = false
		}
	}
	if !good || len(d.errsUnder(path)) > 0 {
		return nil
	}
	return d.build(o, path, kind, p)
}

// build calls dist.New, reporting its error at the offending parameter's
// value when the error names one, else at the mapping.
func (d *decoder) build(o *object, path, kind string, p dist.Params) dist.Dist {
	dd, err := dist.New(kind, p)
	if err == nil {
		return dd
	}
	var pe *dist.ParamError
	if errors.As(err, &pe) {
		if v, ok := o.vals[pe.Param]; ok {
			d.errorf(v, path+"."+pe.Param, "%v", err)
			return nil
		}
	}
	d.errorf(o.node, path, "%v", err)
	return nil
}

// errsUnder returns the problems found so far at path or below it.
func (d *decoder) errsUnder(path string) Errors {
	var out Errors
	for _, e := range d.errs {
		if e.Path == path || strings.HasPrefix(e.Path, path+".") || strings.HasPrefix(e.Path, path+"[") {
			out = append(out, e)
		}
	}
	return out
}

// durations reads an optional distribution of durations under key, such as
// a think time: a duration (fixed), a mapping whose values are durations,
// like {dist: exponential, mean: 10s}, or the compact form with numbers in
// seconds, like exponential(mean=10). Samples are in seconds.
func (d *decoder) durations(o *object, key string) dist.Dist {
	n, path, ok := o.get(key)
	if !ok {
		return nil
	}
	d.seconds = true
	defer func() { d.seconds = false }()
	return d.dist(n, path, 0)
}

// fixedDuration reads a scalar duration distribution: a duration like 5s.
func (d *decoder) fixedDuration(v ast.Node, path string) dist.Dist {
	s, ok := d.scalar(v, path, "a duration like 5s, or a mapping like {dist: exponential, mean: 5s}")
	if !ok {
		return nil
	}
	if strings.Contains(s, "(") {
		return d.compact(v, path, s) // its numbers are seconds
	}
	t, err := ParseDuration(s)
	if err != nil {
		d.errorf(v, path, "%v", err)
		return nil
	}
	return d.build(&object{node: v}, path, "fixed", dist.Params{"value": t.Seconds()})
}

// quantity reads a value of the distribution being read: a number (of
// tokens), or a duration in seconds while a duration distribution is read.
func (d *decoder) quantity(n ast.Node, path string) (float64, bool) {
	if d.seconds {
		t, ok := d.duration(n, path)
		return t.Seconds(), ok
	}
	return d.number(n, path)
}
