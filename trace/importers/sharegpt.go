package importers

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"surge/internal/linecount"
	"surge/trace"
)

// ShareGPTOptions name and pace the sessions of a ShareGPT import.
// Count is required; the rest may be left zero.
type ShareGPTOptions struct {
	Options
	// Count returns the number of tokens of a text in the tokenizer the
	// trace is written for (its header names it).
	Count func(string) int
	// Rate sends the conversations open loop, this many per second on
	// average, the first at 0; 0 leaves them all at 0, for a closed-loop
	// client. ShareGPT records no times.
	Rate float64
	// Even spaces the starts 1/Rate apart instead of as a Poisson process.
	Even bool
	// Seed seeds the Poisson process's gaps.
	Seed uint64
	// Think is the wait before each turn after the first, after the
	// previous turn finished (0: none; ShareGPT records none).
	Think time.Duration
	// MaxContext, when positive, ends a conversation before its first turn
	// whose input plus output exceeds it, and drops a conversation whose
	// first turn does: text cannot be cut without changing its lengths.
	MaxContext int
}

// shareGPTConversation is one conversation of a ShareGPT file.
type shareGPTConversation struct {
	ID       string            `json:"id"`
	Messages []shareGPTMessage `json:"conversations"`
}

// shareGPTMessage is one message: from human, gpt or system (and the
// aliases shareGPTRoles lists), value its text.
type shareGPTMessage struct {
	From  string `json:"from"`
	Value string `json:"value"`
}

// ShareGPT is a Source of the conversations of a ShareGPT file, read one
// at a time. It is not safe for concurrent use.
type ShareGPT struct {
	br        *bufio.Reader
	dec       *json.Decoder
	lines     *linecount.Reader
	base      int64 // bytes read before the decoder's first
	opts      ShareGPTOptions
	rng       *rand.Rand
	started   bool
	array     bool  // the file is a JSON array, not a sequence of objects
	n         int   // sessions returned
	atUS      int64 // start of the next session
	skipped   Skips
	truncated int // sessions cut short
	dropped   int // conversations whose first turn exceeds MaxContext
}

// NewShareGPT returns a Source of the ShareGPT conversations in r: a JSON
// array of {"id", "conversations": [{"from", "value"}, …]} objects (the
// ShareGPT_V3 layout), or such objects one after another (JSON Lines).
// Each conversation becomes a chat session of real text, as
// shareGPTTurns says, its starts paced by opts. A conversation that
// cannot be read as one (no answered human message, an unknown role) is a
// *RowError at the line where it starts, or with SkipBad skipped and
// counted; a JSON syntax error ends the import.
func NewShareGPT(r io.Reader, opts ShareGPTOptions) (*ShareGPT, error) {
	switch {
	case opts.Count == nil:
		return nil, errors.New("sharegpt: no token counter")
	case !(opts.Rate >= 0) || math.IsInf(opts.Rate, 0):
		return nil, fmt.Errorf("sharegpt: rate %g: want a rate per second ≥ 0", opts.Rate)
	case opts.Think < 0:
		return nil, fmt.Errorf("sharegpt: think time %v: want ≥ 0", opts.Think)
	case opts.MaxContext < 0 || opts.MaxContext == 1:
		return nil, fmt.Errorf("sharegpt: max context %d: want at least 2 tokens", opts.MaxContext)
	}
	lc := linecount.NewReader(r)
	br := bufio.NewReader(lc)
	return &ShareGPT{
		br: br, dec: json.NewDecoder(br), lines: lc, opts: opts,
		rng: rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x5348415245475054)),
	}, nil
}

// Next returns the next conversation's session, or io.EOF after the last.
func (sg *ShareGPT) Next() (*trace.Session, error) {
	for {
		raw, line, err := sg.nextRaw()
		if err != nil {
			if err != io.EOF {
				err = fmt.Errorf("%ssharegpt: %w", sg.prefix(), err)
			}
			return nil, err
		}
		s, err := sg.session(raw)
		if err == nil {
			return s, nil
		}
		if errors.Is(err, errTooLong) {
			sg.dropped++
			continue
		}
		re := &RowError{Name: sg.opts.Name, Line: line, Err: err}
		if !sg.opts.SkipBad {
			return nil, re
		}
		sg.skipped.add(re)
	}
}

