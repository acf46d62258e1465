package importers

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"surge/trace"
)

// ColumnsOptions describe a generic request trace.
type ColumnsOptions struct {
	Options
	// Columns names the fields to read; At, Input and Output are required.
	Columns Columns
	// Unit is the unit of At: s (the default), ms, us, or iso for ISO 8601
	// date-times.
	Unit string
	// JSON reads JSON Lines, an object per line, instead of a CSV with a
	// header line.
	JSON bool
	// Rate, Even and Seed place the rows of a file without times (no
	// Columns.At): Rate a second on average, as a Poisson process from
	// Seed, or exactly 1/Rate apart with Even; with Rate 0 every row is
	// at 0, for a closed-loop replay.
	Rate float64
	Even bool
	Seed uint64
}

// Validate reports every problem with the options.
func (o ColumnsOptions) Validate() error {
	var errs []error
	if o.Columns.Input == "" || o.Columns.Output == "" {
		errs = append(errs, fmt.Errorf("columns %q: want at least input= and output=", o.Columns))
	}
	if o.Columns.At == "" && o.Columns.Session != "" {
		errs = append(errs, fmt.Errorf("columns %q: a session needs at=", o.Columns))
	}
	if !(o.Rate >= 0) || math.IsInf(o.Rate, 0) {
		errs = append(errs, fmt.Errorf("rate %g: want a rate per second ≥ 0", o.Rate))
	}
	if o.Unit != "" && !slices.Contains(TimeUnits, o.Unit) {
		errs = append(errs, fmt.Errorf("time unit %q: want one of %q", o.Unit, TimeUnits))
	}
	return errors.Join(errs...)
}

// ColumnSource is a Source of a generic request trace. It is not safe
// for concurrent use.
type ColumnSource struct {
	opts    ColumnsOptions
	fr      fieldReader
	clients clientIndex
	// Request mode: a Stream over the rows, last the client of the row it
	// returned last.
	st   *Stream
	last string
	// A file without times: its generator of gaps and the time so far.
	pace *rand.Rand
	at   float64
	// Session mode: the conversations, built at the first Next.
	built    bool
	sessions []*trace.Session
	skipped  Skips
	rows     int
}

// NewColumns returns a Source of the generic trace in r, a CSV with a
// header line or JSON Lines, reading the fields opts.Columns names.
//
// Without a session field, each row is a one-request session at its
// offset from the first row, asking for exactly its output (ignore_eos; 0
// asked as 1), rows read as Next asks and required in time order, as for
// the Azure traces. With one, the rows of a session become the turns of a
// conversation in time order, each continuing the one before (parent)
// after a wait of the gap between their arrivals, the session starting at
// its first row's offset from the file's earliest row; the whole file is
// read at the first Next (lengths and times, no text) and the sessions
// returned in start order. Either way a client field names each row's
// client (mapped into a-z0-9_.-, after Options.Client and a dot when it
// is set), sessions being numbered within their client; without one the
// client is Options.Client. The trace carries no text or content blocks.
func NewColumns(r io.Reader, opts ColumnsOptions) (*ColumnSource, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if opts.Unit == "" {
		opts.Unit = "s"
	}
	cs := &ColumnSource{opts: opts}
	if opts.JSON {
		cs.fr = newJSONFields(r, opts.Columns.names())
	} else {
		fr, err := newCSVFields(r, opts.Columns.names())
		if err != nil {
			return nil, err
		}
		cs.fr = fr
	}
	if opts.Columns.Session == "" {
		cs.st = newStream(cs, opts.Options)
	}
	if opts.Columns.At == "" {
		cs.pace = rand.New(rand.NewPCG(opts.Seed, 0x70616365)) // "pace"
	}
	return cs, nil
}

// placed returns the time of the next row of a file without times: the
// first at 0, the others a gap of mean 1/Rate later (Poisson, or exactly
// with Even); all at 0 without a rate.
func (cs *ColumnSource) placed() time.Duration {
	at := time.Duration(math.Round(cs.at * 1e9))
	if r := cs.opts.Rate; r > 0 {
		gap := 1 / r
		if !cs.opts.Even {
			gap = cs.pace.ExpFloat64() / r
		}
		cs.at += gap
	}
	return at
}

// next parses the next row into q, noting its client: the rows a Stream
// reads in request mode.
func (cs *ColumnSource) next(q *request) (int, error) {
	_, _, line, err := cs.row(q)
	return line, err
}

// row reads the next row into q and returns its client and session.
func (cs *ColumnSource) row(q *request) (client, session string, line int, err error) {
	f, line, err := cs.fr.next()
	if err != nil {
		return "", "", line, err
	}
	client, session, err = parseColumnRow(f, cs.opts.Columns, cs.opts.Unit, q)
	if err != nil {
		return "", "", line, rowError(line, err)
	}
	if cs.pace != nil {
		q.at = cs.placed()
	}
	cs.last = cs.clientName(client)
	return client, session, line, nil
}

