package metrics

import (
	"gonum.org/v1/gonum/stat/distuv"
)

// DefaultSLOConfidence is the confidence level of SLO verdicts, MLPerf's.
const DefaultSLOConfidence = 0.99

// Verdicts of an SLO with early stopping (SLOCheck.Verdict).
const (
	VerdictPass = "pass" // holds at the confidence level
	VerdictFail = "fail" // the percentile over all requests is over the bound
	// VerdictShort: within the bound, but too few requests ran for it to
	// hold at the confidence level.
	VerdictShort = "not enough samples"
)

// earlyStop gives the early-stopping verdict on ch, an SLO judged over n
// measured requests, in the manner of MLPerf LoadGen's early stopping.
// For "metric pP ≤ bound", each request either met the bound on its own
// (ch.Met) or not: a failed or dropped request does not. With k = n − Met
// over the bound and q = 1 − P/100 the share the SLO allows over it, the
// SLO
//
//   - fails when the nearest-rank P-th percentile over all n requests,
//     failures counted as infinitely slow, is over the bound:
//     k > n − ⌈P/100·n⌉ (or the successful requests' own percentile is);
//   - passes when seeing k or fewer over the bound would be unlikely were
//     the share over it as large as q, a one-sided binomial test:
//     P(X ≤ k) ≤ 1 − confidence for X ~ Binomial(n, q);
//   - has not enough samples otherwise.
//
// MinN is the fewest requests with k over the bound that pass, and
// NeedMore = MinN − n when positive: with none over a p99 bound at 99%
// confidence, 459 (0.99⁴⁵⁹ ≤ 0.01 < 0.99⁴⁵⁸); with one, 662; with five,
// 1,307. An SLO on the mean has no such test: it passes when the mean is
// within the bound.
func earlyStop(ch *SLOCheck, n int, confidence float64) {
	k := max(n-ch.Met, 0)
	ch.Requests, ch.Exceeded = n, k
	switch {
	case ch.Percentile == 0:
		ch.Verdict = VerdictFail
		if ch.Pass && n > 0 {
			ch.Verdict = VerdictPass
		}
		return
	}
	alpha, q := 1-confidence, 1-ch.Percentile/100
	ch.MinN = MinPassing(k, q, alpha)
	switch {
	case n > 0 && (!ch.Pass || k > n-Rank(ch.Percentile, n)):
		ch.Verdict = VerdictFail
	case n >= ch.MinN:
		ch.Verdict = VerdictPass
	default:
		ch.Verdict, ch.NeedMore = VerdictShort, ch.MinN-n
	}
}

// MinPassing is the fewest requests n for which k of them over a bound
// still show, at significance alpha, that the share over it is below q:
// the least n with P(X ≤ k) ≤ alpha for X ~ Binomial(n, q). The CDF falls
// as n grows, so it doubles an upper bracket and then bisects.
func MinPassing(k int, q, alpha float64) int {
	lo, hi := k, max(2*k, 16)
	for binomialAtMost(k, hi, q) > alpha {
		lo, hi = hi, 2*hi
		if hi > 1<<30 { // a billion requests: past any run, and int on 32 bits
			return hi
		}
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if binomialAtMost(k, mid, q) <= alpha {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// binomialAtMost is P(X ≤ k) for X ~ Binomial(n, q).
func binomialAtMost(k, n int, q float64) float64 {
	return distuv.Binomial{N: float64(n), P: q}.CDF(float64(k))
}
