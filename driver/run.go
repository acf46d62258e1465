package driver

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"surge/trace"
)

// run is the state of one Run: its clock, its stop signals, its goroutines
// and its counters.
type run struct {
	d     *Driver
	cfg   *Config
	start time.Time
	sink  Sink

	reqCtx     context.Context // every request's context; cancelled at the hard stop
	cancelReqs context.CancelCauseFunc
	stopCause  error         // why the hard stop cancels the requests in flight; nil: the run ended
	halt       chan struct{} // closed when no new request may start
	haltOnce   sync.Once
	failed     chan struct{} // closed when the sink fails
	slots      *gate         // open-loop concurrency slots; nil without a cap

	wg         sync.WaitGroup // the dispatcher, the workers and every session
	openDone   chan struct{}  // closed when the dispatcher has launched its last session
	closedDone chan struct{}  // closed when every closed-loop session has been taken
	closedLeft atomic.Int64   // closed-loop clients with sessions left to take
	next       []atomic.Int64 // next session to take, per closed-loop client

	mu      sync.Mutex // guards sink and sinkErr: Write is called by one goroutine at a time
	sinkErr error

	storms *storms // the run's cancellation storms; nil without any

	stats stats
}

// Run sends the sessions: open-loop ones at start + their offsets, closed-
// loop ones as their clients' workers free up. It writes one record per
// request to sink as the request finishes, and returns the end line once
// every request has finished or been cancelled and every goroutine it
// started has returned.
//
// Cancelling ctx is an interrupt, not an error: scheduling stops at once,
// requests waiting for a slot are recorded as dropped, those in flight get
// Config.InterruptDrain to finish before they are cancelled, and Run returns
// normally with Interrupted set. The error is non-nil only when the sink
// failed, which stops the run like an interrupt without a drain.
func (d *Driver) Run(ctx context.Context, start time.Time, sink Sink) (trace.RunEnd, error) {
	if !d.running.CompareAndSwap(false, true) {
		return trace.RunEnd{}, errRunning
	}
	defer d.running.Store(false)
	r := d.newRun(ctx, start, sink)
	d.cur.Store(r)
	interrupted := r.supervise(ctx)
	end := r.end(interrupted)
	if r.sinkErr != nil {
		return end, fmt.Errorf("driver: writing records: %w", r.sinkErr)
	}
	return end, nil
}

// newRun prepares the state of a run starting at start.
func (d *Driver) newRun(ctx context.Context, start time.Time, sink Sink) *run {
	r := &run{
		d: d, cfg: &d.cfg, start: start, sink: sink,
		halt: make(chan struct{}), failed: make(chan struct{}),
		openDone: make(chan struct{}), closedDone: make(chan struct{}),
		next: make([]atomic.Int64, len(d.closed)),
	}
	// Requests outlive ctx by the interrupt drain, so their context keeps
	// ctx's values but not its cancellation.
	r.reqCtx, r.cancelReqs = context.WithCancelCause(context.WithoutCancel(ctx))
	if d.cfg.MaxConcurrency > 0 {
		r.slots = newGate(d.cfg.MaxConcurrency)
	}
	r.stats.init()
	r.storms = newStorms(d.windows)
	return r
}

// supervise runs the phases (wait for start, schedule, drain, hard stop)
// and reports whether the run was interrupted. When it returns, every
// goroutine of the run has finished.
func (r *run) supervise(ctx context.Context) (interrupted bool) {
	// Storms strike at offsets from the start until the requests' context
	// ends, which the deferred cancelReqs makes sure of before waiting.
	stormsDone := make(chan struct{})
	go func() {
		defer close(stormsDone)
		if r.storms != nil {
			r.storms.run(r.start, r.reqCtx.Done())
		}
	}()
	defer func() { r.cancelReqs(errRunEnded); <-stormsDone }()
	if !r.waitStart(ctx) || ctx.Err() != nil {
		r.stopScheduling()
		return true
	}
	r.launch()
	allDone := make(chan struct{})
	go func() { r.wg.Wait(); close(allDone) }()
	defer func() { r.hardStop(); <-allDone }()

	switch r.schedule(ctx) {
	case phaseInterrupted:
		r.stopScheduling()
		r.stopCause = r.await(allDone, r.cfg.InterruptDrain, nil)
		return true
	case phaseFailed:
		return false
	}
	drain := time.NewTimer(r.cfg.Drain)
	defer drain.Stop()
	select {
	case <-allDone:
	case <-drain.C:
		r.stopCause = &drainExpired{drain: r.cfg.Drain}
	case <-r.failed:
	case <-ctx.Done():
		// An interrupt during the drain shortens it to the interrupt drain.
		r.stopScheduling()
		r.stopCause = r.await(allDone, r.cfg.InterruptDrain, drain.C)
		return true
	}
	return false
}

