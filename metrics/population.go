package metrics

import "surge/trace"

// Population is a set of a run's records that figures are computed over.
// It is the one rule of which records count where: every figure of the
// summary, the charts, the slowest-requests table, the time series,
// goodput and SLO verdicts, compare, sweeps and live metrics take their
// records through it.
//
// A record is warmup when it was intended within the warmup window, and
// faulted when it carried a fault injected on purpose (the fault report
// describes those); the rest are measured. A measured record is dropped
// (never sent: shed at the concurrency cap), failed (sent, with an error
// class; a request surge cancelled at an interrupt or the end of the
// drain is a failure of class "cancelled") or succeeded.
type Population uint8

// The populations.
const (
	// Measured records are neither warmup nor faulted, sent or dropped:
	// the requests a scope counts.
	Measured Population = iota + 1
	// Sent records are measured ones that were sent: schedule lag, queue
	// time and the error rate's denominator.
	Sent
	// Succeeded records are sent measured ones without an error class:
	// every latency, throughput, goodput and token figure.
	Succeeded
	// Failed records are sent measured ones with an error class.
	Failed
	// Dropped records are measured ones never sent.
	Dropped
	// Healthy records carried no injected fault, warmup included: the
	// requests that loaded the server, which the time series counts.
	Healthy
	// Faulted records are non-warmup ones that carried an injected fault:
	// the fault report's.
	Faulted
)

// Has reports whether r belongs to population p.
func (p Population) Has(r *trace.Record) bool {
	healthy := r.Fault == ""
	measured := !r.Warmup && healthy
	dropped := r.ErrorClass == trace.ErrDropped
	switch p {
	case Measured:
		return measured
	case Sent:
		return measured && !dropped
	case Succeeded:
		return measured && r.OK()
	case Failed:
		return measured && !dropped && !r.OK()
	case Dropped:
		return measured && dropped
	case Healthy:
		return healthy
	case Faulted:
		return !r.Warmup && !healthy
	}
	return false
}

// Select returns the records of recs in population p, in order.
func (p Population) Select(recs []*trace.Record) []*trace.Record {
	var out []*trace.Record
	for _, r := range recs {
		if p.Has(r) {
			out = append(out, r)
		}
	}
	return out
}

// Records returns pointers to the records of rs in population p, in order.
func (p Population) Records(rs *trace.Records) []*trace.Record {
	var out []*trace.Record
	for i := range rs.Records {
		if r := &rs.Records[i]; p.Has(r) {
			out = append(out, r)
		}
	}
	return out
}

// String names p as reports do: "measured", "succeeded".
func (p Population) String() string {
	switch p {
	case Measured:
		return "measured"
	case Sent:
		return "sent"
	case Succeeded:
		return "succeeded"
	case Failed:
		return "failed"
	case Dropped:
		return "dropped"
	case Healthy:
		return "healthy"
	case Faulted:
		return "faulted"
	}
	return "unknown"
}

// FromIntended is latency us of r (counted from its send: a TTFT, TTFO or
// E2E) counted from its intended send time instead: us + Lag(r), with a
// negative lag taken as 0. A send before its intended instant happens
// only by clock jitter or rounding, so latency from the intended send is
// never less than latency from the actual send.
func FromIntended(r *trace.Record, us int64) int64 { return us + max(Lag(r), 0) }
