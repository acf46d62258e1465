package importers

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"surge/trace"
)

// burstColumns are the columns of a BurstGPT CSV the import reads; Total
// tokens, their sum, is not needed.
var burstColumns = []string{"Timestamp", "Model", "Request tokens", "Response tokens", "Log Type"}

// errFailed marks a BurstGPT row of a failed request (no response tokens).
var errFailed = errors.New("failed request: 0 response tokens")

// BurstGPT is a Source of the requests of a BurstGPT CSV, a client per
// model and log type. It is not safe for concurrent use.
type BurstGPT struct {
	st      *Stream
	prefix  string // Options.Client and a dot, or nothing
	last    string // the client of the row last parsed
	clients clientIndex
	failed  int
}

// NewBurstGPT returns a Source of the BurstGPT trace CSV in r
// (Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type;
// Timestamp in seconds from the trace's start): a session per row at its
// offset from the first row, asking for Request tokens of input and
// exactly Response tokens of output, its client named after the row's
// model and log type (see BurstGPTClient). Rows with 0 response tokens,
// BurstGPT's failed requests, are left out and counted (Failed), not
// asked as 1 token: they record no generation to replay. The published
// files hold no conversation ids, so every row is a request of its own.
// It reads the header now and the rows as Next asks.
func NewBurstGPT(r io.Reader, opts Options) (*BurstGPT, error) {
	b := &BurstGPT{}
	if opts.Client != "" {
		b.prefix = opts.Client + "."
	}
	cr, err := newCSVRows(r, "burstgpt", burstColumns, b.parse)
	if err != nil {
		return nil, err
	}
	b.st = newStream(&burstRows{cr: cr, b: b}, opts)
	return b, nil
}

// Next returns the next request's session, or io.EOF after the last; a
// malformed or out-of-order row is a *RowError unless Options.SkipBad.
func (b *BurstGPT) Next() (*trace.Session, error) {
	s, err := b.st.Next()
	if err != nil {
		return nil, err
	}
	s.Client = b.last
	b.clients.number(s)
	return s, nil
}

// Clients returns the clients of the sessions returned so far, in order
// of first appearance.
func (b *BurstGPT) Clients() []string { return b.clients.names }

// Failed returns how many rows of failed requests were left out.
func (b *BurstGPT) Failed() int { return b.failed }

// Skipped returns the malformed rows skipped so far.
func (b *BurstGPT) Skipped() Skips { return b.st.Skipped() }

// Sessions returns how many sessions Next has returned.
func (b *BurstGPT) Sessions() int { return b.st.Sessions() }

// parse parses the fields Timestamp, Model, Request tokens, Response
// tokens and Log Type of a row into q, noting its client.
func (b *BurstGPT) parse(f []string, q *request) error {
	s, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return fmt.Errorf("timestamp %q: want seconds", f[0])
	}
	if q.at, err = seconds(s); err != nil {
		return fmt.Errorf("timestamp: %w", err)
	}
	if err := parseTokens(f[2], f[3], q); err != nil {
		return err
	}
	if q.out == 0 {
		return errFailed
	}
	b.last = b.prefix + BurstGPTClient(f[1], f[4])
	return nil
}

// BurstGPTClient names the client of a model and log type: both
// lowercased, joined by a dash, every run of characters outside a-z, 0-9,
// '_', '.' and '-' made one '_' (the spec's client-name alphabet), so
// ChatGPT and "Conversation log" give chatgpt-conversation_log.
func BurstGPTClient(model, logType string) string {
	return clientPart(model) + "-" + clientPart(logType)
}

// clientPart maps s into the client-name alphabet; an empty result is
// "unknown".
func clientPart(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-' {
			b.WriteRune(r)
			under = false
			continue
		}
		if !under {
			b.WriteByte('_')
			under = true
		}
	}
	if b.Len() == 0 {
		return "unknown"
	}
	return b.String()
}

// burstRows reads the rows of a BurstGPT CSV, leaving out and counting
// those of failed requests.
type burstRows struct {
	cr *csvRows
	b  *BurstGPT
}

// next parses the next row that is not a failed request.
func (br *burstRows) next(q *request) (int, error) {
	for {
		line, err := br.cr.next(q)
		if !errors.Is(err, errFailed) {
			return line, err
		}
		br.b.failed++
	}
}

// compile-time check that BurstGPT is a Source.
var _ Source = (*BurstGPT)(nil)
