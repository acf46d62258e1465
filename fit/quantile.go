package fit

import (
	"fmt"
	"math"
	"slices"

	"surge/dist"
)

// TableP are the probabilities of the quantile table QuantileTable writes:
// every percentile, and finer in the tails, where lengths and gaps carry
// their caps and bursts. Sampling interpolates linearly between them, so a
// regenerated sample is within about a percentile of the data (a KS
// distance near 0.01, more only at a length many requests share exactly).
var TableP = tableP()

func tableP() []float64 {
	p := []float64{0, 0.001, 0.005}
	for i := 1; i < 100; i++ {
		p = append(p, float64(i)/100)
	}
	return append(p, 0.995, 0.999, 1)
}

// Quantile returns the p-quantile of the sorted sample xs by linear
// interpolation between order statistics (Hyndman–Fan type 7, as R and
// NumPy default): with h = (n−1)·p, Q = x⌊h⌋ + (h − ⌊h⌋)(x⌊h⌋+1 − x⌊h⌋).
func Quantile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	h := float64(len(xs)-1) * p
	i := int(math.Floor(h))
	if i >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	return xs[i] + (h-float64(i))*(xs[i+1]-xs[i])
}

// QuantileTable returns the empirical distribution of samples as a quantile
// table at the probabilities TableP (dist.NewQuantiles, printed as
// "empirical(p=[...],x=[...])"), x rounded to 4 significant digits but never
// out of order. Sampling it interpolates linearly between the tabulated
// quantiles, so it reproduces the data within the table's resolution.
func QuantileTable(samples []float64) (dist.Dist, error) {
	xs := slices.Clone(samples)
	slices.Sort(xs)
	if len(xs) == 0 {
		return nil, fmt.Errorf("building a quantile table: no samples")
	}
	x := make([]float64, len(TableP))
	for i, p := range TableP {
		x[i] = round4(Quantile(xs, p))
		if i > 0 && x[i] < x[i-1] {
			x[i] = x[i-1]
		}
	}
	d, err := dist.NewQuantiles(TableP, x)
	if err != nil {
		return nil, fmt.Errorf("building a quantile table: %w", err)
	}
	return d, nil
}
