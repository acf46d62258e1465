package selftest

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"surge/client"
	"surge/driver"
	"surge/trace"
)

// Bounds on the sessions prepared for one point: enough for
// sessionsPerCPUSecond streamed requests per second and CPU (above what
// one core reaches), at most maxSessions. A faster machine runs out of
// sessions before the duration ends; its rate is then measured over the
// shorter window.
const (
	sessionsPerCPUSecond = 30_000
	maxSessions          = 1 << 20
)

// measure drives concurrency streams in a closed loop against url for
// opts.Duration, through the client and driver, encoding every record as
// JSON, and returns the rates of the requests that finished after the
// warmup (the first fifth), the requests in flight at the end of the
// duration included.
func measure(ctx context.Context, url string, concurrency int, opts Options) (Point, error) {
	cl, err := client.New(client.Config{BaseURL: url, MaxConns: concurrency})
	if err != nil {
		return Point{}, err
	}
	defer cl.Close()
	h := trace.Header{Text: true, Salt: trace.SaltNone,
		Clients: []trace.ClientInfo{{Name: "selftest", Model: "selftest", Concurrency: concurrency}}}
	d, err := driver.New(driver.Config{
		Client: cl, Stream: true, API: "completions",
		Duration: opts.Duration, Warmup: -1, Drain: 10 * time.Second,
	}, h, sessions(concurrency, opts))
	if err != nil {
		return Point{}, err
	}
	rw, err := trace.NewRecordWriter(io.Discard, trace.RunHeader{Target: url})
	if err != nil {
		return Point{}, err
	}
	sink := &counter{rw: rw, fromUS: opts.Duration.Microseconds() / 5, toUS: opts.Duration.Microseconds()}
	cpu, cpuErr := ReadCPU()
	start := time.Now()
	end, err := d.Run(ctx, start, sink)
	if err != nil {
		return Point{}, err
	}
	if end.Interrupted {
		return Point{}, fmt.Errorf("interrupted: %w", context.Cause(ctx))
	}
	p := sink.point(concurrency)
	if after, err := ReadCPU(); err == nil && cpuErr == nil {
		p.CPUSeconds = after.Sub(cpu).Total().Seconds()
	}
	return p, nil
}

// sessions returns the closed-loop sessions of one point: single
// completions requests of a short prompt and opts.Tokens tokens.
func sessions(concurrency int, opts Options) []*trace.Session {
	n := int(float64(sessionsPerCPUSecond*runtime.NumCPU()) * opts.Duration.Seconds())
	n = min(max(n, 4*concurrency), maxSessions)
	ss := make([]trace.Session, n)
	turns := make([]trace.Turn, n)
	out := make([]*trace.Session, n)
	for i := range ss {
		turns[i] = trace.Turn{InputTokens: 8, OutputTokens: opts.Tokens, MaxTokens: opts.Tokens,
			Prompt: "Count from one to a hundred, one number per line."}
		ss[i] = trace.Session{Client: "selftest", Index: i, Model: "selftest", API: "completions", Turns: turns[i : i+1 : i+1]}
		out[i] = &ss[i]
	}
	return out
}

// counter is the sink of a point: it encodes every record, as a run
// does, and counts those that finished at or after fromUS, the end of the
// warmup. No request starts after toUS, the end of the duration; those in
// flight then are counted, and the window reaches to the last of them, so
// a process starved of CPU for the whole duration still measures what it
// finished rather than nothing.
type counter struct {
	rw           *trace.RecordWriter
	fromUS, toUS int64

	mu     sync.Mutex // guards the counts: the driver writes from one goroutine at a time, but Progress may not
	ok     int
	failed int
	events int64
	lastUS int64 // latest finish of a counted request
}

// Write implements driver.Sink.
func (c *counter) Write(r *trace.Record) error {
	if err := c.rw.Write(r); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	done := r.SentUS + r.E2EUS
	switch {
	case !r.OK():
		c.failed++
	case done >= c.fromUS:
		c.ok++
		c.events += int64(r.Chunks)
		c.lastUS = max(c.lastUS, done)
	}
	return nil
}

// point returns the rates counted over [fromUS, end]: end is the last
// finish when it is after toUS (requests in flight at the end) or well
// before it (the sessions ran out early), and toUS otherwise.
func (c *counter) point(concurrency int) Point {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := Point{Concurrency: concurrency, Requests: c.ok, Failed: c.failed}
	end := c.toUS
	if c.lastUS > end || c.lastUS < end-end/20 {
		end = c.lastUS
	}
	if secs := float64(end-c.fromUS) / 1e6; secs > 0 && c.ok > 0 {
		p.Seconds = secs
		p.RequestsPerS = float64(c.ok) / secs
		p.TokenEventsPerS = float64(c.events) / secs
	}
	return p
}
