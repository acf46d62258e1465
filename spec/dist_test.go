package spec

import "testing"

// client wraps a client's input and output lines into a whole spec; the
// input is on line 5 and the output on line 6.
func client(input, output string) string {
	return head + "  - name: a\n    input: " + input + "\n    output: " + output + "\n    model: m\n    rate: 1/s\n"
}

func TestDistForms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		input  string
		want   string // String of the decoded input
	}{
		{"bare count is fixed", "256", "fixed(value=256)"},
		{"count with suffix", "1.5k", "fixed(value=1500)"},
		{"compact syntax", `"lognormal(median=1k, sigma=0.9)"`, "lognormal(median=1000,sigma=0.9)"},
		{"compact syntax, plain scalar", "lognormal(median=1k,sigma=0.9,max=16k)", "lognormal(median=1000,sigma=0.9,max=16000)"},
		{"mapping with k suffixes", "{dist: lognormal, median: 1k, sigma: 0.9, max: 16k}", "lognormal(median=1000,sigma=0.9,max=16000)"},
		{"mapping, another form", "{dist: gamma, mean: 500, cv: 2}", "gamma(mean=500,cv=2)"},
		{"empirical values", "{dist: empirical, values: [100, 200], weights: [1, 3]}", "empirical(values=[100 200],weights=[1 3])"},
		{"empirical values without weights", "{dist: empirical, values: [100, 2k]}", "empirical(values=[100 2000])"},
		{"empirical quantiles", "{dist: empirical, p: [0, .5, 1], x: [10, 200, 4k]}", "empirical(p=[0 0.5 1],x=[10 200 4000])"},
		{"empirical with a clamp", "{dist: empirical, values: [100, 200], max: 150}", "empirical(values=[100 200],max=150)"},
		{"mixture", "{dist: mixture, components: [{weight: 0.7, dist: lognormal, median: 300, sigma: 0.5}, {weight: 0.3, dist: normal, mean: 8k, sd: 1k}], max: 32k}",
			"mixture(0.7*lognormal(median=300,sigma=0.5),0.3*normal(mean=8000,sd=1000),max=32000)"},
		{"mixture with a compact component and a default weight", `{dist: mixture, components: [{dist: "fixed(value=5)"}, {weight: 3, dist: fixed, value: 9}]}`,
			"mixture(1*fixed(value=5),3*fixed(value=9))"},
	}
	for _, tt := range tests {
		s, err := Parse("t.yaml", []byte(client(tt.input, "1")))
		if err != nil {
			t.Errorf("%s: %v", tt.reason, err)
			continue
		}
		if got := s.Clients[0].Input.String(); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.reason, got, tt.want)
		}
	}
}

func TestDistErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		input  string
		wants  []want
	}{
		{"unknown parameter with hint", "{dist: lognormal, mediam: 1k, sigma: 1}",
			[]want{{"5:30: clients[0].input.mediam", `unknown key (did you mean "median"?)`}}},
		{"unknown kind with hint", "{dist: lognormall, median: 1k, sigma: 1}",
			[]want{{"5:19: clients[0].input.dist", `unknown distribution lognormall (did you mean "lognormal"?)`}}},
		{"missing dist key", "{median: 1k, sigma: 1}",
			[]want{{"5:12: clients[0].input", "missing key dist (the distribution kind: "}}},
		{"missing parameter", "{dist: lognormal, median: 1k}",
			[]want{{"5:12: clients[0].input", "lognormal: needs median and sigma, or mean and cv, or mu and sigma; got median"}}},
		{"bad number in a parameter", "{dist: lognormal, median: lots, sigma: 1}",
			[]want{{"5:38: clients[0].input.median", "expected a number like 0.5, 300 or 1.5k, got lots"}}},
		{"compact syntax error points into the string", `"lognormal(median=1k, sigam=0.9)"`,
			[]want{{"5:34: clients[0].input", "sigam"}}},
		{"bare kind", "lognormal",
			[]want{{"5:12: clients[0].input", "lognormal needs parameters, like lognormal(...) or {dist: lognormal, ...}"}}},
		{"not a length", "lots",
			[]want{{"5:12: clients[0].input", "expected a token count like 256, a distribution like lognormal(median=1k,sigma=0.9), or a mapping with dist, got lots"}}},
		{"fractional fixed length", "2.5",
			[]want{{"5:12: clients[0].input", "expected a token count like 256"}}},
		{"zero tokens", "0",
			[]want{{"5:12: clients[0].input", "input never reaches 1 token (fixed(value=0))"}}},
		{"clamped below one token", "{dist: lognormal, median: 1k, sigma: 1, max: 0.5}",
			[]want{{"5:12: clients[0].input", "input never reaches 1 token"}}},
		{"values and quantiles together", "{dist: empirical, values: [1], p: [0, 1], x: [1, 2]}",
			[]want{{"5:43: clients[0].input", "values conflicts with p and x"}}},
		{"weights without values", "{dist: empirical, weights: [1]}",
			[]want{{"5:30: clients[0].input.weights", "weights need values"}}},
		{"p without x", "{dist: empirical, p: [0, 1]}",
			[]want{{"5:12: clients[0].input", "quantiles need both p and x"}}},
		{"empirical with nothing", "{dist: empirical}",
			[]want{{"5:12: clients[0].input", "missing key values (or p and x)"}}},
		{"empirical rejected by package dist", "{dist: empirical, values: [1, 2], weights: [1]}",
			[]want{{"5:12: clients[0].input", "empirical: got 1 weights for 2 values"}}},
		{"bad list item", "{dist: empirical, values: [1, x]}",
			[]want{{"5:42: clients[0].input.values[1]", "expected a number"}}},
		{"mixture without components", "{dist: mixture}",
			[]want{{"5:12: clients[0].input", "missing key components"}}},
		{"mixture with a bad component", "{dist: mixture, components: [{weight: 0, dist: fixed, value: 3}, 7]}",
			[]want{
				{"5:50: clients[0].input.components[0].weight", "weight must be > 0, got 0"},
				{"5:77: clients[0].input.components[1]", "expected a component like"},
			}},
		{"empty mixture", "{dist: mixture, components: []}",
			[]want{{"5:40: clients[0].input.components", "needs at least one component"}}},
		{"min above max", "{dist: empirical, values: [1, 2], min: 5, max: 3}",
			[]want{{"5:12: clients[0].input", "min (5) must be <= max (3)"}}},
	}
	for _, tt := range tests {
		checkErrs(t, tt.reason, client(tt.input, "1"), tt.wants...)
	}
}
