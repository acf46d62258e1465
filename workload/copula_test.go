package workload

import (
	"math"
	"slices"
	"testing"

	"surge/fit"
)

// TestCorrelation checks the Gaussian copula over 20,000 requests: the
// Spearman correlation of input and output lengths is the spec's (±0.02),
// and each length keeps its own distribution (medians of the lognormals).
func TestCorrelation(t *testing.T) {
	t.Parallel()
	for _, rho := range []float64{0.6, -0.4} {
		s := parse(t, `version: 1
requests: 20000
clients:
  - name: c
    model: m
    rate: 100/s
    input: {dist: lognormal, median: 1000, sigma: 0.8}
    output: {dist: lognormal, median: 200, sigma: 0.5}
`)
		s.Clients[0].Correlation = rho
		_, ss := generate(t, s, Options{NoText: true})
		var in, out []float64
		for _, se := range ss {
			in = append(in, float64(se.Turns[0].InputTokens))
			out = append(out, float64(se.Turns[0].OutputTokens))
		}
		if got := fit.Spearman(in, out); math.Abs(got-rho) > 0.02 {
			t.Errorf("ρ %g: Spearman %.3f", rho, got)
		}
		slices.Sort(in)
		slices.Sort(out)
		if m := in[len(in)/2]; math.Abs(m-1000) > 30 {
			t.Errorf("ρ %g: input median %g, want 1000", rho, m)
		}
		if m := out[len(out)/2]; math.Abs(m-200) > 6 {
			t.Errorf("ρ %g: output median %g, want 200", rho, m)
		}
	}
}
