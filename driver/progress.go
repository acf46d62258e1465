package driver

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"surge/trace"
)

// ttftWindow is how many recent successful requests the TTFT median of
// Progress covers.
const ttftWindow = 1024

// Progress is a snapshot of a run for a live progress line. Its counters
// are read one by one without a lock, so they may disagree by the few
// requests that finished while it was taken.
type Progress struct {
	Elapsed   time.Duration // since the start instant; frozen when Run returns
	Scheduled int           // sessions due so far: open-loop ones whose offset has passed, closed-loop ones taken
	Started   int           // sessions under way or over: open-loop ones launched, closed-loop ones taken
	Sent      int           // requests handed to the client
	InFlight  int           // sent and not finished
	Queued    int           // waiting for a concurrency slot
	Done      int           // sent and finished (success or error)
	Errors    int           // finished with an error class
	Dropped   int           // shed at the concurrency cap, or never sent because the run stopped

	// TargetRate is Scheduled / Elapsed and AchievedRate is Started /
	// Elapsed, in sessions per second: when the second falls behind the
	// first, the run is not keeping up with its schedule. Both count
	// sessions, since a schedule says when sessions start; their later
	// turns follow the replies (a 5-turn chat at 1 session/s sends about
	// 5 requests a second once under way).
	TargetRate, AchievedRate float64

	// TTFTp50 is the median time to first token of the last 1024
	// successful requests that reported one (0 before any).
	TTFTp50 time.Duration

	// Sessions is how many sessions the run schedules in all (for a
	// closed-loop client with a Duration, those it has); Span is how
	// long the schedule lasts: the last open-loop session's offset, or
	// Duration when that is later. With Elapsed they say how far the
	// run has gone.
	Sessions int
	Span     time.Duration
}

// Progress returns a snapshot of the current or last run (zero before the
// first). It is safe to call from any goroutine while Run is going on.
func (d *Driver) Progress() Progress {
	r := d.cur.Load()
	if r == nil {
		return Progress{}
	}
	return r.progress()
}

// stats holds a run's live counters.
type stats struct {
	sent, done, errors, dropped, queued atomic.Int64
	taken, takenTurns                   atomic.Int64 // closed-loop sessions and their requests
	launched                            atomic.Int64 // open-loop sessions

	haltedAt atomic.Int64 // elapsed ns when scheduling was stopped; -1 before
	endedAt  atomic.Int64 // elapsed ns when Run returned; -1 before

	mu    sync.Mutex // guards ttft and nTTFT
	ttft  [ttftWindow]int64
	nTTFT int // TTFTs ever added; the ring holds the last ttftWindow
}

// init marks the run as going on.
func (s *stats) init() {
	s.haltedAt.Store(-1)
	s.endedAt.Store(-1)
}

// count adds a finished or dropped record to the counters; ttft says
// whether its TTFT belongs in the median.
func (s *stats) count(rec *trace.Record, ttft bool) {
	switch {
	case rec.ErrorClass == trace.ErrDropped:
		s.dropped.Add(1)
		return
	case !rec.OK():
		s.errors.Add(1)
	}
	if ttft {
		s.mu.Lock()
		s.ttft[s.nTTFT%ttftWindow] = rec.TTFTUS
		s.nTTFT++
		s.mu.Unlock()
	}
	// done last, so InFlight never counts a finished request twice.
	s.done.Add(1)
}

// medianTTFT is the median of the TTFT ring (the lower middle value when
// their number is even).
func (s *stats) medianTTFT() time.Duration {
	s.mu.Lock()
	v := slices.Clone(s.ttft[:min(s.nTTFT, ttftWindow)])
	s.mu.Unlock()
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	return time.Duration(v[(len(v)-1)/2]) * time.Microsecond
}

// progress takes a snapshot of r.
func (r *run) progress() Progress {
	el := time.Since(r.start)
	if e := r.stats.endedAt.Load(); e >= 0 {
		el = time.Duration(e)
	}
	el = max(el, 0)
	due := el
	if h := r.stats.haltedAt.Load(); h >= 0 && time.Duration(h) < due {
		due = time.Duration(h)
	}
	// Open-loop sessions with AtUS ≤ due: the first offset past it.
	n, _ := slices.BinarySearch(r.d.dueUS, us(due)+1)
	p := Progress{
		Elapsed:   el,
		Scheduled: n + int(r.stats.taken.Load()),
		Started:   int(r.stats.launched.Load() + r.stats.taken.Load()),
		Done:      int(r.stats.done.Load()),
		Sent:      int(r.stats.sent.Load()),
		Queued:    int(r.stats.queued.Load()),
		Errors:    int(r.stats.errors.Load()),
		Dropped:   int(r.stats.dropped.Load()),
		TTFTp50:   r.stats.medianTTFT(),
		Sessions:  r.d.sessions,
		Span:      r.d.span,
	}
	p.InFlight = max(p.Sent-p.Done, 0)
	if sec := el.Seconds(); sec > 0 {
		p.TargetRate = float64(p.Scheduled) / sec
		p.AchievedRate = float64(p.Started) / sec
	}
	return p
}
