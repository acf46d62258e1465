package driver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"surge/client"
	"surge/content/vision"
	"surge/trace"
)

// Default drain windows, used when the Config leaves them at zero.
const (
	DefaultDrain          = 60 * time.Second
	DefaultInterruptDrain = 2 * time.Second
)

// Doer sends one request; *client.Client implements it. Do must return
// promptly once ctx is cancelled, and never return nil.
type Doer interface {
	Do(ctx context.Context, req *client.Request) *client.Result
}

var _ Doer = (*client.Client)(nil)

// Sink is trace.Sink, the one interface that receives a run's records;
// Run calls Write from one goroutine at a time, as requests finish.
type Sink = trace.Sink

// Config configures a Driver. Its zero value, with a Client, replays the
// trace as written: no concurrency cap, non-streaming requests, the trace's
// warmup, until the trace ends.
type Config struct {
	Client Doer // required
	Stream bool // send streaming (SSE) requests

	// API and Model override the trace's endpoint ("chat" or
	// "completions") and model name when non-empty.
	API, Model string

	// MaxConcurrency caps the open-loop requests in flight (0: no cap).
	// At the cap a request waits for a slot, recording the wait in QueueUS
	// while its IntendedUS stays the schedule's; with Drop it is shed
	// instead and recorded with error class "dropped".
	MaxConcurrency int
	Drop           bool

	// Warmup marks records intended before this offset as warmup. 0 takes
	// the trace header's warmup_us; a negative value marks none.
	Warmup time.Duration

	// Duration stops scheduling at this offset: open-loop sessions due at or
	// after it and closed-loop sessions not taken before it are not sent
	// (0: run until the trace ends).
	Duration time.Duration

	// Drain is how long, after scheduling stops, to wait for requests in
	// flight before cancelling them (0: DefaultDrain).
	Drain time.Duration

	// InterruptDrain is how long, after the context given to Run is
	// cancelled, to wait for requests in flight before cancelling them
	// (0: DefaultInterruptDrain).
	InterruptDrain time.Duration

	// Spin, when positive, makes the open-loop dispatcher stop sleeping
	// Spin before each send instant and yield the processor in a loop until
	// it arrives. A timer fires up to about 1 ms late on Linux, where Go's
	// poller sleeps in whole milliseconds, so without Spin the dispatcher's
	// timer is backed by a timerfd that wakes the poller at the instant
	// (see BENCHMARKS.md for the lags); a Spin of 1.5 ms brings them down
	// to tens of µs at the cost of up to a whole core once sends are
	// closer together than Spin.
	Spin time.Duration

	// Count, when set, counts the tokens of a prompt for
	// Record.ClientInputTokens; it must be safe for concurrent use and is
	// called after the request finished, off the send path. When nil the
	// trace's InputTokens are trusted (surge traces are exact).
	Count func(text string) int

	// Salt is put before the first message of every conversation (and
	// every completions prompt), so that this run's prompts share no
	// prefix with an earlier run's. It takes the place of the message's
	// first SaltTokens tokens, so that prompts keep the lengths the trace
	// gives: Cut returns what a first message keeps behind the salt (see
	// content.MakeRoom), false when no cut keeps it exact. New cuts the
	// first messages the trace holds, and refuses (with a *SaltError) a
	// trace with one shorter than the salt or one Cut fails on; a message
	// written at send time (Expand) that Cut fails on is sent whole
	// behind the salt, and recorded that much longer. Empty: no salt.
	Salt       string
	SaltTokens int
	Cut        func(first string) (string, bool)

	// Expand, when set, writes the prompt text of turns that have none
	// (a trace made without text, or imported with lengths only): turn k
	// of the session. It is called at send time, from many goroutines.
	// Without it such traces are refused.
	Expand func(s *trace.Session, k int) string

	// Retry says which failed requests are sent again, how often and
	// after what wait; the zero value never retries (see RetryPolicy).
	Retry RetryPolicy

	// ReasoningHint sends each turn's planned reasoning length as
	// surge_reasoning_tokens, and its planned copy fraction in the
	// Surge-Copy header (openai.SurgeCopyHeader), which only surge's
	// built-in engine knows: set it for that engine alone.
	ReasoningHint bool

	// ExtraBody is a JSON object merged into the body of every request
	// (vllm bench's --extra-body), over the members the trace's clients
	// give (trace.ClientInfo.ExtraBody): a member of a name either has
	// replaces surge's own.
	ExtraBody []byte

	// Images encodes the images the trace's turns carry, at send time;
	// nil: a cache of vision.DefaultCacheBytes for the run (see
	// vision.Cache for what one image costs).
	Images *vision.Cache
}

