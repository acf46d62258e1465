package virtual

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"surge/sim"
	"surge/trace"
)

// Sink is trace.Sink, the one interface that receives a run's records, as
// for a live run; Run reuses nothing it passes, so a sink may keep them.
type Sink = trace.Sink

// runner is the state of one Run.
type runner struct {
	cfg     Config
	sink    Sink
	reps    []replica
	due     *dueQueue // the replicas with an event to come
	rr      int       // next replica for RoundRobin
	sched   *schedule
	flights []flight // by engine request ID
	free    []uint64 // IDs of finished flights, for reuse
	models  map[string]string
	// nChoices is the n of the clients that ask for several choices.
	nChoices map[string]int
	warmup   time.Duration
	pinned   map[string]bool // clients whose history is pinned
	hash     hasher
	msgs     []message // scratch: the prompt being sent
	maxLen   int       // context limit
	prefix   bool
	plain    bool // sessions run plain (see sessionRun.plain)
	now      time.Duration
	sent     int
	nextObs  time.Duration // when Config.Observe is next due
}

// Run sends the sessions of the trace with header h through cfg.Replicas
// engines in virtual time, writing each request's record to sink as it
// finishes, in the order the requests finish. It returns the end line,
// whose duration is the virtual time of the last event, or an error if
// cfg or a session is invalid (see trace.Session.Validate) or the sink
// fails. Cancelling ctx (Ctrl-C) stops the simulation where it is: the
// records written so far stand, every request in flight gets a record of
// error class "cancelled" with what it had received by then, and the end
// line says Interrupted.
func Run(ctx context.Context, cfg Config, h trace.Header, sessions []*trace.Session, sink Sink) (trace.RunEnd, error) {
	rn, scheduled, err := newRunner(cfg, h, sessions, sink)
	if err != nil {
		return trace.RunEnd{}, err
	}
	return rn.run(ctx, scheduled)
}

// run runs rn to its end line, as Run does, for a trace of scheduled
// requests.
func (rn *runner) run(ctx context.Context, scheduled int) (trace.RunEnd, error) {
	interrupted, err := rn.loop(ctx)
	if err == nil && interrupted {
		err = rn.cancelAll()
	}
	if rn.cfg.Final != nil {
		rn.cfg.Final(rn.stats())
	}
	if err != nil {
		return trace.RunEnd{}, err
	}
	return trace.RunEnd{
		End:         rn.cfg.Start.Add(rn.now),
		DurationUS:  us(rn.now),
		Interrupted: interrupted,
		Scheduled:   scheduled,
		Sent:        rn.sent,
	}, nil
}

// newRunner prepares the run of sessions, all of them held.
func newRunner(cfg Config, h trace.Header, sessions []*trace.Session, sink Sink) (*runner, int, error) {
	if err := validate(sessions); err != nil {
		return nil, 0, fmt.Errorf("virtual run: %w", err)
	}
	rn, err := newRunnerOf(cfg, h, tally(sessions), sink)
	if err != nil {
		return nil, 0, err
	}
	var scheduled int
	rn.sched, scheduled = newSchedule(h, sessions)
	return rn, scheduled, nil
}

// newRunnerOf prepares a run with no schedule yet, for sessions whose
// text text tallies.
func newRunnerOf(cfg Config, h trace.Header, text TextTally, sink Sink) (*runner, error) {
	cfg, err := cfg.check()
	if err != nil {
		return nil, err
	}
	if sink == nil {
		return nil, errors.New("virtual run: nil sink")
	}
	rn := &runner{cfg: cfg, sink: sink, reps: make([]replica, cfg.Replicas), due: newDueQueue(cfg.Replicas), warmup: warmupOf(cfg, h.WarmupUS)}
	for i := range rn.reps {
		if rn.reps[i].eng, err = sim.NewEngine(cfg.Engine, cfg.Cost); err != nil {
			return nil, fmt.Errorf("virtual run: %w", err)
		}
	}
	ec := rn.reps[0].eng.Config()
	rn.maxLen, rn.prefix = ec.MaxModelLen, ec.EnablePrefixCaching
	rn.hash.bt = ec.BlockSize
	if rn.prefix {
		rn.hash.bb = text.ratio(ec.BlockSize)
	}
	rn.models = make(map[string]string, len(h.Clients))
	rn.pinned = make(map[string]bool, len(h.Clients))
	for _, c := range h.Clients {
		rn.models[c.Name] = c.Model
		rn.pinned[c.Name] = c.History == trace.HistoryPinned
	}
	rn.nChoices = choicesOf(h)
	return rn, nil
}

// loop takes the earliest event until none is left.
func (rn *runner) loop(ctx context.Context) (interrupted bool, err error) {
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return true, nil
		}
		kind, i := rn.next()
		switch kind {
		case evNone:
			return false, nil
		case evDeliver:
			err = rn.deliver(&rn.reps[i])
			rn.touch(i)
		case evArrive:
			if err = rn.arrive(rn.sched.pop()); err == nil {
				err = rn.sched.err
			}
		case evStep:
			rn.reps[i].step()
			rn.touch(i)
		}
		if err != nil {
			return false, err
		}
		rn.observe()
	}
}

