package workload

import (
	"math"
	"slices"
	"sort"
	"testing"
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
		if got := spearman(in, out); math.Abs(got-rho) > 0.02 {
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

// spearman is the rank correlation of x and y (ties get their mean rank),
// written here rather than taken from package fit, which imports workload.
func spearman(x, y []float64) float64 {
	rx, ry := ranks(x), ranks(y)
	var mx, my float64
	for i := range rx {
		mx += rx[i]
		my += ry[i]
	}
	n := float64(len(rx))
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range rx {
		dx, dy := rx[i]-mx, ry[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	return sxy / math.Sqrt(sxx*syy)
}

// ranks are the 1-based ranks of v, ties given their mean rank.
func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			r[idx[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return r
}