// Driver sends the sessions of one trace. Progress may be called from any
// goroutine; a Run started while another is going on is refused.
type Driver struct {
	cfg    Config
	warmup time.Duration // resolved: records intended before it are warmup

	open      []*trace.Session   // open-loop sessions before Duration, by AtUS
	dueUS     []int64            // their offsets, for Progress
	closed    []loop             // closed-loop clients with sessions
	scheduled int                // requests the run means to send, if known up front
	sessions  int                // sessions to schedule, for Progress
	span      time.Duration      // how long the schedule lasts, for Progress
	models    map[string]string  // header model of each client, the last fallback
	options   map[string]options // each client's headers and extra body
	pinned    map[string]bool    // clients whose conversations carry the trace's replies
	windows   []trace.FaultWindow
	salt      *salting // nil: none
	images    *vision.Cache

	running atomic.Bool
	cur     atomic.Pointer[run] // the current or last run, for Progress
}

// loop is one closed-loop client: its workers take sessions in index order.
type loop struct {
	name     string
	workers  int
	sessions []*trace.Session
}

// New prepares a run of sessions, which come from the trace with header h.
// It checks the configuration and every session (known client, prompt
// text, endpoint and model) and reports every problem found.
func New(cfg Config, h trace.Header, sessions []*trace.Session) (*Driver, error) {
	cfg = cfg.withDefaults()
	if err := validate(cfg, h, sessions); err != nil {
		return nil, fmt.Errorf("driver: %w", err)
	}
	salt, err := newSalting(cfg, sessions)
	if err != nil {
		return nil, fmt.Errorf("driver: %w", err)
	}
	d := &Driver{cfg: cfg, warmup: warmupOf(cfg, h), windows: h.FaultWindows, salt: salt, images: cfg.Images}
	if d.images == nil {
		d.images = vision.NewCache(0, 0)
	}
	d.split(h, sessions)
	return d, nil
}

// withDefaults fills in the zero drain windows.
func (c Config) withDefaults() Config {
	if c.Drain == 0 {
		c.Drain = DefaultDrain
	}
	if c.InterruptDrain == 0 {
		c.InterruptDrain = DefaultInterruptDrain
	}
	c.Retry = c.Retry.withDefaults()
	return c
}

// warmupOf resolves the warmup window from the config and the header.
func warmupOf(cfg Config, h trace.Header) time.Duration {
	switch {
	case cfg.Warmup > 0:
		return cfg.Warmup
	case cfg.Warmup < 0:
		return 0
	}
	return time.Duration(h.WarmupUS) * time.Microsecond
}

// split sorts the sessions into the open-loop schedule and the closed-loop
// clients, and counts the requests the run means to send.
func (d *Driver) split(h trace.Header, sessions []*trace.Session) {
	byName := make(map[string]int, len(h.Clients))
	d.models = make(map[string]string, len(h.Clients))
	d.options = make(map[string]options, len(h.Clients))
	d.pinned = make(map[string]bool)
	for _, c := range h.Clients {
		d.models[c.Name] = c.Model
		d.options[c.Name] = newOptions(c, d.cfg.ExtraBody)
		d.pinned[c.Name] = c.History == trace.HistoryPinned
		if c.Concurrency > 0 {
			byName[c.Name] = len(d.closed)
			d.closed = append(d.closed, loop{name: c.Name, workers: c.Concurrency})
		}
	}
	for _, s := range sessions {
		if i, ok := byName[s.Client]; ok {
			d.closed[i].sessions = append(d.closed[i].sessions, s)
			if d.cfg.Duration <= 0 {
				d.scheduled += len(s.Turns)
			}
			continue
		}
		if d.cfg.Duration <= 0 || s.At() < d.cfg.Duration {
			d.open = append(d.open, s)
			d.scheduled += len(s.Turns)
		}
	}
	// Stable sorts keep the trace's order among equal offsets and indexes.
	slices.SortStableFunc(d.open, func(a, b *trace.Session) int { return cmp.Compare(a.AtUS, b.AtUS) })
	for i := range d.closed {
		slices.SortStableFunc(d.closed[i].sessions, func(a, b *trace.Session) int { return cmp.Compare(a.Index, b.Index) })
	}
	d.closed = slices.DeleteFunc(d.closed, func(l loop) bool { return len(l.sessions) == 0 })
	d.dueUS = make([]int64, len(d.open))
	for i, s := range d.open {
		d.dueUS[i] = s.AtUS
	}
	d.sessions, d.span = len(d.open), max(d.cfg.Duration, 0)
	if n := len(d.open); n > 0 {
		d.span = max(d.span, d.open[n-1].At())
	}
	for _, l := range d.closed {
		d.sessions += len(l.sessions)
	}
}

// errRunning is returned by Run when a run of the same Driver is going on.
var errRunning = errors.New("driver: Run called while a run is in progress")
