// Package compare sets the records of two runs of one workload side by
// side, base and candidate, and says which differences are real, in the
// manner of benchstat. It does no I/O.
//
// Rows. Each latency metric gets four rows, p50, p90, p99 and mean, over
// the successful measured requests (warmup excluded, as in package
// metrics), one value per request:
//
//	ttft, ttfo  TTFTUS, TTFOUS (ttfo only when some request's TTFO
//	            differs from its TTFT: a reasoning model)
//	itl         the request's mean gap between token-bearing events,
//	            Σ gaps / gaps (ITLTail's too): one value per request, not the
//	            pooled gaps of surge report, so that values are
//	            independent as the tests below assume
//	tpot        metrics.TPOT
//	e2e         E2EUS
//	ttft+lag,   the same from the intended send time: + SentUS − IntendedUS
//	ttfo+lag,
//	e2e+lag
//
// Percentiles are nearest-rank, as in package metrics, so a row's base and
// candidate values are those surge report prints (ITL aside). Three more
// rows compare the runs as a whole: request_throughput and
// output_throughput (successful requests and their output tokens per
// second of metrics.Window) and error_rate (failed / sent measured
// requests; its delta is absolute, in percentage points, since a base of
// no errors has no relative change).
//
// Delta. A row's delta is relative, (c − b)/b, of the candidate's value c
// against the base's b; error_rate's is c − b.
//
// Confidence interval. A percentile bootstrap at level 1 − α: B resamples
// (Options.Resamples, 1000 by default) draw n_b base and n_c candidate
// values with replacement, independently, compute the statistic of each
// and the delta of the pair; the interval is the nearest-rank α/2 and
// 1 − α/2 quantiles of the B deltas. Randomness comes from a PCG generator
// seeded with (Options.Seed, FNV-1a of the metric's name), so the result
// depends only on the records and options. A percentile row has no
// interval when either run has fewer values than metrics.MinN(p, 1 − α)
// (p99 needs 368 at 95%), the same rule surge report applies: a bootstrap
// of p99 from 200 values only reshuffles the top two.
//
// Rank test. The p-value is the two-sided Mann–Whitney U test of the
// per-request values of the two runs (see MannWhitney): one p-value per
// metric, shown on each of its rows. It asks whether one run's requests
// tend to be slower than the other's, assuming requests independent.
//
// Significance. A row is significant when p < α (0.05 by default) and its
// interval excludes 0; otherwise its delta prints as "~". The rank test
// guards against a bootstrap interval that excludes 0 by chance; the
// interval ties the verdict to the row's own statistic, so a shift of the
// body that leaves p99 where it was does not flag p99. The rule is
// conservative for a change in the tail alone (the rank test has little
// power against it): such a row gets a Note. With some thirty rows, about
// one in twenty noise rows would pass p < α alone; the interval condition
// removes most of those but not all, so read a lone significant row of a
// noisy metric with care.
//
// Large but underpowered. A comparable row that is not significant but
// whose change is large (Row.Large: the candidate at least LargeRatio = 2
// times the base or at most half of it; for error_rate, LargePoints = 10
// points or more) is Underpowered: too few values to call it significant,
// too large to show as noise. Row.Finding names every row's verdict in
// the words all renderings use.
//
// Throughput and errors. The measurement window of each run is cut into
// Options.Windows equal windows (20 by default); each window's rate counts
// the successful requests, or their output tokens, that completed in it.
// The mean of the window rates is exactly the run's rate, so the
// bootstrap resamples windows and the rank test compares the two runs'
// window rates. Windows of one run are not quite independent (a slow
// request spans several), so these p-values are approximate. error_rate
// treats each sent request as a 0 or 1: the rank test on such values is
// the two-proportion z-test, and the bootstrap gives the interval of the
// difference of proportions.
//
// Gates. ParseGates reads "ttft.p99:+10%,output_throughput:-5%": a gate
// fails when its row is significant and its delta is past the threshold
// in the signed direction (+10%: more than 10% higher; -5%: more than 5%
// lower; for error_rate in percentage points). A gate whose row cannot
// be judged (no values, too few for an interval, or a large but
// underpowered change past the threshold) is unjudged; it fails the
// comparison only with Options.FailOnUnjudged, so a run compared with
// itself passes.
//
// Workloads. Runs of different workload hashes are refused (an error
// wrapping ErrDifferentWorkload) unless Options.AllowDifferentWorkload is
// set, and the Result then says so. Different spec hashes, targets or
// tool versions, and interrupted runs, are warnings.
package compare
