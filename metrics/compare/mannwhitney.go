package compare

import (
	"math"
	"slices"
)

// MannWhitney is the two-sided Mann–Whitney U test (Wilcoxon rank-sum) of
// sample x against sample y: u is the U statistic of x and p the p-value
// of the hypothesis that neither sample tends to be larger than the
// other, from the normal approximation with tie and continuity
// corrections. With N = n₁ + n₂ values ranked together, tied values
// sharing their mean rank, R₁ the rank sum of x and t_j the sizes of the
// groups of tied values:
//
//	U  = R₁ − n₁(n₁+1)/2
//	μ  = n₁n₂/2
//	σ² = n₁n₂/12 · ((N+1) − Σ_j (t_j³ − t_j) / (N(N−1)))
//	z  = max(|U − μ| − ½, 0) / σ
//	p  = 2(1 − Φ(z)) = erfc(z/√2)
//
// U/(n₁n₂) estimates P(X > Y) + ½P(X = Y). When every value is tied
// (σ = 0) p is 1. ok is false when either sample is empty. The
// approximation is good from about eight values a side; below that it
// is rough (3 against 3 with no overlap gives 0.081, the exact 0.1).
// NaN values are left out; x and y are not modified.
func MannWhitney(x, y []float64) (u, p float64, ok bool) {
	xs := slices.DeleteFunc(slices.Clone(x), math.IsNaN)
	ys := slices.DeleteFunc(slices.Clone(y), math.IsNaN)
	slices.Sort(xs)
	slices.Sort(ys)
	return rankTest(xs, ys)
}

// rankTest is MannWhitney on sorted samples free of NaN.
func rankTest(xs, ys []float64) (u, p float64, ok bool) {
	u, sigma := rankSum(xs, ys)
	if len(xs) == 0 || len(ys) == 0 {
		return 0, 0, false
	}
	mu := float64(len(xs)) * float64(len(ys)) / 2
	if sigma == 0 {
		return u, 1, true
	}
	z := max(math.Abs(u-mu)-0.5, 0) / sigma
	return u, math.Erfc(z / math.Sqrt2), true
}

// rankSum merges sorted xs and ys, ranking their values together (mean
// ranks for ties), and returns U of xs and the tie-corrected standard
// deviation σ of U under the null hypothesis (see MannWhitney).
func rankSum(xs, ys []float64) (u, sigma float64) {
	n1, n2 := float64(len(xs)), float64(len(ys))
	n := n1 + n2
	if n1 == 0 || n2 == 0 {
		return 0, 0
	}
	var r1, ties, below float64 // rank sum of xs, Σ(t³−t), values ranked so far
	i, j := 0, 0
	for i < len(xs) || j < len(ys) {
		v := math.Inf(1)
		if i < len(xs) {
			v = xs[i]
		}
		if j < len(ys) {
			v = min(v, ys[j])
		}
		cx, cy := 0, 0
		for ; i < len(xs) && xs[i] == v; i++ {
			cx++
		}
		for ; j < len(ys) && ys[j] == v; j++ {
			cy++
		}
		// The t tied values take ranks below+1 … below+t, mean below + (t+1)/2.
		t := float64(cx + cy)
		r1 += float64(cx) * (below + (t+1)/2)
		ties += t*t*t - t
		below += t
	}
	u = r1 - n1*(n1+1)/2
	v := n1 * n2 / 12 * ((n + 1) - ties/(n*(n-1)))
	return u, math.Sqrt(max(v, 0))
}
