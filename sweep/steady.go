package sweep

import (
	"fmt"
	"math"

	"surge/metrics"
	"surge/trace"
)

// Steady is what a run achieved while its load was applied: between the
// first measured request's intended send time and the last measured
// send, the requests sent, and the successful requests (warmup ones
// included) completed, with their output tokens. Requests that carried an
// injected fault are left out, as in every figure but the fault report.
//
// It is the saturation test's view of an open-loop run (see Unsustained),
// not a reported figure: a point's throughput is its report's, over
// metrics.ThroughputWindow. Over the loaded interval a server that keeps
// up completes about as many requests as are sent (requests in flight at
// its start stand in for those in flight at its end), and one that does
// not completes what it sustains. A closed-loop run has no such interval:
// its last sends can all fall at one instant.
type Steady struct {
	Seconds          float64 // length of the loaded interval
	Sent, Completed  int
	RequestsPerS     float64 // Completed / Seconds
	OutputTokensPerS float64
	// InFlight is the mean number of requests in flight by Little's law:
	// completion rate × mean E2E of the completed requests.
	InFlight float64
}

// SteadyOf computes the steady throughput of recs; it is zero when fewer
// than two measured requests were sent.
func SteadyOf(recs []trace.Record) Steady {
	var from, to int64 = -1, -1
	for i := range recs {
		r := &recs[i]
		if !metrics.Sent.Has(r) {
			continue
		}
		if from < 0 || r.IntendedUS < from {
			from = r.IntendedUS
		}
		to = max(to, r.SentUS)
	}
	if from < 0 || to <= from {
		return Steady{}
	}
	var st Steady
	var tokens, e2e float64
	for i := range recs {
		r := &recs[i]
		if !metrics.Healthy.Has(r) {
			continue // faulted on purpose: reported apart
		}
		if metrics.Sent.Has(r) {
			st.Sent++
		}
		done := r.SentUS + r.E2EUS
		if !r.OK() || done < from || done > to {
			continue
		}
		st.Completed++
		tokens += float64(metrics.OutputTokens(r))
		e2e += float64(r.E2EUS) / 1e6
	}
	st.Seconds = float64(to-from) / 1e6
	st.RequestsPerS = float64(st.Completed) / st.Seconds
	st.OutputTokensPerS = tokens / st.Seconds
	if st.Completed > 0 {
		st.InFlight = st.RequestsPerS * e2e / float64(st.Completed)
	}
	return st
}

// Unsustained reports whether the server fell behind the load: it
// completed at least 10% fewer requests than were sent over the loaded
// interval, a shortfall also larger than three standard deviations of
// the requests in flight at its ends (for a Poisson count, the square
// root of the mean in flight, by which the two counts differ when the
// server keeps up). why explains a yes.
func (st Steady) Unsustained() (yes bool, why string) {
	short := float64(st.Sent - st.Completed)
	if st.Sent == 0 || short <= 0.1*float64(st.Sent) || short <= 3*math.Sqrt(st.InFlight) {
		return false, ""
	}
	return true, fmt.Sprintf("the server fell behind: it completed %d requests while %d were sent (%.0f%% short)",
		st.Completed, st.Sent, 100*short/float64(st.Sent))
}
