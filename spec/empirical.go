package spec

import (
	"math"

	"github.com/goccy/go-yaml/ast"

	"surge/dist"
)

// The two distribution kinds with keys of their own: empirical, from values
// or quantiles, and mixture, from weighted components.

// numbers reads a list of numbers.
func (d *decoder) numbers(o *object, key string) ([]float64, bool) {
	n, path, ok := o.get(key)
	if !ok {
		return nil, true
	}
	items, ok := d.list(n, path)
	if !ok {
		return nil, false
	}
	out := make([]float64, len(items))
	good := true
	for i, item := range items {
		read := d.number
		if key == "values" || key == "x" {
			read = d.quantity
		}
		x, ok := read(item, index(path, i))
		out[i], good = x, good && ok
	}
	return out, good
}

// empirical reads {values, weights} or {p, x}, with optional min and max.
func (d *decoder) empirical(o *object) dist.Dist {
	values, ok1 := d.numbers(o, "values")
	weights, ok2 := d.numbers(o, "weights")
	p, ok3 := d.numbers(o, "p")
	x, ok4 := d.numbers(o, "x")
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return nil
	}
	var dd dist.Dist
	var err error
	switch {
	case o.has("values") && (o.has("p") || o.has("x")):
		d.errorf(o.at("p"), o.path, "values conflicts with p and x: give values (and weights) or quantiles p and x")
		return nil
	case o.has("values"):
		dd, err = dist.NewEmpirical(values, weights)
	case o.has("weights"):
		d.errorf(o.at("weights"), join(o.path, "weights"), "weights need values")
		return nil
	case o.has("p") != o.has("x"):
		d.errorf(o.node, o.path, "quantiles need both p and x")
		return nil
	case o.has("p"):
		dd, err = dist.NewQuantiles(p, x)
	default:
		d.errorf(o.node, o.path, "missing key values (or p and x): empirical lengths, like values: [100, 200]")
		return nil
	}
	if err != nil {
		d.errorf(o.node, o.path, "%v", err)
		return nil
	}
	return d.clamp(o, dd)
}

// mixture reads {components: [{weight, dist, ...}, ...]}, with optional min
// and max over the whole mixture.
func (d *decoder) mixture(o *object, depth int) dist.Dist {
	if depth >= maxMixtureDepth {
		d.errorf(o.node, o.path, "mixtures nest more than %d deep", maxMixtureDepth)
		return nil
	}
	n, path, ok := d.require(o, "components", "a list of {weight, dist, ...}")
	if !ok {
		return nil
	}
	items, ok := d.list(n, path)
	if !ok {
		return nil
	}
	if len(items) == 0 {
		d.errorf(d.value(n, path), path, "needs at least one component")
		return nil
	}
	weights := make([]float64, len(items))
	comps := make([]dist.Dist, len(items))
	good := true
	for i, item := range items {
		weights[i], comps[i] = d.component(item, index(path, i), depth)
		good = good && comps[i] != nil
	}
	if !good {
		return nil
	}
	dd, err := dist.NewMixture(weights, comps)
	if err != nil {
		d.errorf(o.node, o.path, "%v", err)
		return nil
	}
	return d.clamp(o, dd)
}

// component reads one mixture component: a distribution mapping with a
// weight key. A missing weight is 1.
func (d *decoder) component(n ast.Node, path string, depth int) (float64, dist.Dist) {
	v := d.value(n, path)
	m, ok := v.(*ast.MappingNode)
	if !ok {
		if v != nil {
			d.errorf(v, path, "expected a component like {weight: 0.7, dist: lognormal, median: 300, sigma: 0.5}, got %s", describe(v))
		}
		return 0, nil
	}
	w := 1.0
	// The weight is taken out of a copy of the mapping so that the rest reads
	// as an ordinary distribution.
	rest := &ast.MappingNode{BaseNode: m.BaseNode, Start: m.Start, End: m.End, IsFlowStyle: m.IsFlowStyle}
	for _, mv := range m.Values {
		if mv.Key != nil && !mv.Key.IsMergeKey() && scalarText(d.value(mv.Key, path)) == "weight" {
			if x, ok := d.number(mv.Value, join(path, "weight")); ok {
				w = x
				if !(w > 0) {
					d.errorf(d.value(mv.Value, path), join(path, "weight"), "weight must be > 0, got %g", w)
				}
			}
			continue
		}
		rest.Values = append(rest.Values, mv)
	}
	return w, d.distMapping(rest, path, depth+1)
}

// clamp applies the optional min and max keys of o to dd.
func (d *decoder) clamp(o *object, dd dist.Dist) dist.Dist {
	lo, hi := math.Inf(-1), math.Inf(1)
	okLo := !o.has("min") || field(o, "min", d.quantity, &lo)
	okHi := !o.has("max") || field(o, "max", d.quantity, &hi)
	if !okLo || !okHi {
		return nil
	}
	if !o.has("min") && !o.has("max") {
		return dd
	}
	c, err := dist.Clamp(dd, lo, hi)
	if err != nil {
		d.errorf(o.node, o.path, "%v", err)
		return nil
	}
	return c
}
