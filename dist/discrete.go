package dist

import (
	"fmt"
	"math"
	"math/rand/v2"
)

var _ model = (*zipf)(nil)

// zipfMaxN bounds zipf's n: its CDF table takes 8n bytes.
const zipfMaxN = 1_000_000

// table is a discrete distribution on the sorted values xs, or on 1..n when
// xs is nil, with cumulative probabilities cum (cum[len-1] == 1 exactly).
// It samples by binary search of a uniform draw in cum.
type table struct {
	xs   []float64
	cum  []float64
	mean float64
}

// newTable builds a table from sorted distinct values (nil for 1..n) and
// their positive weights.
func newTable(xs, w []float64) table {
	t := table{xs: xs, cum: make([]float64, len(w))}
	total := 0.0
	for _, wi := range w {
		total += wi
	}
	acc := 0.0
	for i, wi := range w {
		acc += wi
		t.cum[i] = acc / total
		t.mean += t.value(i) * wi / total
	}
	t.cum[len(w)-1] = 1
	return t
}

// value returns the i-th support point.
func (t *table) value(i int) float64 {
	if t.xs == nil {
		return float64(i + 1)
	}
	return t.xs[i]
}

// prob returns the probability of the i-th support point.
func (t *table) prob(i int) float64 {
	if i == 0 {
		return t.cum[0]
	}
	return t.cum[i] - t.cum[i-1]
}

// Sample picks index i with cum[i-1] <= u < cum[i] for u uniform on [0, 1).
func (t *table) Sample(r *rand.Rand) float64 {
	return t.value(min(upperBound(t.cum, r.Float64()), len(t.cum)-1))
}

func (t *table) Mean() float64 { return t.mean }

// count returns how many support points are <= x.
func (t *table) count(x float64) int {
	if t.xs == nil {
		return int(min(max(math.Floor(x), 0), float64(len(t.cum))))
	}
	return upperBound(t.xs, x)
}

func (t *table) CDF(x float64) float64 {
	if i := t.count(x); i > 0 {
		return t.cum[i-1]
	}
	return 0
}

// Quantile returns the first support point whose cumulative probability
// reaches p.
func (t *table) Quantile(p float64) float64 {
	if !validP(p) {
		return math.NaN()
	}
	return t.value(min(lowerBound(t.cum, p), len(t.cum)-1))
}

// partialMean is Σ_{x_i <= x} x_i P(x_i).
func (t *table) partialMean(x float64) float64 {
	s := 0.0
	for i := range t.count(x) {
		s += t.value(i) * t.prob(i)
	}
	return s
}

// upperBound returns the first index i with a[i] > v (len(a) if none), for
// sorted a.
func upperBound(a []float64, v float64) int {
	lo, hi := 0, len(a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if a[m] > v {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// lowerBound returns the first index i with a[i] >= v (len(a) if none), for
// sorted a.
func lowerBound(a []float64, v float64) int {
	lo, hi := 0, len(a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if a[m] >= v {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// zipf is discrete on 1..n with P(k) = k^{-s} / H(n, s), where
// H(n, s) = Σ_{j=1}^{n} j^{-s}. Because n is finite any s > 0 is allowed.
type zipf struct {
	named
	table
}

func buildZipf(_ int, v []float64, n named) (model, error) {
	if err := positives("zipf", n.keys, v); err != nil {
		return nil, err
	}
	s, size := v[0], v[1]
	if size != math.Trunc(size) || size > zipfMaxN {
		return nil, fmt.Errorf("zipf: n must be a whole number from 1 to %d, got %s", zipfMaxN, fmtNum(size))
	}
	w := make([]float64, int(size))
	for k := range w {
		w[k] = math.Pow(float64(k+1), -s)
	}
	return &zipf{n, newTable(nil, w)}, nil
}

func (d *zipf) String() string { return callString(d) }
