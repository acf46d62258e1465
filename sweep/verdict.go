package sweep

import (
	"fmt"
	"strings"

	"surge/metrics"
	"surge/trace"
)

// Outcome is the verdict on one SLO: one of metrics' Verdict values.
type Outcome string

// Outcomes of an SLO check.
const (
	Pass Outcome = metrics.VerdictPass // holds at the confidence level
	Fail Outcome = metrics.VerdictFail // the percentile over the bound
	// Inconclusive: the observed percentile is within the bound but too
	// few requests ran for it to hold at the confidence level.
	Inconclusive Outcome = metrics.VerdictShort
)

// Word is a point's verdict in one word: the word the text, JSON and
// HTML reports of a sweep all show for the point.
type Word string

// Words of a point's verdict.
const (
	// WordPass: every SLO passed, at a load the server sustained.
	WordPass Word = "pass"
	// WordFail: some SLO's percentile was over its bound.
	WordFail Word = "fail"
	// WordSaturated: the server did not sustain the load, so its
	// latencies hold only for as long as the point ran.
	WordSaturated Word = "saturated"
	// WordInconclusive: too few requests to judge some SLO, or the point
	// was interrupted; the reason says which.
	WordInconclusive Word = "inconclusive"
)

// Verdict is the SLO verdict on one point's run. Pass is true exactly
// when the point's word is pass (see Point.Decide): every check passed
// and the server sustained the load.
type Verdict struct {
	Pass   bool    `json:"pass"`
	Checks []Check `json:"checks"`
}

// Check is the early-stopping verdict on one SLO "metric pP ≤ bound" (see
// metrics.SLOCheck): of N requests judged, Exceeded were over the bound
// or failed.
type Check struct {
	trace.SLO
	N          int     `json:"n"`
	Exceeded   int     `json:"exceeded"`
	ObservedUS float64 `json:"observed_us"` // the nearest-rank percentile
	Outcome    Outcome `json:"outcome"`
	// NeedMore is how many more requests, none of them over the bound,
	// would make an inconclusive check pass.
	NeedMore int `json:"need_more,omitempty"`
}

// Decide sets the point's verdict word and its reason from what it
// measured, and makes SLO.Pass agree with the word. An interrupted point
// is inconclusive, a saturated one saturated whatever its latencies, one
// that measured no request inconclusive; then a failed check makes the point fail, a check short of requests makes it
// inconclusive, and it passes when every check passed. A point without
// SLOs that kept up and ran to its end has no verdict (the word is
// empty).
func (p *Point) Decide() {
	p.Verdict, p.Reason = decide(p)
	if p.SLO != nil {
		p.SLO.Pass = p.Verdict == WordPass
	}
}

func decide(p *Point) (Word, string) {
	switch {
	case p.Interrupted:
		return WordInconclusive, "interrupted: its figures cover only what ran"
	case p.Saturated:
		return WordSaturated, p.Stopped
	case p.Measured == 0:
		return WordInconclusive, "no measured request: every one fell in the warmup (shorten the spec's warmup, or raise --requests or --min-requests)"
	case p.SLO == nil:
		return "", ""
	}
	var failed, short []string
	for _, c := range p.SLO.Checks {
		switch c.Outcome {
		case Fail:
			failed = append(failed, fmt.Sprintf("%s %s ms over %s ms", sloLabel(c.SLO), millis(c.ObservedUS), millis(float64(c.BoundUS))))
		case Inconclusive:
			short = append(short, fmt.Sprintf("%s: %d measured, %d needed", sloLabel(c.SLO), c.N, c.N+c.NeedMore))
		}
	}
	switch {
	case len(failed) > 0:
		return WordFail, strings.Join(failed, "; ")
	case len(short) > 0:
		return WordInconclusive, "too few requests to judge " + strings.Join(short, "; ")
	}
	return WordPass, ""
}

// sloLabel names an SLO's statistic: "ttft p99", "tpot mean".
func sloLabel(s trace.SLO) string {
	if s.Percentile == 0 {
		return s.Metric + " mean"
	}
	return fmt.Sprintf("%s p%g", s.Metric, s.Percentile)
}

// millis renders µs as milliseconds: three significant digits below
// 100 ms, whole milliseconds above.
func millis(us float64) string {
	if us >= 100_000 {
		return fmt.Sprintf("%.0f", us/1000)
	}
	return fmt.Sprintf("%.3g", us/1000)
}
