package metrics

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// standardPercentiles are the percentiles every Metric reports: p50, p90,
// p95, p99 and p99.9, plus those the SLOs name.
var standardPercentiles = [...]float64{50, 90, 95, 99, 99.9}

// Metric describes one latency (or lag) distribution, or one per-session
// figure: its sample size, moments, extremes and percentiles with
// distribution-free confidence intervals. Values are microseconds (Unit
// "us"), microseconds per token ("us/token"), or for session figures
// requests ("requests") or prompt tokens ("tokens").
type Metric struct {
	Name string `json:"name"`
	Unit string `json:"unit"`
	N    int    `json:"n"`
	// Undefined counts requests of the metric's population for which the
	// metric does not exist (see the package documentation per metric).
	Undefined   int          `json:"undefined,omitempty"`
	Mean        float64      `json:"mean"`
	Min         float64      `json:"min"`
	Max         float64      `json:"max"`
	Percentiles []Percentile `json:"percentiles"`
	// Note states a caveat that applies to every number of the metric.
	Note string `json:"note,omitempty"`
	// NotApplicable says why the metric does not exist for the scope at
	// all (NotStreamedReason); its N is then 0 and reports show "n/a".
	NotApplicable string `json:"not_applicable,omitempty"`
}

// Percentile is one nearest-rank percentile with its confidence interval.
type Percentile struct {
	P     float64 `json:"p"`    // in percent: 50, 99.9
	Rank  int     `json:"rank"` // 1-based order statistic: ⌈p/100·n⌉
	Value float64 `json:"value"`
	// CI is nil when no interval exists at the summary's level (n too
	// small; MinN says how many would do) or when the metric's samples are
	// not independent (Metric.Note says so).
	CI   *Interval `json:"ci,omitempty"`
	MinN int       `json:"min_n,omitempty"`
}

// Interval is a distribution-free confidence interval for a percentile:
// the order statistics [x_(LoRank), x_(HiRank)] of the sorted sample.
// Coverage is its exact probability of holding the true percentile of a
// continuous distribution, which is at least the requested level.
type Interval struct {
	Lo       float64 `json:"lo"`
	Hi       float64 `json:"hi"`
	LoRank   int     `json:"lo_rank"`
	HiRank   int     `json:"hi_rank"`
	Coverage float64 `json:"coverage"`
}

// At returns the percentile p of m, if m reports it.
func (m *Metric) At(p float64) (Percentile, bool) {
	for _, q := range m.Percentiles {
		if q.P == p {
			return q, true
		}
	}
	return Percentile{}, false
}

// Rank returns the 1-based nearest-rank index of the p-th percentile in a
// sorted sample of n values: k = ⌈p/100·n⌉, clamped to [1, n]. The
// percentile is x_(k), a value that was actually observed. p is taken to
// three decimals and k computed in integers, so p99.9 of 1000 values is
// exactly x_(999), free of floating-point rounding.
func Rank(p float64, n int) int {
	if n <= 0 {
		return 0
	}
	milli := int64(math.Round(p * 1000)) // p in thousandths of a percent
	k := int((milli*int64(n) + 100_000 - 1) / 100_000)
	return min(max(k, 1), n)
}

// CIRanks returns the 1-based ranks [l, u] of the distribution-free
// confidence interval at level for the p-th percentile (p in percent) of a
// sample of n, and its exact coverage. The number B of observations below
// the true p-quantile ξ is Binomial(n, p/100) with CDF F, and
//
//	P(x_(l) ≤ ξ ≤ x_(u)) = P(l ≤ B ≤ u−1) = F(u−1) − F(l−1),
//
// so l is the largest rank with F(l−1) ≤ α/2 and u the smallest with
// F(u−1) ≥ 1−α/2, where α = 1−level. ok is false when no such ranks exist
// within [1, n]: that needs (1−p)ⁿ ≤ α/2 and pⁿ ≤ α/2 (see MinN).
func CIRanks(p float64, n int, level float64) (l, u int, coverage float64, ok bool) {
	if n <= 0 {
		return 0, 0, 0, false
	}
	b := distuv.Binomial{N: float64(n), P: p / 100}
	half := (1 - level) / 2
	F := func(k int) float64 { return b.CDF(float64(k)) }
	// l = max{k ∈ [0, n] : F(k−1) ≤ α/2}; the predicate holds for a prefix.
	l = sort.Search(n+1, func(k int) bool { return F(k-1) > half }) - 1
	// u = min{k ∈ [1, n+1] : F(k−1) ≥ 1−α/2}; F(n) = 1 always qualifies.
	u = 1 + sort.Search(n+1, func(k int) bool { return F(k) >= 1-half })
	if l < 1 || u > n {
		return 0, 0, 0, false
	}
	return l, u, F(u-1) - F(l-1), true
}

// MinN returns the smallest sample size for which CIRanks finds an
// interval for the p-th percentile at level: the least n with
// max(p, 1−p)ⁿ ≤ α/2, i.e. n ≥ ln(α/2)/ln(max(p, 1−p)).
func MinN(p float64, level float64) int {
	q := max(p/100, 1-p/100)
	if q >= 1 {
		return math.MaxInt
	}
	half := (1 - level) / 2
	n := int(math.Ceil(math.Log(half) / math.Log(q)))
	// Guard the boundary against rounding in the logarithms.
	for n > 1 && math.Pow(q, float64(n-1)) <= half {
		n--
	}
	for math.Pow(q, float64(n)) > half {
		n++
	}
	return n
}

// describe summarises v, which must be sorted. ps are the percentiles to
// report; withCI false omits every interval.
func describe(name, unit string, v []float64, ps []float64, level float64, withCI bool) Metric {
	m := Metric{Name: name, Unit: unit, N: len(v), Percentiles: make([]Percentile, 0, len(ps))}
	if len(v) == 0 {
		return m
	}
	sum := 0.0
	for _, x := range v {
		sum += x
	}
	m.Mean, m.Min, m.Max = sum/float64(len(v)), v[0], v[len(v)-1]
	for _, p := range ps {
		m.Percentiles = append(m.Percentiles, percentile(v, p, level, withCI))
	}
	return m
}

// percentile reads the p-th percentile and its interval from sorted v.
func percentile(v []float64, p, level float64, withCI bool) Percentile {
	k := Rank(p, len(v))
	q := Percentile{P: p, Rank: k, Value: v[k-1]}
	if !withCI {
		return q
	}
	l, u, cov, ok := CIRanks(p, len(v), level)
	if !ok {
		q.MinN = MinN(p, level)
		return q
	}
	q.CI = &Interval{Lo: v[l-1], Hi: v[u-1], LoRank: l, HiRank: u, Coverage: cov}
	return q
}
