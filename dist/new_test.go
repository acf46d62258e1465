package dist

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestNewErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind   string
		p      Params
		want   string
		reason string
	}{
		{"logn", Params{}, `unknown distribution kind "logn"`, "unknown kind"},
		{"empirical", Params{}, "empirical: not built by New; use NewEmpirical, NewQuantiles or Parse", "empirical has its own constructors"},
		{"mixture", Params{}, "mixture: not built by New; use NewMixture or Parse", "mixture has its own constructor"},
		{"lognormal", Params{"median": 1000}, "lognormal: needs median and sigma, or mean and cv, or mu and sigma; got median", "missing sigma"},
		{"lognormal", Params{"median": 1000, "sigma": 1, "mean": 5}, "got mean, median, sigma", "conflicting parameterisations"},
		{"gamma", Params{"mean": 1, "cv": 1, "shape": 2}, "gamma: needs mean and cv, or shape and scale; got cv, mean, shape", "conflicting parameterisations"},
		{"exponential", Params{}, "exponential: needs mean, or rate; got none", "no parameters"},
		{"exponential", Params{"max": 4}, "exponential: needs mean, or rate; got none", "clamps alone are not a parameterisation"},
		{"gamma", Params{"mean": 1, "cv": -1}, "gamma: cv must be > 0, got -1", "negative cv"},
		{"lognormal", Params{"mean": 1, "cv": 0}, "lognormal: cv must be > 0, got 0", "zero cv"},
		{"weibull", Params{"mean": 1, "cv": -0.5}, "weibull: cv must be > 0, got -0.5", "negative cv"},
		{"weibull", Params{"mean": 1, "cv": 1e-5}, "weibull: cv must be between", "cv too small to solve the shape for"},
		{"lognormal", Params{"median": 1, "sigma": 1, "min": 5, "max": 3}, "lognormal: min (5) must be <= max (3)", "min > max"},
		{"normal", Params{"mean": 0, "sd": 1, "min": 5, "max": 3}, "normal: min (5) must be <= max (3)", "min > max on a truncation"},
		{"normal", Params{"mean": 0, "sd": 1, "min": 50, "max": 60}, "holds no probability mass", "truncation range far in the tail"},
		{"lognormal", Params{"medain": 1, "sigma": 1}, `lognormal: unknown parameter "medain"; allowed: cv, max, mean, median, min, mu, sigma`, "misspelt parameter"},
		{"uniform", Params{"min": 1, "max": 2, "value": 3}, `uniform: unknown parameter "value"`, "parameter of another kind"},
		{"uniform", Params{"min": 2, "max": 2}, "uniform: max must be > min", "empty support"},
		{"normal", Params{"mean": 0, "sd": 0}, "normal: sd must be > 0, got 0", "zero sd"},
		{"normal", Params{"mean": math.NaN(), "sd": 1}, "normal: mean must be finite, got NaN", "NaN"},
		{"fixed", Params{"value": math.Inf(1)}, "fixed: value must be finite, got +Inf", "infinity"},
		{"pareto", Params{"alpha": 0, "xm": 1}, "pareto: alpha must be > 0, got 0", "zero shape"},
		{"exponential", Params{"rate": -2}, "exponential: rate must be > 0, got -2", "negative rate"},
		{"zipf", Params{"s": 1, "n": 10.5}, "zipf: n must be a whole number from 1 to 1000000, got 10.5", "fractional n"},
		{"zipf", Params{"s": 1, "n": 2e6}, "zipf: n must be a whole number", "table too large"},
		{"zipf", Params{"s": 0, "n": 10}, "zipf: s must be > 0, got 0", "zero exponent"},
	}
	for _, tt := range tests {
		_, err := New(tt.kind, tt.p)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%q, %v) = %v, want error containing %q (%s)", tt.kind, tt.p, err, tt.want, tt.reason)
		}
	}
}

func TestKindsAndParamNames(t *testing.T) {
	t.Parallel()
	kinds := Kinds()
	if !slices.IsSorted(kinds) || len(kinds) != 9 {
		t.Errorf("Kinds() = %v, want 9 sorted names", kinds)
	}
	for _, k := range kinds {
		names, ok := ParamNames(k)
		if !ok || !slices.IsSorted(names) {
			t.Errorf("ParamNames(%q) = %v, %v; want sorted names", k, names, ok)
		}
		if !slices.Contains(names, "min") || !slices.Contains(names, "max") {
			t.Errorf("ParamNames(%q) = %v lacks min or max", k, names)
		}
	}
	if names, _ := ParamNames("weibull"); !slices.Equal(names, []string{"cv", "max", "mean", "min", "scale", "shape"}) {
		t.Errorf("ParamNames(weibull) = %v", names)
	}
	if names, ok := ParamNames("empirical"); !ok || !slices.Contains(names, "weights") {
		t.Errorf("ParamNames(empirical) = %v, %v", names, ok)
	}
	if _, ok := ParamNames("poisson"); ok {
		t.Error("ParamNames(poisson) is ok, want unknown")
	}
}