// phase is how the scheduling phase ended.
type phase int

const (
	phaseScheduled   phase = iota // everything due was launched or taken
	phaseInterrupted              // ctx was cancelled
	phaseFailed                   // the sink failed
)

// waitStart waits until the start instant, reporting false if ctx is
// cancelled first.
func (r *run) waitStart(ctx context.Context) bool {
	wait := time.Until(r.start)
	if wait <= 0 {
		return true
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// launch starts the open-loop dispatcher and the closed-loop workers.
func (r *run) launch() {
	if len(r.d.open) == 0 {
		close(r.openDone)
	} else {
		r.wg.Go(r.dispatch)
	}
	if ss := withImages(r.d.open); len(ss) > 0 {
		r.wg.Go(func() { r.prefetch(ss) })
	}
	r.closedLeft.Store(int64(len(r.d.closed)))
	if len(r.d.closed) == 0 {
		close(r.closedDone)
	}
	for i := range r.d.closed {
		for range r.d.closed[i].workers {
			r.wg.Go(func() { r.work(i) })
		}
	}
}

// schedule waits until scheduling is over: the dispatcher has launched
// every session and every closed-loop session has been taken, or Duration
// has passed (closed-loop workers then stop taking by themselves).
func (r *run) schedule(ctx context.Context) phase {
	openC, closedC := r.openDone, r.closedDone
	var durC <-chan time.Time
	if r.cfg.Duration > 0 {
		t := time.NewTimer(time.Until(r.start.Add(r.cfg.Duration)))
		defer t.Stop()
		durC = t.C
	}
	for openC != nil || closedC != nil {
		select {
		case <-openC:
			openC = nil
		case <-closedC:
			closedC = nil
		case <-durC:
			closedC, durC = nil, nil
		case <-ctx.Done():
			return phaseInterrupted
		case <-r.failed:
			return phaseFailed
		}
	}
	return phaseScheduled
}

// await waits up to d, the interrupt drain, for every goroutine to
// finish, or until limit (the drain) fires or the sink fails. It returns
// the drain that expired, if one did.
func (r *run) await(allDone <-chan struct{}, d time.Duration, limit <-chan time.Time) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-allDone:
	case <-t.C:
		return &drainExpired{interrupt: true, drain: d}
	case <-limit:
		return &drainExpired{drain: r.cfg.Drain}
	case <-r.failed:
	}
	return nil
}

// stopScheduling stops every new request: the dispatcher and the workers
// stop, queued requests are dropped, later turns are not sent.
func (r *run) stopScheduling() {
	r.haltOnce.Do(func() {
		r.stats.haltedAt.Store(int64(max(time.Since(r.start), 0)))
		close(r.halt)
	})
}

// hardStop stops scheduling and cancels the requests in flight.
func (r *run) hardStop() {
	r.stopScheduling()
	cause := r.stopCause
	if cause == nil {
		cause = errRunEnded
	}
	r.cancelReqs(cause)
}

// halted reports whether new requests are stopped.
func (r *run) halted() bool {
	select {
	case <-r.halt:
		return true
	default:
		return false
	}
}

// end builds the end line and freezes Progress.
func (r *run) end(interrupted bool) trace.RunEnd {
	now := time.Now()
	el := max(now.Sub(r.start), 0)
	r.stats.endedAt.Store(int64(el))
	scheduled := r.d.scheduled
	if r.cfg.Duration > 0 {
		// Closed-loop sessions count once taken: before Duration, which
		// ones would be was not known up front.
		scheduled += int(r.stats.takenTurns.Load())
	}
	return trace.RunEnd{
		End:         now.Round(0),
		DurationUS:  us(el),
		Interrupted: interrupted,
		Scheduled:   scheduled,
		Sent:        int(r.stats.sent.Load()),
		Dropped:     int(r.stats.dropped.Load()),
	}
}

// write hands rec to the sink and counts it. After the sink fails, records
// are counted but not written, and the run stops.
func (r *run) write(rec *trace.Record, ttft bool) {
	r.stats.count(rec, ttft)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sinkErr != nil {
		return
	}
	if err := r.sink.Write(rec); err != nil {
		r.sinkErr = err
		close(r.failed)
	}
}
