package dist

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestRoundTrip checks, for every fixture, that String prints the canonical
// form, that Parse reads it back to the same String (a fixed point), and
// that the re-parsed distribution samples identically for a seed.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	for _, f := range fixtures() {
		d := mustBuild(t, f)
		if got := d.String(); got != f.str {
			t.Errorf("String() = %q, want %q", got, f.str)
			continue
		}
		back, err := Parse(d.String())
		if err != nil {
			t.Errorf("Parse(%q): %v", d.String(), err)
			continue
		}
		if back.String() != f.str {
			t.Errorf("Parse(%q).String() = %q", f.str, back.String())
		}
		if a, b := draw(d, 200, 9), draw(back, 200, 9); !slices.Equal(a, b) {
			t.Errorf("%s: re-parsed distribution samples differently", f.str)
		}
	}
}

func TestParseCanonical(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		reason   string
	}{
		{" lognormal( median = 1k , sigma=0.8,\tmax = 16k ) ", "lognormal(median=1000,sigma=0.8,max=16000)", "blanks anywhere, k suffix"},
		{"lognormal(max=16000,sigma=0.8,median=1000)", "lognormal(median=1000,sigma=0.8,max=16000)", "canonical parameter order"},
		{"512", "fixed(value=512)", "bare number"},
		{"1.5M", "fixed(value=1.5e+06)", "M suffix is decimal"},
		{"1.1k", "fixed(value=1100)", "suffix scales the decimal exponent exactly"},
		{"2.5e-1k", "fixed(value=250)", "exponent and suffix"},
		{"1e-9223372036854775808", "fixed(value=0)", "underflow is 0"},
		{"-.5", "fixed(value=-0.5)", "sign and leading dot"},
		{"+3", "fixed(value=3)", "plus sign"},
		{"lognormal(median=0.3333333333333333,sigma=1e-300)", "lognormal(median=0.3333333333333333,sigma=1e-300)", "every digit of the shortest round-trip form"},
		{"empirical(values=[123456789.123 5e-324])", "empirical(values=[1.23456789123e+08 5e-324])", "large and subnormal"},
		{"uniform(max=2,min=1)", "uniform(min=1,max=2)", "uniform's min and max are its support"},
		{"normal(min=0, mean=5, sd=2)", "normal(mean=5,sd=2,min=0)", "truncation bound"},
		{"empirical(values=[1,2, 3])", "empirical(values=[1 2 3])", "commas in arrays"},
		{"empirical( weights=[1 1], values=[ 5 6 ] )", "empirical(values=[5 6],weights=[1 1])", "weights first"},
		{"empirical(max=900, x=[1 1k], p=[0 1])", "empirical(p=[0 1],x=[1 1000],max=900)", "clamped quantile table"},
		{"mixture(7*fixed(value=1), 3*2)", "mixture(7*fixed(value=1),3*fixed(value=2))", "bare number component, weights kept as given"},
		{"mixture(max=5, 1 * exponential(mean=2))", "mixture(1*exponential(mean=2),max=5)", "bounds printed last"},
		{"mixture(1*mixture(1*fixed(value=1),2*fixed(value=2),min=1.5),1*fixed(value=3))",
			"mixture(1*mixture(1*fixed(value=1),2*fixed(value=2),min=1.5),1*fixed(value=3))", "nested, clamped mixture"},
	}
	for _, tt := range tests {
		d, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v (%s)", tt.in, err, tt.reason)
			continue
		}
		if d.String() != tt.want {
			t.Errorf("Parse(%q).String() = %q, want %q (%s)", tt.in, d.String(), tt.want, tt.reason)
		}
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("mixture(1*", 40) + "1" + strings.Repeat(")", 40)
	tests := []struct {
		in     string
		col    int
		want   string
		reason string
	}{
		{"", 1, "expected a number or a distribution name, found end of input", "empty"},
		{"lognormal", 10, `expected '(' after "lognormal", found end of input`, "no arguments"},
		{"lognormal(median=1000", 22, `expected "," or ")", found end of input`, "unclosed"},
		{"lognormal(median 1000)", 18, `expected '=' after "median", found '1'`, "missing ="},
		{"lognormal(median=abc)", 18, "expected a number, found 'a'", "not a number"},
		{"lognormal(median=1,,sigma=2)", 20, "expected a parameter name, found ','", "double comma"},
		{"lognormal(medain=1,sigma=1)", 11, `unknown parameter "medain" for lognormal; expected one of cv, max, mean, median, min, mu, sigma`, "misspelt"},
		{"lognormal(median=1,median=2)", 20, `duplicate parameter "median"`, "duplicate"},
		{"lognormal(median=1000, sigma=-1)", 1, "lognormal: sigma must be > 0, got -1", "bad value, reported at the kind"},
		{"lognormal(median=1000)", 1, "lognormal: needs median and sigma", "missing parameter"},
		{"lognormal(median=1k,sigma=1,min=5,max=3)", 1, "lognormal: min (5) must be <= max (3)", "min > max"},
		{"foo(x=1)", 1, `unknown distribution "foo"`, "unknown kind"},
		{"512 x", 5, "expected end of input, found 'x'", "trailing text"},
		{"1.2.3", 4, "expected end of input, found '.'", "two dots"},
		{"2e", 2, "expected end of input, found 'e'", "empty exponent"},
		{"16kb", 4, "expected end of input, found 'b'", "unknown suffix"},
		{"1e999", 1, `number "1e999" out of range`, "overflow"},
		{"1e99999999999999999999", 1, "exponent out of range", "exponent overflow"},
		{"1e9223372036854775807k", 1, "out of range", "the suffix does not wrap the exponent round"},
		{"-", 1, `expected digits in number "-"`, "sign alone"},
		{"é", 1, "found 'é'", "non-ASCII"},
		{"1 é", 3, "expected end of input, found 'é'", "columns count runes"},
		{"empirical(values=[1 2x])", 22, `expected a blank, "," or "]" after a number, found 'x'`, "junk in array"},
		{"empirical(values=1)", 18, `expected '[' after "=", found '1'`, "array expected"},
		{"empirical(values=[1 2],p=[0 1])", 1, "empirical: needs values (and optional weights), or p and x", "both forms"},
		{"empirical(weights=[1])", 1, "empirical: needs values", "weights alone"},
		{"empirical(values=[])", 1, "empirical: needs at least one value", "empty"},
		{"empirical(p=[0 0.5],x=[1 2])", 1, "empirical: p must run from 0 to 1", "p not ending at 1"},
		{"empirical(values=[1 2],min=3,max=1)", 1, "empirical: min (3) must be <= max (1)", "bad clamp"},
		{"mixture(0.5 fixed(value=1))", 13, `expected '*' after a mixture weight, found 'f'`, "missing *"},
		{"mixture(0.5*fixed(value=1),foo=2)", 28, `unknown parameter "foo" for mixture`, "unknown parameter"},
		{"mixture(1*fixed(value=1),max=2,max=3)", 32, `duplicate parameter "max"`, "duplicate bound"},
		{"mixture()", 9, "expected a number, found ')'", "no components"},
		{"mixture(0*fixed(value=1))", 1, "mixture: weight 1 must be finite and > 0, got 0", "zero weight"},
		{"mixture(max=3)", 1, "mixture: needs at least one component", "bounds only"},
		{deep, 331, "mixtures nested deeper than 32", "nesting bound"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want a *SyntaxError (%s)", tt.in, err, tt.reason)
			continue
		}
		if se.Column != tt.col || !strings.Contains(se.Error(), tt.want) {
			t.Errorf("Parse(%q) = %q, want column %d and %q (%s)", tt.in, se.Error(), tt.col, tt.want, tt.reason)
		}
	}
}

// FuzzParse checks that Parse never panics and that whatever it accepts
// prints a String that parses back to the same String.
func FuzzParse(f *testing.F) {
	for _, fx := range fixtures() {
		f.Add(fx.str)
	}
	for _, s := range []string{"16k", "1.5M", " lognormal( median = 1k , sigma=0.8 )", "empirical(values=[1,2, 3])",
		"mixture(max=5, 1 * exponential(mean=2))", "mixture(1*mixture(1*fixed(value=1),min=0),2*3)", "-0", "1e-320"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse(s)
		if err != nil {
			return
		}
		out := d.String()
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(%q) printed %q, which does not parse: %v", s, out, err)
		}
		if back.String() != out {
			t.Fatalf("Parse(%q) printed %q, which re-prints as %q", s, out, back.String())
		}
	})
}
