package dist

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// SyntaxError reports where Parse failed: the 1-based column (in runes) and
// what was expected there, or the error building the distribution that
// starts at that column.
type SyntaxError struct {
	Column int
	Err    error
}

// Error prints "column N: what went wrong".
func (e *SyntaxError) Error() string { return fmt.Sprintf("column %d: %v", e.Column, e.Err) }

// Unwrap returns the underlying error.
func (e *SyntaxError) Unwrap() error { return e.Err }

// maxDepth bounds the nesting of mixtures Parse accepts.
const maxDepth = 32

// Parse reads the compact syntax String prints:
//
//	512                                          fixed(value=512)
//	lognormal(median=1000, sigma=0.8, max=16k)   any kind of New, with its parameters
//	empirical(values=[100 200 400], weights=[1 2 1])
//	empirical(p=[0 0.5 1], x=[10 200 4000])
//	mixture(0.7*lognormal(median=300,sigma=0.5), 0.3*normal(mean=8000,sd=1000), max=16k)
//
// Numbers are decimal floats with an optional suffix k (×1e3) or M (×1e6).
// Empirical and mixture accept min and max after their other arguments,
// which apply Clamp. Spaces may surround any token. Errors are *SyntaxError.
func Parse(s string) (Dist, error) {
	p := &parser{s: s}
	d, err := p.dist(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos < len(p.s) {
		return nil, p.errorf(p.pos, "expected end of input, found %s", p.found())
	}
	return d, nil
}

// dist reads a number (fixed) or kind(args).
func (p *parser) dist(depth int) (Dist, error) {
	p.space()
	start := p.pos
	if depth > maxDepth {
		return nil, p.errorf(start, "mixtures nested deeper than %d", maxDepth)
	}
	if isNumStart(p.peek()) {
		v, err := p.number()
		if err != nil {
			return nil, err
		}
		return New("fixed", Params{"value": v})
	}
	kind, err := p.ident("a number or a distribution name")
	if err != nil {
		return nil, err
	}
	if _, ok := ParamNames(kind); !ok {
		return nil, p.errorf(start, "unknown distribution %q; expected a number or one of %s, empirical, mixture",
			kind, strings.Join(Kinds(), ", "))
	}
	p.space()
	if err := p.expect('(', strconv.Quote(kind)); err != nil {
		return nil, err
	}
	switch kind {
	case "empirical":
		return p.empirical(start)
	case "mixture":
		return p.mixture(start, depth)
	}
	return p.call(kind, start)
}

// call reads "key=value, ...)" for a kind New builds.
func (p *parser) call(kind string, start int) (Dist, error) {
	params := Params{}
	err := p.args(kind, func(key string) error {
		v, err := p.number()
		params[key] = v
		return err
	})
	if err != nil {
		return nil, err
	}
	d, err := New(kind, params)
	if err != nil {
		return nil, p.wrap(start, err)
	}
	return d, nil
}

// args reads "key=value, ...)" up to the closing parenthesis, checking each
// key against kind and calling value to read what follows "=".
func (p *parser) args(kind string, value func(key string) error) error {
	allowed, _ := ParamNames(kind)
	var seen []string
	p.space()
	if p.accept(')') {
		return nil
	}
	for {
		p.space()
		at := p.pos
		key, err := p.ident("a parameter name")
		if err != nil {
			return err
		}
		if !slices.Contains(allowed, key) {
			return p.errorf(at, "unknown parameter %q for %s; expected one of %s", key, kind, strings.Join(allowed, ", "))
		}
		if slices.Contains(seen, key) {
			return p.errorf(at, "duplicate parameter %q", key)
		}
		seen = append(seen, key)
		p.space()
		if err := p.expect('=', strconv.Quote(key)); err != nil {
			return err
		}
		p.space()
		if err := value(key); err != nil {
			return err
		}
		if done, err := p.next(); done || err != nil {
			return err
		}
	}
}

// next reads "," (more to come) or ")" (done) after an argument.
func (p *parser) next() (done bool, err error) {
	p.space()
	switch {
	case p.accept(','):
		return false, nil
	case p.accept(')'):
		return true, nil
	}
	return false, p.errorf(p.pos, `expected "," or ")", found %s`, p.found())
}

// empirical reads the arguments of empirical(...): values and optional
// weights, or p and x; then optional min and max.
func (p *parser) empirical(start int) (Dist, error) {
	arrays := map[string][]float64{}
	bounds := Params{}
	err := p.args("empirical", func(key string) error {
		var err error
		if key == "min" || key == "max" {
			bounds[key], err = p.number()
		} else {
			arrays[key], err = p.array()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	var d Dist
	_, hasValues := arrays["values"]
	_, hasP := arrays["p"]
	_, hasX := arrays["x"]
	_, hasWeights := arrays["weights"]
	switch {
	case hasValues && !hasP && !hasX:
		d, err = NewEmpirical(arrays["values"], arrays["weights"])
	case hasP && hasX && !hasValues && !hasWeights:
		d, err = NewQuantiles(arrays["p"], arrays["x"])
	default:
		err = errors.New("empirical: needs values (and optional weights), or p and x")
	}
	if err == nil {
		d, err = clampBounds("empirical", d, bounds)
	}
	if err != nil {
		return nil, p.wrap(start, err)
	}
	return d, nil
}

// mixture reads the arguments of mixture(...): weight*dist components, then
// optional min and max.
func (p *parser) mixture(start, depth int) (Dist, error) {
	var weights []float64
	var comps []Dist
	bounds := Params{}
	for {
		p.space()
		at := p.pos
		if isLetter(p.peek()) {
			if err := p.bound(at, bounds); err != nil {
				return nil, err
			}
		} else {
			w, err := p.number()
			if err != nil {
				return nil, err
			}
			p.space()
			if err := p.expect('*', "a mixture weight"); err != nil {
				return nil, err
			}
			c, err := p.dist(depth + 1)
			if err != nil {
				return nil, err
			}
			weights, comps = append(weights, w), append(comps, c)
		}
		if done, err := p.next(); err != nil {
			return nil, err
		} else if done {
			break
		}
	}
	d, err := NewMixture(weights, comps)
	if err == nil {
		d, err = clampBounds("mixture", d, bounds)
	}
	if err != nil {
		return nil, p.wrap(start, err)
	}
	return d, nil
}

// bound reads "min=v" or "max=v" among a mixture's arguments into bounds.
func (p *parser) bound(at int, bounds Params) error {
	key, err := p.ident("min or max")
	if err != nil {
		return err
	}
	if key != "min" && key != "max" {
		return p.errorf(at, "unknown parameter %q for mixture; expected weight*distribution, min or max", key)
	}
	if _, dup := bounds[key]; dup {
		return p.errorf(at, "duplicate parameter %q", key)
	}
	p.space()
	if err := p.expect('=', strconv.Quote(key)); err != nil {
		return err
	}
	p.space()
	bounds[key], err = p.number()
	return err
}
