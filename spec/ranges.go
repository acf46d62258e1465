package spec

import (
	"time"

	"github.com/goccy/go-yaml/ast"
)

// Ranges of a spec's values. Parse refuses a value past a Max (no run
// can do it: a trace refuses the offsets, or memory the tables), and
// warns, in Spec.Warnings, of a value past a warning threshold: legal,
// but more than a measurement needs, and likely a mistake of unit.
const (
	// MaxDuration bounds every duration of a spec (the run's, the warmup,
	// stage and spike times, think times, SLO bounds): a year, the longest
	// offset a trace holds (trace.MaxOffset).
	MaxDuration = 366 * 24 * time.Hour

	// MaxRequests bounds the top-level requests: a billion sessions, a
	// trace of hundreds of gigabytes.
	MaxRequests = 1_000_000_000

	// MaxRate bounds every rate of a spec, per second: a million requests
	// a second, more than any cluster of surge processes sends.
	MaxRate = 1e6

	// MaxConcurrency bounds a closed-loop client's sessions in flight, as
	// a trace does (trace.MaxConcurrency).
	MaxConcurrency = 1_000_000

	// MaxPool bounds a prefix pool's distinct system prompts: the pool's
	// table takes 8 bytes a prompt, as MaxDocuments bounds a RAG pool.
	MaxPool = 1_000_000
)

// Thresholds past which Parse warns.
const (
	warnDuration    = 31 * 24 * time.Hour // a run of over a month
	warnRequests    = 10_000_000          // a trace of gigabytes, which surge run holds in memory
	warnRate        = 10_000              // more than one surge process sends (surge selftest measures it)
	warnConcurrency = 10_000              // streams in flight from one client
)

// warnf records a warning at node n.
func (d *decoder) warnf(n ast.Node, path, format string, args ...any) {
	w := &decoder{file: d.file}
	w.errorf(n, path, format, args...)
	d.warns = append(d.warns, w.errs...)
}

// duration reads a duration like 30s, refusing one longer than
// MaxDuration.
func (d *decoder) duration(n ast.Node, path string) (time.Duration, bool) {
	v, ok := parsed(d, n, path, "a duration like 30s", ParseDuration)
	if ok && v > MaxDuration {
		d.errorf(d.value(n, path), path, "%s is longer than a year (spec.MaxDuration), the longest a trace holds", FormatDuration(v))
		return 0, false
	}
	return v, ok
}

// rate reads a rate like 5/s, returned per second, refusing one above
// MaxRate and warning above warnRate.
func (d *decoder) rate(n ast.Node, path string) (float64, bool) {
	v, ok := parsed(d, n, path, "a rate like 5/s", ParseRate)
	switch {
	case ok && v > MaxRate:
		d.errorf(d.value(n, path), path, "%.3g/s is above a million a second (spec.MaxRate), more than any set of surge processes sends; is the unit right (/s, /m, /h)?", v)
		return 0, false
	case ok && v > warnRate:
		d.warnf(d.value(n, path), path, "%.3g/s is more than one surge process sends (surge selftest measures this machine; surge k8s shards a run)", v)
	}
	return v, ok
}

// countIn checks a count read from key of o against 1…limit (named by
// max), warning above warn (0: never); it reports whether the count is in
// range.
func (d *decoder) countIn(o *object, key string, v, limit int, max string, warn int, why string) bool {
	n, path, _ := o.get(key)
	switch {
	case v < 1:
		d.errorf(d.value(n, path), path, "%s must be at least 1", key)
		return false
	case v > limit:
		d.errorf(d.value(n, path), path, "%s %d is more than %d (%s)", key, v, limit, max)
		return false
	case warn > 0 && v > warn:
		d.warnf(d.value(n, path), path, "%s %d is more than %d: %s", key, v, warn, why)
	}
	return true
}

// warnRun warns of a run length past warnDuration: the duration, or,
// without one, the requests over the open-loop rates when they are
// constant and known.
func (d *decoder) warnRun(s *Spec, o *object) {
	if s.Duration > warnDuration {
		n, path, _ := o.get("duration")
		d.warnf(d.value(n, path), path, "a run of %s, over a month", FormatDuration(s.Duration))
		return
	}
	if s.Duration > 0 || s.Requests == 0 {
		return
	}
	total := 0.0
	for _, c := range s.Clients {
		if c.Concurrency > 0 {
			return // a closed-loop client's time is unknown
		}
		total += c.Arrival.Rate
	}
	if total <= 0 {
		return
	}
	span := float64(s.Requests) / total // seconds
	n, path, _ := o.get("requests")
	switch {
	case span > MaxDuration.Seconds():
		d.warnf(d.value(n, path), path, "%d requests at %.3g/s take more than a year, and a trace ends at a year (spec.MaxDuration); give a duration, or a higher rate", s.Requests, total)
	case span > warnDuration.Seconds():
		d.warnf(d.value(n, path), path, "%d requests at %.3g/s take about %s, over a month; give a duration, or a higher rate", s.Requests, total, FormatDuration(time.Duration(span)*time.Second))
	}
}

// maxFaultTokens bounds an over_context fault's prompt, as a trace bounds
// every token count (trace.MaxTokens).
const maxFaultTokens = 10_000_000
