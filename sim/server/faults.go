package server

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// FaultKind names one way the server misbehaves on purpose.
type FaultKind uint8

// The fault kinds. The package doc describes what each does on the wire.
const (
	// FaultStatus answers a completion request with an HTTP error status
	// (Fault.Status) instead of serving it.
	FaultStatus FaultKind = iota + 1
	// FaultStallHeaders holds a request for Fault.Stall before any byte of
	// the response is sent.
	FaultStallHeaders
	// FaultStallStream pauses a stream for Fault.Stall after some of its
	// chunks.
	FaultStallStream
	// FaultReset closes the connection with a TCP reset before any byte of
	// the response is sent.
	FaultReset
	// FaultResetStream closes the connection after some chunks of a stream,
	// leaving the chunked body unterminated.
	FaultResetStream
	// FaultBrokenSSE writes one malformed event (a chunk's JSON cut in
	// half) into a stream, which then continues normally.
	FaultBrokenSSE
)

// faultNames are the kinds' names in the flag syntax.
var faultNames = map[FaultKind]string{
	FaultStatus: "status", FaultStallHeaders: "stall-headers", FaultStallStream: "stall-stream",
	FaultReset: "reset", FaultResetStream: "reset-stream", FaultBrokenSSE: "broken-sse",
}

// String returns the kind's name in the flag syntax, e.g. "stall-stream".
func (k FaultKind) String() string {
	if n, ok := faultNames[k]; ok {
		return n
	}
	return "FaultKind(" + strconv.Itoa(int(k)) + ")"
}

// streams reports whether the kind acts inside an SSE stream, and so only
// on streamed requests.
func (k FaultKind) streams() bool {
	return k == FaultStallStream || k == FaultResetStream || k == FaultBrokenSSE
}

// Window is a span of offsets from the server's start during which a fault
// may fire. The zero Window is always open. With Every = 0 it is
// [From, To), or [From, ∞) when To is 0; with Every > 0 it repeats:
// [From + k·Every, To + k·Every) for k = 0, 1, 2, ….
type Window struct {
	From, To, Every time.Duration
}

// Contains reports whether offset t lies in the window: t ≥ From and, with
// a period, (t − From) mod Every < To − From.
func (w Window) Contains(t time.Duration) bool {
	switch {
	case t < w.From:
		return false
	case w.Every > 0:
		return (t-w.From)%w.Every < w.To-w.From
	default:
		return w.To == 0 || t < w.To
	}
}

// String returns the window in the flag syntax, "10s-20s", "10s-" or
// "10s-20s/1m0s"; the zero window is "".
func (w Window) String() string {
	if w == (Window{}) {
		return ""
	}
	s := w.From.String() + "-"
	if w.To > 0 {
		s += w.To.String()
	}
	if w.Every > 0 {
		s += "/" + w.Every.String()
	}
	return s
}

// validate checks the window's bounds.
func (w Window) validate() error {
	switch {
	case w.From < 0:
		return fmt.Errorf("window %s starts before the server does", w)
	case w.To != 0 && w.To <= w.From:
		return fmt.Errorf("window %s ends before it starts", w)
	case w.Every < 0:
		return fmt.Errorf("window %s has a negative period", w)
	case w.Every > 0 && w.To == 0:
		return fmt.Errorf("window %s repeats but has no end; give one, e.g. 10s-20s/1m", w)
	case w.Every > 0 && w.To-w.From > w.Every:
		return fmt.Errorf("window %s is longer than its period", w)
	}
	return nil
}

// Fault is one rule: each completion request the rule applies to (stream
// kinds apply to streamed requests only) arriving while Window is open
// draws the fault with probability Prob, independently of other rules.
type Fault struct {
	Kind   FaultKind
	Status int           // FaultStatus: the status code, 400–599
	Stall  time.Duration // FaultStallHeaders and FaultStallStream: the pause
	Prob   float64       // in (0, 1]
	Window Window
}

// String returns the rule in the flag syntax, e.g. "status=429:0.1@10s-20s".
func (f Fault) String() string {
	s := f.Kind.String()
	switch f.Kind {
	case FaultStatus:
		s += "=" + strconv.Itoa(f.Status)
	case FaultStallHeaders, FaultStallStream:
		s += "=" + f.Stall.String()
	}
	if f.Prob != 1 {
		s += ":" + strconv.FormatFloat(f.Prob, 'g', -1, 64)
	}
	if w := f.Window.String(); w != "" {
		s += "@" + w
	}
	return s
}