// prefix returns "name: " for errors, or nothing without a name.
func (sg *ShareGPT) prefix() string {
	if sg.opts.Name == "" {
		return ""
	}
	return sg.opts.Name + ": "
}

// nextRaw returns the next conversation's JSON and the line it starts
// on, or io.EOF after the last.
func (sg *ShareGPT) nextRaw() (json.RawMessage, int, error) {
	if !sg.started {
		sg.started = true
		if err := sg.start(); err != nil {
			return nil, 0, err
		}
	}
	if !sg.dec.More() {
		if sg.array {
			if _, err := sg.dec.Token(); err != nil { // the closing ]
				return nil, 0, err
			}
		}
		return nil, 0, io.EOF
	}
	var raw json.RawMessage
	if err := sg.dec.Decode(&raw); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, 0, fmt.Errorf("conversation %d: %w", sg.n+sg.skipped.Rows+sg.dropped+1, err)
	}
	start := sg.base + sg.dec.InputOffset() - int64(len(raw))
	return raw, sg.lines.Line(start), nil
}

// start reads past a byte-order mark and white space to the file's
// first value: an array, whose [ it reads, or the first of a sequence of
// objects.
func (sg *ShareGPT) start() error {
	for {
		c, err := sg.br.ReadByte()
		switch {
		case err == io.EOF:
			return errors.New("empty file: want a JSON array of conversations")
		case err != nil:
			return err
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			sg.base++
			continue
		case c == 0xef && sg.base == 0:
			if bom, _ := sg.br.Peek(2); string(bom) == "\xbb\xbf" {
				sg.br.Discard(2)
				sg.base += 3
				continue
			}
		case c == '[':
			sg.array = true
			sg.br.UnreadByte()
			_, err := sg.dec.Token()
			return err
		case c == '{':
			return sg.br.UnreadByte()
		}
		return fmt.Errorf("starts with %q: want a JSON array of conversations", c)
	}
}

// errTooLong is a conversation whose first turn exceeds MaxContext.
var errTooLong = errors.New("first turn longer than the context")

// session builds the session of one conversation and counts it.
func (sg *ShareGPT) session(raw json.RawMessage) (*trace.Session, error) {
	var c shareGPTConversation
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("not a ShareGPT conversation: %w", err)
	}
	turns, cut, err := shareGPTTurns(c.Messages, sg.opts)
	if err != nil {
		if c.ID != "" && !errors.Is(err, errTooLong) {
			err = fmt.Errorf("conversation %q: %w", c.ID, err)
		}
		return nil, err
	}
	if cut {
		sg.truncated++
	}
	s := &trace.Session{Client: sg.opts.Client, Index: sg.n, Model: sg.opts.Model, API: "chat", Turns: turns}
	if sg.opts.Rate > 0 {
		s.AtUS = sg.atUS
		gap := 1 / sg.opts.Rate
		if !sg.opts.Even {
			gap = sg.rng.ExpFloat64() / sg.opts.Rate
		}
		sg.atUS += int64(math.Round(gap * 1e6))
	}
	sg.n++
	return s, nil
}

// Skipped returns the conversations skipped so far as malformed.
func (sg *ShareGPT) Skipped() Skips { return sg.skipped }

// Sessions returns how many sessions Next has returned.
func (sg *ShareGPT) Sessions() int { return sg.n }

// Truncated returns how many of the sessions returned were cut short: a
// message breaking the human/gpt alternation, an empty message, or a turn
// beyond MaxContext ended them early.
func (sg *ShareGPT) Truncated() int { return sg.truncated }

// Dropped returns how many conversations were left out because their
// first turn alone exceeds MaxContext.
func (sg *ShareGPT) Dropped() int { return sg.dropped }

// compile-time check that ShareGPT is a Source.
var _ Source = (*ShareGPT)(nil)
