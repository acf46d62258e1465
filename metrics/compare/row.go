package compare

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"surge/metrics"
)

// Units of Row values besides metrics.UnitUS and metrics.UnitUSToken.
const (
	UnitRequestsPerS = "requests/s"
	UnitTokensPerS   = "tokens/s"
	UnitFraction     = "fraction" // of requests: 0.01 is 1%
)

// Row compares one statistic of one metric between the runs.
type Row struct {
	Metric string `json:"metric"`         // ttft, e2e+lag, output_throughput, …
	Stat   string `json:"stat,omitempty"` // p50, p90, p99, mean; empty for whole-run rows
	Unit   string `json:"unit"`
	// Base and Candidate are the statistic of each run; NBase and
	// NCandidate count the values it came from: requests, or windows for
	// the throughput rows.
	Base       float64 `json:"base"`
	Candidate  float64 `json:"candidate"`
	NBase      int     `json:"n_base"`
	NCandidate int     `json:"n_candidate"`
	// Comparable is false when a run has no values, or for a relative
	// delta when the base is 0; Delta is then 0.
	Comparable bool `json:"comparable"`
	// Absolute says Delta is Candidate − Base in the row's unit (for
	// error_rate); otherwise it is relative, (Candidate − Base)/Base.
	Absolute bool    `json:"absolute,omitempty"`
	Delta    float64 `json:"delta"`
	// CI is the bootstrap interval of Delta at level 1 − α, nil when
	// there is none (Note says why).
	CI *Interval `json:"ci,omitempty"`
	// P is the rank test's two-sided p-value, valid when Tested.
	P      float64 `json:"p"`
	Tested bool    `json:"tested"`
	// Significant is Tested && P < α && CI excludes 0.
	Significant bool `json:"significant"`
	// Underpowered is set on a comparable row that is not significant
	// although its change is large (see Large): too few values to tell.
	Underpowered bool `json:"underpowered,omitempty"`
	// Note states a caveat on the row.
	Note string `json:"note,omitempty"`
}

// Name is the row's name in gates: "ttft.p99", or the metric alone for
// whole-run rows, "output_throughput".
func (r *Row) Name() string {
	if r.Stat == "" {
		return r.Metric
	}
	return r.Metric + "." + r.Stat
}

// Findings of a row, the words every rendering of a comparison uses for
// its verdict (Row.Finding).
const (
	FindingSignificant   = "significant"
	FindingNoChange      = "not significant"
	FindingUnderpowered  = "large but underpowered"
	FindingNotComparable = "not comparable"
)

// Finding is the row's verdict in words: not comparable, significant,
// large but underpowered, or not significant.
func (r *Row) Finding() string {
	switch {
	case !r.Comparable:
		return FindingNotComparable
	case r.Significant:
		return FindingSignificant
	case r.Underpowered:
		return FindingUnderpowered
	}
	return FindingNoChange
}

// MarshalJSON writes the row's fields with its Finding as "finding".
func (r Row) MarshalJSON() ([]byte, error) {
	type fields Row // without the method, so no recursion
	return json.Marshal(struct {
		fields
		Finding string `json:"finding"`
	}{fields(r), r.Finding()})
}

// Thresholds of a large change (Large).
const (
	// LargeRatio: a relative row's change is large when the candidate's
	// value is at least LargeRatio times the base's or at most 1/LargeRatio
	// of it (a delta of +100% or −50%).
	LargeRatio = 2.0
	// LargePoints: an absolute row's (error_rate's) change is large when
	// it is at least this many points of requests (0.10 is 10 points).
	LargePoints = 0.10
)

// Large reports whether the row's change is large: c/b ≥ LargeRatio or
// ≤ 1/LargeRatio for a relative row, |c − b| ≥ LargePoints for an
// absolute one. A row that is not comparable is not large.
func (r *Row) Large() bool {
	switch {
	case !r.Comparable:
		return false
	case r.Absolute:
		return math.Abs(r.Delta) >= LargePoints
	}
	ratio := 1 + r.Delta
	return ratio >= LargeRatio || ratio <= 1/LargeRatio
}

// Judged reports whether the row could be judged: both runs have values
// and the delta has an interval and a p-value.
func (r *Row) Judged() bool { return r.Comparable && r.CI != nil && r.Tested }