// validate checks one rule.
func (f Fault) validate() error {
	var errs []error
	switch f.Kind {
	case FaultStatus:
		if f.Status < 400 || f.Status > 599 {
			errs = append(errs, fmt.Errorf("status %d is not an HTTP error status; want 400–599", f.Status))
		}
	case FaultStallHeaders, FaultStallStream:
		if f.Stall <= 0 {
			errs = append(errs, fmt.Errorf("%s needs a positive pause, got %v", f.Kind, f.Stall))
		}
	case FaultReset, FaultResetStream, FaultBrokenSSE:
	default:
		errs = append(errs, fmt.Errorf("unknown fault kind %d", f.Kind))
	}
	if !(f.Prob > 0 && f.Prob <= 1) {
		errs = append(errs, fmt.Errorf("probability %g is outside (0, 1]", f.Prob))
	}
	if err := f.Window.validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Restart is a simulated engine restart: at offset At from the server's
// start every request in flight is dropped (its connection closed), the
// engine is replaced by an empty one (KV cache and prefix cache freed),
// and for Down every request is refused with 503 and a Retry-After of the
// time left, /health included (not /metrics).
type Restart struct {
	At, Down time.Duration
}

// String returns the restart in the flag syntax, "restart=5s@30s".
func (r Restart) String() string { return "restart=" + r.Down.String() + "@" + r.At.String() }

// DefaultRetryAfter is the Retry-After sent with injected 429 and 503
// answers when Faults.RetryAfter is zero.
const DefaultRetryAfter = time.Second

// Faults configures deliberate misbehaviour; the zero value injects none.
// ParseFaults reads it from the flag syntax and String writes it back.
type Faults struct {
	Rules    []Fault
	Restarts []Restart
	// RetryAfter is the Retry-After sent with injected 429 and 503
	// answers, rounded up to whole seconds: zero means DefaultRetryAfter,
	// negative sends no header.
	RetryAfter time.Duration
}

// Enabled reports whether f injects anything.
func (f Faults) Enabled() bool { return len(f.Rules)+len(f.Restarts) > 0 }

// String returns f in the flag syntax: rules, then retry-after when set,
// then restarts; "" when f is zero. ParseFaults(f.String()) gives f back.
func (f Faults) String() string {
	var items []string
	for _, r := range f.Rules {
		items = append(items, r.String())
	}
	switch {
	case f.RetryAfter < 0:
		items = append(items, "retry-after=0s")
	case f.RetryAfter > 0:
		items = append(items, "retry-after="+f.RetryAfter.String())
	}
	for _, r := range f.Restarts {
		items = append(items, r.String())
	}
	return strings.Join(items, ",")
}

// Validate reports every problem with f.
func (f Faults) Validate() error {
	var errs []error
	for i, r := range f.Rules {
		if err := r.validate(); err != nil {
			errs = append(errs, fmt.Errorf("fault rule %d (%s): %w", i+1, r, err))
		}
	}
	rs := slices.Clone(f.Restarts)
	slices.SortFunc(rs, func(a, b Restart) int { return cmp.Compare(a.At, b.At) })
	for i, r := range rs {
		switch {
		case r.At < 0 || r.Down <= 0:
			errs = append(errs, fmt.Errorf("%s: want a positive downtime at a non-negative offset", r))
		case i > 0 && r.At < rs[i-1].At+rs[i-1].Down:
			errs = append(errs, fmt.Errorf("%s starts while %s is still down", r, rs[i-1]))
		}
	}
	return errors.Join(errs...)
}

// retryAfter returns the Retry-After header value for injected statuses,
// or "" for none.
func (f Faults) retryAfter() string {
	switch {
	case f.RetryAfter < 0:
		return ""
	case f.RetryAfter == 0:
		return seconds(DefaultRetryAfter)
	}
	return seconds(f.RetryAfter)
}

// seconds formats d as whole seconds rounded up, at least 1, as
// Retry-After wants.
func seconds(d time.Duration) string {
	return strconv.FormatInt(max(int64((d+time.Second-1)/time.Second), 1), 10)
}
