package sweep

import (
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

// Verdict is the SLO verdict on one point's run: it passes when every
// check passes.
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