// note appends a caveat to the row's note.
func (r *Row) note(format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	if r.Note == "" {
		r.Note = text
		return
	}
	r.Note = strings.Join([]string{r.Note, text}, "; ")
}

// smallRankN is the sample size below which the normal approximation of
// the rank test is rough.
const smallRankN = 8

// comparer builds rows with the options of one comparison.
type comparer struct{ opts Options }

// rows compares stats of the sorted samples xb (base) and xc (candidate)
// of the metric named name.
func (c *comparer) rows(name, unit string, xb, xc []float64, stats []stat, delta deltaFunc, abs bool) []Row {
	rows := make([]Row, len(stats))
	for i, s := range stats {
		rows[i] = Row{Metric: name, Stat: s.name, Unit: unit, NBase: len(xb), NCandidate: len(xc), Absolute: abs}
	}
	bv, cv := make([]float64, len(stats)), make([]float64, len(stats))
	if len(xb) > 0 {
		statistics(xb, stats, bv)
	}
	if len(xc) > 0 {
		statistics(xc, stats, cv)
	}
	if len(xb) == 0 || len(xc) == 0 {
		for i := range rows {
			rows[i].Base, rows[i].Candidate = bv[i], cv[i]
			rows[i].note("no values in %s", emptySide(len(xb), len(xc)))
		}
		return rows
	}
	_, p, tested := rankTest(xb, xc)
	deltas := newResampler(c.opts.Seed, name).bootstrap(xb, xc, stats, c.opts.Resamples, delta)
	for i, s := range stats {
		r := &rows[i]
		r.Base, r.Candidate, r.P, r.Tested = bv[i], cv[i], p, tested
		c.judgeRow(r, s, deltas[i], delta)
		markUnderpowered(r)
	}
	return rows
}

// markUnderpowered flags a row whose change is large but not significant,
// so that no rendering shows it as noise.
func markUnderpowered(r *Row) {
	if r.Significant || !r.Large() {
		return
	}
	r.Underpowered = true
	if r.Absolute {
		r.note("large but underpowered: %+.1f points of requests, but too few values to call it significant", 100*r.Delta)
		return
	}
	r.note("large but underpowered: the candidate is %s× the base, but too few values to call it significant", trimFloat(1+r.Delta))
}

// trimFloat formats x with at most 2 decimals, trailing zeros removed:
// 85 → "85", 0.5 → "0.5", 2.125 → "2.12".
func trimFloat(x float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", x), "0"), ".")
}

// judgeRow fills r's delta, interval and verdict from the bootstrap
// deltas d of its statistic s.
func (c *comparer) judgeRow(r *Row, s stat, d []float64, delta deltaFunc) {
	if !r.Absolute && r.Base == 0 {
		r.note("the base is 0: no relative change")
		return
	}
	r.Comparable, r.Delta = true, delta(r.Base, r.Candidate)
	level := 1 - c.opts.Alpha
	if s.p > 0 {
		if n := metrics.MinN(s.p, level); min(r.NBase, r.NCandidate) < n {
			r.note("%s needs n ≥ %d per run for a %s interval", s.name, n, percent(level))
			return
		}
	}
	iv, ok := percentileInterval(d, c.opts.Alpha)
	if !ok {
		r.note("some resamples of the base are 0: no interval")
		return
	}
	r.CI = &iv
	if min(r.NBase, r.NCandidate) < smallRankN {
		r.note("fewer than %d values: the rank test's normal approximation is rough", smallRankN)
	}
	r.Significant = r.Tested && r.P < c.opts.Alpha && iv.Excludes0()
	if !r.Significant && iv.Excludes0() {
		r.note("the interval excludes 0 but the rank test finds no shift (p ≥ %g): a change in part of the distribution only", c.opts.Alpha)
	}
}

// emptySide names the run(s) without values.
func emptySide(nb, nc int) string {
	switch {
	case nb == 0 && nc == 0:
		return "either run"
	case nb == 0:
		return "the base"
	}
	return "the candidate"
}

// percent formats a level as a percentage: 0.95 → "95%".
func percent(level float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", 100*level), "0"), ".") + "%"
}
