package importers

import (
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"surge/trace"
)

// Source yields imported sessions one at a time, in non-decreasing start
// order, so that a whole trace never has to be held in memory.
type Source interface {
	// Next returns the next session, or io.EOF after the last one.
	Next() (*trace.Session, error)
}

// Options name and shape the sessions of a request-level import. The zero
// value is valid: an anonymous client, no model, malformed rows refused.
type Options struct {
	// Name is the file's name, used in errors as name:line.
	Name string
	// Client and Model name the sessions' client and model; most traces
	// record no model, so an empty Model leaves it to surge run or sim.
	Client, Model string
	// Scope keeps the block ids of different files apart: an id of the
	// file becomes Scope<<40 | id (the files' ids are below 2⁴⁰).
	Scope uint64
	// SkipBad skips malformed and out-of-order rows, counting them in
	// Skipped, instead of stopping at the first.
	SkipBad bool
}

// RowError is a malformed row: the file, the line and what is wrong.
type RowError struct {
	Name string // the file, when Options.Name gave it
	Line int    // 1-based line of the row
	Err  error
}

// Error returns "name:line: err", or "line N: err" without a name.
func (e *RowError) Error() string {
	if e.Name == "" {
		return fmt.Sprintf("line %d: %v", e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.Name, e.Line, e.Err)
}

// Unwrap returns what is wrong with the row.
func (e *RowError) Unwrap() error { return e.Err }

// keptErrors is how many skipped rows Skips keeps in full.
const keptErrors = 5

// Skips counts the rows an import skipped and keeps the first few.
type Skips struct {
	Rows  int         // rows skipped
	First []*RowError // the first of them, at most 5
}

// add counts one skipped row.
func (s *Skips) add(e *RowError) {
	s.Rows++
	if len(s.First) < keptErrors {
		s.First = append(s.First, e)
	}
}

// maxTokens bounds a row's token counts as a trace bounds them
// (trace.MaxTokens), so that absurd values are refused with the row's
// line rather than by the trace writer.
const maxTokens = trace.MaxTokens

// maxOffset bounds a row's time from the trace's origin, ±10⁹ s (about 31
// years), well inside time.Duration's ±292 years.
const maxOffset = 1e9

// request is one request row of a request-level trace.
type request struct {
	at      time.Duration // arrival on the file's own clock; the origin is subtracted later
	in, out int
	// blocks are the row's full content blocks of blockTokens tokens
	// (blockTokens 0: the row has none), tail the id of its last block
	// when the prompt's end cuts that block short; the session takes
	// both, so a row must not share them.
	blocks      []uint64
	tail        *uint64
	blockTokens int
	category    string // the row's category (Columns.Category); "" for none
}

// rows reads the rows of one file. next parses the next row into q and
// returns its line; io.EOF at the end; a *RowError (its Name left to the
// Stream) for a malformed row, after which next may be called again; any
// other error is fatal.
type rows interface {
	next(q *request) (line int, err error)
}

// Stream turns the rows of a request-level trace into sessions of one
// request each, sent at the row's arrival measured from the first row's,
// asking for exactly the row's output (ignore_eos, at least 1 token).
// It is not safe for concurrent use.
type Stream struct {
	rows    rows
	opts    Options
	n       int // sessions returned
	origin  time.Duration
	last    time.Duration // arrival of the last row returned
	line    int           // its line
	skipped Skips
}

// newStream returns a Stream over rs.
func newStream(rs rows, opts Options) *Stream {
	return &Stream{rows: rs, opts: opts}
}

// Next returns the next row's session, or io.EOF after the last row. A
// malformed or out-of-order row is a *RowError, unless Options.SkipBad
// makes it skipped and counted.
func (st *Stream) Next() (*trace.Session, error) {
	var q request
	for {
		line, err := st.rows.next(&q)
		if err == nil {
			err = st.order(q.at, line)
		}
		if err == nil {
			st.line = line
			return st.session(&q), nil
		}
		var re *RowError
		if !errors.As(err, &re) {
			if err != io.EOF && st.opts.Name != "" {
				err = fmt.Errorf("%s: %w", st.opts.Name, err)
			}
			return nil, err
		}
		re.Name = st.opts.Name
		if !st.opts.SkipBad {
			return nil, re
		}
		st.skipped.add(re)
	}
}

// Skipped returns the rows skipped so far.
func (st *Stream) Skipped() Skips { return st.skipped }

// Sessions returns how many sessions Next has returned.
func (st *Stream) Sessions() int { return st.n }

// order checks that a row at arrival at, on line, comes no earlier than
// the last one returned: the trace writer needs sessions in start order,
// and a stream cannot sort without holding the whole file.
//
// It also checks that the row arrives within trace.MaxOffset of the first
// row, the longest offset a trace holds.
func (st *Stream) order(at time.Duration, line int) error {
	if st.n > 0 && at < st.last {
		return rowError(line, fmt.Errorf("arrival %v is before the previous row's (line %d) by %v: rows must be in time order",
			at-st.origin, st.line, st.last-at))
	}
	if st.n > 0 && at-st.origin > trace.MaxOffset {
		return rowError(line, fmt.Errorf("arrival %v after the first row's is past a year, the longest offset a trace holds (trace.MaxOffset): import a window of the file (--window)",
			(at-st.origin).Round(time.Second)))
	}
	return nil
}

// session builds the session of row q and counts it.
func (st *Stream) session(q *request) *trace.Session {
	if st.n == 0 {
		st.origin = q.at
	}
	st.last = q.at
	out := max(q.out, 1)
	t := trace.Turn{InputTokens: q.in, OutputTokens: out, MaxTokens: out, MinTokens: out, IgnoreEOS: true, Category: q.category}
	if q.blockTokens > 0 {
		scope := st.opts.Scope << 40
		for i := range q.blocks {
			q.blocks[i] |= scope
		}
		t.Blocks, t.BlockTokens = q.blocks, q.blockTokens
		if q.tail != nil {
			*q.tail |= scope
			t.TailBlock = q.tail
		}
	}
	s := &trace.Session{
		Client: st.opts.Client, Index: st.n, Model: st.opts.Model, API: "chat",
		AtUS:  int64(math.Round(float64(q.at-st.origin) / float64(time.Microsecond))),
		Turns: []trace.Turn{t},
	}
	st.n++
	return s
}

// rowError wraps err as a RowError of line.
func rowError(line int, err error) *RowError {
	return &RowError{Line: line, Err: err}
}

// checkTokens checks a row's token counts: input at least 1, output at
// least 0 (asked as 1), both at most maxTokens.
func checkTokens(in, out int) error {
	switch {
	case in < 1 || in > maxTokens:
		return fmt.Errorf("input %d tokens: want 1 to %d (trace.MaxTokens)", in, maxTokens)
	case out < 0 || out > maxTokens:
		return fmt.Errorf("output %d tokens: want 0 to %d (trace.MaxTokens)", out, maxTokens)
	}
	return nil
}

// seconds converts a time in seconds to a Duration, refusing what is not
// finite or beyond ±maxOffset seconds.
func seconds(s float64) (time.Duration, error) {
	if math.IsNaN(s) || math.Abs(s) > maxOffset {
		return 0, fmt.Errorf("time %g s: want a finite time within ±%g s", s, float64(maxOffset))
	}
	return time.Duration(math.Round(s * 1e9)), nil
}

// compile-time check that Stream is a Source.
var _ Source = (*Stream)(nil)
