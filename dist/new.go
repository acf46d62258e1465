package dist

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Params are the named numeric parameters of a distribution, as written in a
// spec.
type Params map[string]float64

// kindDef describes one kind New builds.
type kindDef struct {
	name string
	// forms are the accepted parameterisations, each listing its parameter
	// names in the order String prints them.
	forms [][]string
	// clamps is false for uniform, whose min and max are its support.
	clamps bool
	// build makes the distribution from forms[form] with values v in that
	// order; n records the parameters for String.
	build func(form int, v []float64, n named) (model, error)
}

// lookupKind returns the definition of a kind New builds.
func lookupKind(kind string) (kindDef, bool) {
	switch kind {
	case "fixed":
		return kindDef{kind, [][]string{{"value"}}, true, buildFixed}, true
	case "uniform":
		return kindDef{kind, [][]string{{"min", "max"}}, false, buildUniform}, true
	case "normal":
		return kindDef{kind, [][]string{{"mean", "sd"}}, true, buildNormal}, true
	case "lognormal":
		forms := [][]string{{"median", "sigma"}, {"mean", "cv"}, {"mu", "sigma"}}
		return kindDef{kind, forms, true, buildLogNormal}, true
	case "gamma":
		return kindDef{kind, [][]string{{"mean", "cv"}, {"shape", "scale"}}, true, buildGamma}, true
	case "weibull":
		return kindDef{kind, [][]string{{"shape", "scale"}, {"mean", "cv"}}, true, buildWeibull}, true
	case "exponential":
		return kindDef{kind, [][]string{{"mean"}, {"rate"}}, true, buildExponential}, true
	case "pareto":
		return kindDef{kind, [][]string{{"alpha", "xm"}}, true, buildPareto}, true
	case "zipf":
		return kindDef{kind, [][]string{{"s", "n"}}, true, buildZipf}, true
	}
	return kindDef{}, false
}

// Kinds lists the kind names New accepts, sorted. The empirical and mixture
// kinds, built by NewEmpirical, NewQuantiles and NewMixture, are not listed.
func Kinds() []string {
	return []string{"exponential", "fixed", "gamma", "lognormal", "normal", "pareto", "uniform", "weibull", "zipf"}
}

// ParamNames lists, sorted, the parameter names a kind accepts, including min
// and max; ok is false for an unknown kind. It also knows the names Parse
// accepts for empirical (values, weights, p, x) and mixture (only min, max:
// its components are positional).
func ParamNames(kind string) (names []string, ok bool) {
	switch kind {
	case "empirical":
		return []string{"max", "min", "p", "values", "weights", "x"}, true
	case "mixture":
		return []string{"max", "min"}, true
	}
	def, ok := lookupKind(kind)
	if !ok {
		return nil, false
	}
	names = []string{"min", "max"}
	for _, f := range def.forms {
		names = append(names, f...)
	}
	slices.Sort(names)
	return slices.Compact(names), true
}

// New builds a distribution of the given kind from its parameters, including
// the optional min and max clamps (for normal, truncation bounds). Every
// parameter must be finite. Errors name the bad parameter and say what is
// allowed, for example
//
//	lognormal: needs median and sigma, or mean and cv, or mu and sigma; got median
func New(kind string, p Params) (Dist, error) {
	def, ok := lookupKind(kind)
	switch {
	case kind == "empirical":
		return nil, errors.New("empirical: not built by New; use NewEmpirical, NewQuantiles or Parse")
	case kind == "mixture":
		return nil, errors.New("mixture: not built by New; use NewMixture or Parse")
	case !ok:
		return nil, fmt.Errorf("unknown distribution kind %q; known: %s", kind, strings.Join(Kinds(), ", "))
	}
	allowed, _ := ParamNames(kind)
	for _, k := range sortedKeys(p) {
		if !slices.Contains(allowed, k) {
			return nil, fmt.Errorf("%s: unknown parameter %q; allowed: %s", kind, k, strings.Join(allowed, ", "))
		}
		if v := p[k]; math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, &ParamError{Kind: kind, Param: k, Msg: "must be finite, got " + fmtNum(v)}
		}
	}
	form, err := matchForm(def, p)
	if err != nil {
		return nil, err
	}
	n := named{name: kind, keys: def.forms[form]}
	for _, k := range n.keys {
		n.vals = append(n.vals, p[k])
	}
	d, err := def.build(form, n.vals, n)
	if err != nil || !def.clamps {
		return d, err
	}
	return clampBounds(kind, d, p)
}

// matchForm returns the index of the parameterisation whose names are
// exactly the given ones (clamps aside).
func matchForm(def kindDef, p Params) (int, error) {
	var got []string
	for _, k := range sortedKeys(p) {
		if !def.clamps || (k != "min" && k != "max") {
			got = append(got, k)
		}
	}
	var want []string
	for i, f := range def.forms {
		if len(f) == len(got) && !slices.ContainsFunc(f, func(k string) bool { return !slices.Contains(got, k) }) {
			return i, nil
		}
		want = append(want, strings.Join(f, " and "))
	}
	gotText := strings.Join(got, ", ")
	if len(got) == 0 {
		gotText = "none"
	}
	return 0, fmt.Errorf("%s: needs %s; got %s", def.name, strings.Join(want, ", or "), gotText)
}

// sortedKeys returns the keys of p in sorted order, for stable errors.
func sortedKeys(p Params) []string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// positive checks that parameter name of kind is > 0.
func positive(kind, name string, v float64) error {
	if v > 0 {
		return nil
	}
	return &ParamError{Kind: kind, Param: name, Msg: "must be > 0, got " + fmtNum(v)}
}

// ParamError is a bad value of one named parameter, so that a caller can
// point at the parameter it came from.
type ParamError struct {
	Kind  string // distribution kind, e.g. "lognormal"
	Param string // parameter name, e.g. "sigma"
	Msg   string // what is wrong, e.g. "must be > 0, got -1"
}

func (e *ParamError) Error() string { return e.Kind + ": " + e.Param + " " + e.Msg }

// positives checks pairs of (name, value) with positive.
func positives(kind string, names []string, v []float64) error {
	for i, name := range names {
		if err := positive(kind, name, v[i]); err != nil {
			return err
		}
	}
	return nil
}