// clientName returns the client of a row whose client field holds c.
func (cs *ColumnSource) clientName(c string) string {
	switch {
	case cs.opts.Columns.Client == "":
		return cs.opts.Client
	case cs.opts.Client != "":
		return cs.opts.Client + "." + c
	}
	return c
}

// Next returns the next session, or io.EOF after the last.
func (cs *ColumnSource) Next() (*trace.Session, error) {
	if cs.st != nil {
		s, err := cs.st.Next()
		if err != nil {
			return nil, err
		}
		s.Client = cs.last
		cs.clients.number(s)
		return s, nil
	}
	if !cs.built {
		cs.built = true
		if err := cs.build(); err != nil {
			return nil, err
		}
	}
	if len(cs.sessions) == 0 {
		return nil, io.EOF
	}
	s := cs.sessions[0]
	cs.sessions = cs.sessions[1:]
	cs.clients.number(s)
	return s, nil
}

// Clients returns the clients of the sessions returned so far, in order
// of first appearance.
func (cs *ColumnSource) Clients() []string { return cs.clients.names }

// Skipped returns the malformed rows skipped so far.
func (cs *ColumnSource) Skipped() Skips {
	if cs.st != nil {
		return cs.st.Skipped()
	}
	return cs.skipped
}

// conversationRow is one row of a conversation being gathered.
type conversationRow struct {
	at       time.Duration
	in, out  int
	line     int
	category string
}

// conversation gathers the rows of one session id.
type conversation struct {
	client string
	rows   []conversationRow
}

// build reads every row and makes the conversations, in start order.
func (cs *ColumnSource) build() error {
	convs := map[string]*conversation{}
	var order []*conversation
	var origin time.Duration
	for {
		var q request
		_, id, line, err := cs.row(&q)
		if err == io.EOF {
			break
		}
		var re *RowError
		switch {
		case errors.As(err, &re):
			re.Name = cs.opts.Name
			if !cs.opts.SkipBad {
				return re
			}
			cs.skipped.add(re)
			continue
		case err != nil:
			if cs.opts.Name != "" {
				err = fmt.Errorf("%s: %w", cs.opts.Name, err)
			}
			return err
		}
		if cs.rows == 0 || q.at < origin {
			origin = q.at
		}
		cs.rows++
		c := convs[id]
		if c == nil {
			c = &conversation{client: cs.last}
			convs[id] = c
			order = append(order, c)
		}
		c.rows = append(c.rows, conversationRow{at: q.at, in: q.in, out: q.out, line: line, category: q.category})
	}
	for _, c := range order {
		s := c.session(origin)
		s.Model = cs.opts.Model
		cs.sessions = append(cs.sessions, s)
	}
	// Stable: sessions starting together keep the order of their first rows.
	slices.SortStableFunc(cs.sessions, func(a, b *trace.Session) int { return cmp.Compare(a.AtUS, b.AtUS) })
	return nil
}

// session builds the conversation's session, its turns in time order,
// each after the one before it by the gap between their arrivals:
//
//	wait_k = at_k − at_{k−1},
//
// which holds the earlier turn's own serving time too, as the trace does
// not record when it ended.
func (c *conversation) session(origin time.Duration) *trace.Session {
	slices.SortStableFunc(c.rows, func(a, b conversationRow) int { return cmp.Compare(a.at, b.at) })
	s := &trace.Session{Client: c.client, API: "chat", AtUS: micros(c.rows[0].at - origin)}
	for k, r := range c.rows {
		out := max(r.out, 1)
		t := trace.Turn{InputTokens: r.in, OutputTokens: out, MaxTokens: out, MinTokens: out, IgnoreEOS: true, Category: r.category}
		if k > 0 {
			parent := k - 1
			t.Parent, t.WaitUS = &parent, micros(r.at-c.rows[k-1].at)
		}
		s.Turns = append(s.Turns, t)
	}
	return s
}

// micros rounds d to whole microseconds.
func micros(d time.Duration) int64 {
	return int64(math.Round(float64(d) / float64(time.Microsecond)))
}

// clientIndex numbers sessions within each client and lists the clients
// in order of first appearance.
type clientIndex struct {
	next  map[string]int
	names []string
}

// number sets s's index to the next of its client.
func (ci *clientIndex) number(s *trace.Session) {
	if ci.next == nil {
		ci.next = map[string]int{}
	}
	n, seen := ci.next[s.Client]
	if !seen {
		ci.names = append(ci.names, s.Client)
	}
	s.Index = n
	ci.next[s.Client] = n + 1
}

// compile-time check that ColumnSource is a Source.
var _ Source = (*ColumnSource)(nil)
