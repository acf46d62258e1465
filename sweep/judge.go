package sweep

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"surge/metrics"
)

// DefaultConfidence is the confidence level of SLO verdicts, MLPerf's.
const DefaultConfidence = 0.99

// Judge gives the early-stopping verdict on each SLO of sc, in the manner
// of MLPerf LoadGen's early stopping. For "metric pP ≤ bound", each of the
// scope's n measured requests either met the bound on its own (see
// metrics.Goodput; Check.Met) or not: a failed or dropped request does not
// meet it. With k requests over the bound and q = 1 − P/100 the share the
// SLO allows over it, the SLO
//
//   - fails when the nearest-rank P-th percentile over all n requests,
//     failures counted as infinitely slow, is over the bound:
//     k > n − ⌈P/100·n⌉;
//   - passes when seeing k or fewer over the bound would be unlikely were
//     the share over it as large as q, a one-sided binomial test:
//     P(X ≤ k) ≤ 1 − confidence for X ~ Binomial(n, q);
//   - is inconclusive otherwise: NeedMore is the fewest further requests,
//     all within the bound, that would make it pass.
//
// With no request over a p99 bound, a pass at 99% confidence needs
// n ≥ 459, since 0.99⁴⁵⁹ ≤ 0.01. An SLO on the mean (P = 0) has no such
// test: it passes when the mean is within the bound. confidence 0 means
// DefaultConfidence. Judge returns nil when sc has no SLO.
func Judge(sc *metrics.Scope, confidence float64) *Verdict {
	if len(sc.SLOs) == 0 {
		return nil
	}
	if confidence <= 0 || confidence >= 1 {
		confidence = DefaultConfidence
	}
	v := &Verdict{Pass: true}
	for _, c := range sc.SLOs {
		ch := judge(c, sc.Requests, 1-confidence)
		v.Pass = v.Pass && ch.Outcome == Pass
		v.Checks = append(v.Checks, ch)
	}
	return v
}

// judge is the verdict on one SLO check over n requests at significance
// alpha.
func judge(c metrics.SLOCheck, n int, alpha float64) Check {
	k := max(n-c.Met, 0)
	ch := Check{SLO: c.SLO, N: n, Exceeded: k, ObservedUS: c.Observed}
	switch {
	case c.Percentile == 0:
		ch.Outcome = outcome(c.Pass && n > 0)
	case n == 0:
		ch.Outcome = Inconclusive
		ch.NeedMore = needed(0, 1-c.Percentile/100, alpha)
	case !c.Pass || k > n-int(math.Ceil(c.Percentile/100*float64(n))):
		ch.Outcome = Fail
	default:
		q := 1 - c.Percentile/100
		if binomCDF(k, n, q) <= alpha {
			ch.Outcome = Pass
		} else {
			ch.Outcome = Inconclusive
			ch.NeedMore = needed(k, q, alpha) - n
		}
	}
	return ch
}

func outcome(pass bool) Outcome {
	if pass {
		return Pass
	}
	return Fail
}

// binomCDF is P(X ≤ k) for X ~ Binomial(n, q).
func binomCDF(k, n int, q float64) float64 {
	return distuv.Binomial{N: float64(n), P: q}.CDF(float64(k))
}

// needed is the fewest requests n for which k over the bound pass:
// binomCDF(k, n, q) ≤ alpha. The CDF falls as n grows, so it doubles
// an upper bracket and then bisects.
func needed(k int, q, alpha float64) int {
	lo, hi := k, max(2*k, 16)
	for binomCDF(k, hi, q) > alpha {
		lo, hi = hi, 2*hi
		if hi > 1<<40 {
			return hi
		}
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if binomCDF(k, mid, q) <= alpha {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}
