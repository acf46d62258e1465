// Package selftest measures how fast surge itself can stream on this
// machine: the real client and driver, with per-token timing and records
// encoded, against a zero-delay server that answers every request at once
// with a 64-token stream written in one write. The best rate it reaches is
// the machine's ceiling; Warn compares a run's requested rate and
// concurrency with it, and Load and Save keep it between runs.
//
// The server runs where Options.Target says: in a process of its own
// (ServeProcess, which `surge selftest` starts as a second surge process
// with StartProcess), as a real target would, or else in this one, which
// reads higher: one Go scheduler then serves client and server without
// the kernel's between them. Either way it shares the machine's cores with the client, so a
// target on another machine leaves surge more room.
package selftest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"
)

// Defaults of Options.
const (
	DefaultDuration = 3 * time.Second
	DefaultTokens   = 64
)

// DefaultConcurrencies are the concurrencies Run measures when
// Options.Concurrencies is empty.
var DefaultConcurrencies = []int{64, 512}

// Options configures Run; the zero value measures DefaultConcurrencies for
// DefaultDuration each with DefaultTokens-token streams.
type Options struct {
	// Concurrencies are the closed-loop concurrencies measured, one after
	// the other.
	Concurrencies []int
	// Duration is how long each concurrency is driven; the first fifth of
	// it is a warmup left out of the rates.
	Duration time.Duration
	// Tokens is the number of token events of every response.
	Tokens int
	// Version is recorded in the Result, to tell a cached figure of
	// another build.
	Version string
	// Target is the base URL of a zero-delay server to measure against,
	// one that Serve runs in another process; "" starts one in this
	// process.
	Target string
}

// withDefaults fills in the zero fields.
func (o Options) withDefaults() Options {
	if len(o.Concurrencies) == 0 {
		o.Concurrencies = DefaultConcurrencies
	}
	if o.Duration <= 0 {
		o.Duration = DefaultDuration
	}
	if o.Tokens <= 0 {
		o.Tokens = DefaultTokens
	}
	return o
}

// Check reports every concurrency, and a Duration, that is not positive,
// naming the flags of surge selftest. It checks the options as they are:
// Run fills in the zero ones' defaults before it checks.
func (o Options) Check() error {
	var errs []error
	for _, n := range o.Concurrencies {
		if n <= 0 {
			errs = append(errs, fmt.Errorf("--concurrency %d: must be positive", n))
		}
	}
	if o.Duration <= 0 {
		errs = append(errs, fmt.Errorf("--duration %s: must be positive", o.Duration))
	}
	return errors.Join(errs...)
}

// Point is what one concurrency reached.
type Point struct {
	Concurrency int `json:"concurrency"`
	// Requests completed without error within the measured window, and
	// the window's length.
	Requests int     `json:"requests"`
	Seconds  float64 `json:"seconds"`
	// RequestsPerS and TokenEventsPerS are the streamed requests and
	// token events (token-bearing SSE events) per second of the window.
	RequestsPerS    float64 `json:"requests_per_s"`
	TokenEventsPerS float64 `json:"token_events_per_s"`
	// Failed counts requests that did not succeed (none on a sound machine).
	Failed int `json:"failed,omitempty"`
	// CPUSeconds is the process's CPU time (user and system; with the
	// server in the process, the server's too) over the whole point,
	// warmup included.
	CPUSeconds float64 `json:"cpu_seconds"`
}

// Result is a self-test: the machine it ran on and each point.
type Result struct {
	Version string    `json:"version"`
	CPUs    int       `json:"cpus"`       // runtime.NumCPU
	Procs   int       `json:"gomaxprocs"` // runtime.GOMAXPROCS
	At      time.Time `json:"at"`
	Tokens  int       `json:"tokens"` // token events per response
	// SeparateServer says the server ran in a process of its own
	// (Options.Target), not in the client's.
	SeparateServer bool    `json:"separate_server,omitempty"`
	Points         []Point `json:"points"`
}

// Ceiling is the best point's streamed requests and token events per
// second; zero without points.
func (r Result) Ceiling() (reqPerS, eventsPerS float64) {
	for _, p := range r.Points {
		if p.RequestsPerS > reqPerS {
			reqPerS, eventsPerS = p.RequestsPerS, p.TokenEventsPerS
		}
	}
	return reqPerS, eventsPerS
}

// Run measures each of opts.Concurrencies in turn against opts.Target or
// a server of its own on a loopback port, and returns the points. It
// fails when the server cannot listen, a concurrency is not positive, or
// ctx ends first.
func Run(ctx context.Context, opts Options) (Result, error) {
	opts = opts.withDefaults()
	if err := opts.Check(); err != nil {
		return Result{}, fmt.Errorf("selftest: %w", err)
	}
	url := opts.Target
	if url == "" {
		srv, err := startServer(opts.Tokens)
		if err != nil {
			return Result{}, fmt.Errorf("selftest: %w", err)
		}
		defer srv.close()
		url = srv.url
	}
	res := Result{
		Version: opts.Version, CPUs: runtime.NumCPU(), Procs: runtime.GOMAXPROCS(0),
		At: time.Now().UTC(), Tokens: opts.Tokens, SeparateServer: opts.Target != "",
	}
	for _, c := range opts.Concurrencies {
		p, err := measure(ctx, url, c, opts)
		if err != nil {
			return res, fmt.Errorf("selftest: concurrency %d: %w", c, err)
		}
		res.Points = append(res.Points, p)
	}
	if r, _ := res.Ceiling(); r == 0 {
		return res, errors.New("selftest: no request succeeded")
	}
	return res, nil
}
