package virtual

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"surge/sim"
)

// Router picks the replica for each arriving request.
type Router int

const (
	// RoundRobin sends arrivals to replicas in turn; it is the zero value.
	RoundRobin Router = iota
	// LeastLoaded sends an arrival to the replica with the fewest requests
	// running or waiting, the lowest index among equals.
	LeastLoaded
)

// String returns "round-robin" or "least-loaded"; ParseRouter reads it back.
func (r Router) String() string {
	switch r {
	case RoundRobin:
		return "round-robin"
	case LeastLoaded:
		return "least-loaded"
	}
	return fmt.Sprintf("Router(%d)", int(r))
}

// ParseRouter reads a router name: round-robin (also rr) or least-loaded
// (also ll), case-insensitive.
func ParseRouter(s string) (Router, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "round-robin", "roundrobin", "rr", "":
		return RoundRobin, nil
	case "least-loaded", "leastloaded", "ll":
		return LeastLoaded, nil
	}
	return RoundRobin, fmt.Errorf("unknown router %q (want round-robin or least-loaded)", s)
}

// Config configures Run. Cost is required; every other zero field has a
// useful meaning.
type Config struct {
	// Engine configures every replica's engine (zero fields take the sim
	// defaults). Prefix caching is used only if Engine enables it.
	Engine sim.EngineConfig
	// Cost gives each step's duration; *sim.CostModel is safe to share
	// between replicas.
	Cost sim.Coster
	// Replicas is the number of engines serving the workload (0 means 1).
	Replicas int
	// Router picks a replica for each request.
	Router Router
	// Model overrides the model name written in records when non-empty.
	Model string
	// Warmup marks records intended before this offset as warmup, as the
	// driver does. 0 takes the trace header's warmup; negative marks none.
	Warmup time.Duration
	// Start is the wall-clock instant virtual time 0 stands for; RunEnd.End
	// is Start plus the simulated duration.
	Start time.Time
	// Observe, when set, is called with the engines' gauges at most once
	// per ObserveEvery of virtual time (0: one second), after the step
	// that crosses each interval: Running and Waiting summed over the
	// replicas, KVUsage their mean, counters summed. It serves a time
	// series of the server's state.
	Observe      func(at time.Duration, st sim.Stats)
	ObserveEvery time.Duration
	// Final, when set, is called once when the run ends, interrupted or
	// not, with the engines' state summed as for Observe: its counters
	// (preemptions, tokens, requests finished) are the whole run's.
	Final func(st sim.Stats)
}

// check returns cfg with defaults applied, or every problem found.
func (cfg Config) check() (Config, error) {
	var errs []error
	if cfg.Cost == nil {
		errs = append(errs, errors.New("no cost model"))
	}
	if cfg.Replicas < 0 {
		errs = append(errs, fmt.Errorf("replicas is %d, must not be negative", cfg.Replicas))
	}
	if cfg.Router != RoundRobin && cfg.Router != LeastLoaded {
		errs = append(errs, fmt.Errorf("unknown router %v", cfg.Router))
	}
	if cfg.Replicas == 0 {
		cfg.Replicas = 1
	}
	if err := errors.Join(errs...); err != nil {
		return cfg, fmt.Errorf("virtual config: %w", err)
	}
	return cfg, nil
}

// warmupOf resolves the warmup window from the config and the header's
// warmup in microseconds, as driver.Config does.
func warmupOf(cfg Config, headerUS int64) time.Duration {
	switch {
	case cfg.Warmup > 0:
		return cfg.Warmup
	case cfg.Warmup < 0:
		return 0
	}
	return time.Duration(headerUS) * time.Microsecond
}
