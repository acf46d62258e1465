package spec

import (
	"slices"

	"github.com/goccy/go-yaml/ast"

	"surge/content"
)

// Weight is one entry of a weighted mix: a name and its weight, > 0.
// Weights need not add up to 1; each entry is drawn with its share of
// their sum.
type Weight struct {
	Name   string
	Weight float64
}

// promptStyles returns the names prompt: accepts: every style of the
// synthesiser.
func promptStyles() []string {
	var out []string
	for _, s := range content.Styles() {
		out = append(out, string(s))
	}
	return out
}

// languages returns the codes language: accepts.
func languages() []string {
	var out []string
	for _, l := range content.Languages() {
		out = append(out, string(l))
	}
	return out
}

// contentMix reads a client's content: a mapping of prompt styles to
// weights, like {code: 0.4, creative: 0.2, analysis: 0.3, translation: 0.1}.
func (d *decoder) contentMix(n ast.Node, path string) []Weight {
	return d.mix(n, path, "prompt style", promptStyles(), false)
}

// languageMix reads a client's language: one code (es) or a mapping of
// codes to weights ({en: 0.7, es: 0.2, zh: 0.1}).
func (d *decoder) languageMix(n ast.Node, path string) []Weight {
	return d.mix(n, path, "language", languages(), true)
}

// mix reads a mapping of names from choices to weights, in the order
// written; with scalar set, a single name stands for a weight of 1.
func (d *decoder) mix(n ast.Node, path, what string, choices []string, scalar bool) []Weight {
	if v := d.value(n, path); scalar && v != nil {
		if _, isMap := v.(*ast.MappingNode); !isMap {
			name, ok := d.oneOf(n, path, what, choices)
			if !ok {
				return nil
			}
			return []Weight{{Name: name, Weight: 1}}
		}
	}
	o, ok := d.object(n, path)
	if !ok {
		return nil
	}
	d.known(o, choices, what+" mix")
	var out []Weight
	for _, k := range o.keys {
		if !slices.Contains(choices, k) {
			continue
		}
		var w float64
		if field(o, k, d.number, &w) && d.check(o, k, w <= 0, "weight of %s must be > 0, got %g", k, w) {
			out = append(out, Weight{Name: k, Weight: w})
		}
	}
	if len(out) == 0 && len(o.keys) == 0 {
		d.errorf(o.node, path, "empty %s mix: give at least one %s and its weight", what, what)
	}
	return out
}
