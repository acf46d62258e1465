package sweep

import "surge/metrics"

// DefaultConfidence is the confidence level of SLO verdicts, MLPerf's.
const DefaultConfidence = metrics.DefaultSLOConfidence

// Judge gathers the early-stopping verdicts that metrics gave the SLOs of
// sc (see metrics.SLOCheck) into one verdict, which passes when every SLO
// passes (Point.Decide then also requires the load to be sustained). It
// returns nil when sc has no SLO.
func Judge(sc *metrics.Scope) *Verdict {
	if len(sc.SLOs) == 0 {
		return nil
	}
	v := &Verdict{Pass: true}
	for _, c := range sc.SLOs {
		ch := Check{SLO: c.SLO, N: c.Requests, Exceeded: c.Exceeded, ObservedUS: c.Observed,
			Outcome: Outcome(c.Verdict), NeedMore: c.NeedMore}
		v.Pass = v.Pass && ch.Outcome == Pass
		v.Checks = append(v.Checks, ch)
	}
	return v
}
