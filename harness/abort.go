package harness

import (
	"context"
	"errors"
	"fmt"

	"surge/trace"
)

// MinAbortRequests is how many requests must have finished before
// Config.MaxErrorRate can stop a run: fewer are too few to judge a rate
// by. From then on the rate is that of every request finished so far.
const MinAbortRequests = 20

// errAborted is the cause of the context of a run its aborter stopped.
var errAborted = errors.New("too many errors")

// aborter watches a run's records and stops it (cancel) when, once
// MinAbortRequests have finished, more than max of them failed. The
// driver writes to it one record at a time; reason is read after the
// run.
type aborter struct {
	max          float64
	cancel       context.CancelCauseFunc
	done, failed int
	reason       string
}

// Write counts r: requests dropped at a cap and faults sent on purpose
// are not counted.
func (a *aborter) Write(r *trace.Record) error {
	if a.reason != "" || r.ErrorClass == trace.ErrDropped || r.Fault != "" {
		return nil
	}
	a.done++
	if !r.OK() {
		a.failed++
	}
	if a.done >= MinAbortRequests && float64(a.failed) > a.max*float64(a.done) {
		a.reason = fmt.Sprintf("%d of the first %d requests failed, more than --max-error-rate %g: see the errors and the records",
			a.failed, a.done, a.max)
		a.cancel(errAborted)
	}
	return nil
}

// sink is also with the aborter in front, when it has a rate to watch.
func (a *aborter) sink(also trace.Sink) trace.Sink {
	switch {
	case a.max <= 0:
		return also
	case also == nil:
		return a
	}
	return tee{a, also}
}