// observe calls Config.Observe when it is due.
func (rn *runner) observe() {
	if rn.cfg.Observe == nil || rn.now < rn.nextObs {
		return
	}
	every := rn.cfg.ObserveEvery
	if every <= 0 {
		every = time.Second
	}
	rn.nextObs = (rn.now/every + 1) * every
	rn.cfg.Observe(rn.now, rn.stats())
}

// stats sums the replicas' gauges and counters (KVUsage their mean).
func (rn *runner) stats() sim.Stats {
	var st sim.Stats
	for i := range rn.reps {
		s := rn.reps[i].eng.Stats()
		st.Running += s.Running
		st.Waiting += s.Waiting
		st.KVUsage += s.KVUsage / float64(len(rn.reps))
		st.PrefixCacheQueries += s.PrefixCacheQueries
		st.PrefixCacheHits += s.PrefixCacheHits
		st.Preemptions += s.Preemptions
		st.PromptTokens += s.PromptTokens
		st.GenerationTokens += s.GenerationTokens
		st.Finished += s.Finished
		st.SpecDrafts += s.SpecDrafts
		st.SpecDraftTokens += s.SpecDraftTokens
		st.SpecAccepted += s.SpecAccepted
		for i := range st.SpecAcceptedPerPos {
			st.SpecAcceptedPerPos[i] += s.SpecAcceptedPerPos[i]
		}
	}
	return st
}

// next returns the earliest event, and the replica for deliveries and
// steps. Ties go to the lower kind, then the lower replica index.
func (rn *runner) next() (eventKind, int) {
	kind, at := evNone, time.Duration(0)
	if t, ok := rn.sched.peek(); ok {
		kind, at = evArrive, t
	}
	if i, k, ok := rn.due.peek(); ok && (kind == evNone || k.at < at || (k.at == at && k.kind < kind)) {
		return k.kind, i
	}
	return kind, 0
}

// touch files replica i's next event in the due queue after anything
// that may have changed it: a step, a delivery, a request added.
func (rn *runner) touch(i int) {
	k, at := rn.reps[i].nextEvent()
	rn.due.update(i, k, at)
}

// deliver hands out the events of r's finished step at its end time.
func (rn *runner) deliver(r *replica) error {
	r.stepping = false
	rn.now = r.at
	for i := range r.held {
		ev := &r.held[i]
		f := &rn.flights[ev.ID]
		if f.parent > 0 {
			if err := rn.kidEvent(ev.ID, f, ev, r); err != nil {
				return err
			}
			continue
		}
		switch ev.Kind {
		case sim.EventFirstToken:
			f.cached = ev.CachedTokens
			f.token(ev.Time, ev.Tokens)
			if err := rn.addChoices(ev.ID); err != nil {
				return err
			}
		case sim.EventToken:
			f.token(ev.Time, ev.Tokens)
		case sim.EventFinished:
			r.load--
			if f.done = true; f.kids > 0 {
				continue // its record waits for its other choices
			}
			if err := rn.finish(ev.ID, f); err != nil {
				return err
			}
		}
	}
	return nil
}

// finish writes f's record, frees its ID and resolves its turn.
func (rn *runner) finish(id uint64, f *flight) error {
	rec := f.record()
	sr, k := f.sr, f.turn
	*f = flight{}
	rn.free = append(rn.free, id)
	if err := rn.sink.Write(&rec); err != nil {
		return fmt.Errorf("writing record: %w", err)
	}
	rn.resolve(sr, k, true)
	return nil
}

// cancelAll writes the cancelled record of every request in flight at the
// interrupt, in arrival order (engine ID among equals), at the virtual time
// of the last event taken. Tokens of steps still running have not arrived.
func (rn *runner) cancelAll() error {
	var ids []uint64
	for id := range rn.flights {
		if rn.flights[id].sr != nil && rn.flights[id].parent == 0 {
			ids = append(ids, uint64(id))
		}
	}
	slices.SortFunc(ids, func(a, b uint64) int {
		return cmp.Or(cmp.Compare(rn.flights[a].arrival, rn.flights[b].arrival), cmp.Compare(a, b))
	})
	for _, id := range ids {
		rec := rn.flights[id].cancelled(rn.now)
		if err := rn.sink.Write(&rec); err != nil {
			return fmt.Errorf("writing record: %w", err)
		}
	}
	return nil
}

// validate checks every session as the driver does, so that every turn's
// dependencies come before it.
func validate(sessions []*trace.Session) error {
	var errs []error
	for _, s := range sessions {
		if err := s.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("session %s/%d: %w", s.Client, s.Index, err))
		}
	}
	return errors.Join(errs...)
}
