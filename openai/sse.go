package openai

import (
	"bytes"
	"fmt"
	"time"
)

// Event is one Server-Sent Event. Its slices alias the Parser's buffers and
// stay valid until the next call to the Parser.
type Event struct {
	// Name is the event's type from an "event:" field; empty means
	// "message". A non-standard "error:" field, which some llama-server
	// builds send instead of a data line, names the event "error".
	Name []byte
	// Data is the event's "data:" lines joined with '\n' (and any
	// "error:" lines with them).
	Data []byte
}

// Done reports whether e is the "[DONE]" sentinel that ends OpenAI streams.
func (e *Event) Done() bool {
	return string(bytes.TrimSpace(e.Data)) == "[DONE]"
}

// IsError reports whether the event's type is "error".
func (e *Event) IsError() bool { return string(e.Name) == "error" }

// Parser splits a Server-Sent Events stream into events as its bytes
// arrive, following the WHATWG event-stream grammar: lines end in "\n",
// "\r\n" or "\r"; a blank line dispatches the event; "data:" lines are joined
// with '\n'; lines starting with ':' are comments; one space after a field's
// colon is dropped; "event:", "id:" and "retry:" fields are parsed; a leading
// byte-order mark is skipped; an event without data is not dispatched.
// Events and lines may be split across reads at any byte, and a line may be
// megabytes long unless Limit says otherwise.
//
// Use: for every read, Feed the bytes, then call Next until it reports
// false; the events Next returns are exactly those that read completed, so
// the read's arrival time is theirs. At the end of the stream call Finish.
//
// The zero Parser is ready to use. A Parser is not safe for concurrent use.
type Parser struct {
	// Limit caps the bytes held for one event: a line, and the data of
	// an event, may each be at most Limit bytes long (0: no cap). Past
	// it the parser stops: Next and Finish report no more events and
	// Err returns an *EventTooLargeError, so a stream that never ends
	// its line costs at most about Limit bytes, not the whole stream.
	// Reset keeps it.
	Limit int

	err   *EventTooLargeError // the cap was passed; nothing more is parsed
	in    []byte              // the unparsed rest of the last Feed
	line  []byte              // an incomplete line carried over between feeds
	data  []byte              // the pending event's data
	name  []byte              // the pending event's type
	id    []byte              // the last event ID
	retry time.Duration

	noLF       bool // in holds no '\n' (saves rescanning a CR-only stream)
	hasData    bool // data holds at least one data line
	skipLF     bool // the last line ended in '\r', so a leading '\n' is part of that line end
	started    bool // a line has been seen, so a BOM can no longer appear
	dispatched bool // data and name were handed out by the last call
}

// bom is the UTF-8 byte-order mark a stream may start with.
const bom = "\xEF\xBB\xBF"

// Feed gives the parser the next bytes of the stream. It keeps b until Next
// reports false, so b must not change before then; it copies only a
// trailing incomplete line. Feed panics if the previous bytes have not been
// consumed by Next.
func (p *Parser) Feed(b []byte) {
	if len(p.in) > 0 {
		panic("openai: Parser.Feed called before Next drained the previous bytes")
	}
	p.in = b
	p.noLF = false
}

// Next returns the next event completed by the bytes fed so far, or false
// when they complete no more events.
func (p *Parser) Next() (Event, bool) {
	p.release()
	for len(p.in) > 0 && p.err == nil {
		if p.skipLF {
			p.skipLF = false
			if p.in[0] == '\n' {
				p.in = p.in[1:]
				continue
			}
		}
		end := p.lineEnd()
		if end < 0 {
			if !p.fits(len(p.line)+len(p.in), p.line, p.in) {
				break
			}
			p.line = append(p.line, p.in...)
			p.in = nil
			break
		}
		if !p.fits(len(p.line)+end, p.line, p.in[:end]) {
			break
		}
		line := p.in[:end]
		if len(p.line) > 0 {
			p.line = append(p.line, line...)
			line = p.line
		}
		p.skipLF = p.in[end] == '\r'
		p.in = p.in[end+1:]
		ev, ok := p.processLine(line)
		p.line = p.line[:0]
		if ok {
			return ev, true
		}
	}
	if p.err != nil {
		p.in = nil
	}
	return Event{}, false
}

// Finish ends the stream. It is lenient where the specification discards:
// an unterminated last line is taken as complete and a pending event is
// dispatched even without the blank line that should end it, so a server
// that closes right after "data: [DONE]" is understood. Call Next until it
// reports false before calling Finish.
func (p *Parser) Finish() (Event, bool) {
	p.release()
	if p.err != nil {
		return Event{}, false
	}
	if len(p.line) > 0 {
		ev, ok := p.processLine(p.line)
		p.line = p.line[:0]
		if ok || p.err != nil {
			return ev, ok
		}
	}
	return p.dispatch()
}

// Err returns the *EventTooLargeError that stopped the parser, or nil.
func (p *Parser) Err() error {
	if p.err == nil {
		return nil
	}
	return p.err
}

// LastID returns the value of the last "id:" field, as the specification
// keeps it across events.
func (p *Parser) LastID() []byte { return p.id }

// Retry returns the last "retry:" field's reconnection time, or 0.
func (p *Parser) Retry() time.Duration { return p.retry }

// Reset makes p ready for a new stream, keeping its buffers unless a huge
// line made them large.
func (p *Parser) Reset() {
	const keep = 1 << 20
	line, data := p.line[:0], p.data[:0]
	if cap(line) > keep {
		line = nil
	}
	if cap(data) > keep {
		data = nil
	}
	*p = Parser{Limit: p.Limit, line: line, data: data, name: p.name[:0], id: p.id[:0]}
}

// release clears the event handed out by the previous call.
func (p *Parser) release() {
	if p.dispatched {
		p.dispatched = false
		p.data = p.data[:0]
		p.name = p.name[:0]
		p.hasData = false
	}
}

// lineEnd returns the index of the first '\r' or '\n' in p.in, or -1.
func (p *Parser) lineEnd() int {
	n := -1
	if !p.noLF {
		n = bytes.IndexByte(p.in, '\n')
		p.noLF = n < 0
	}
	search := p.in
	if n >= 0 {
		search = p.in[:n]
	}
	if r := bytes.IndexByte(search, '\r'); r >= 0 {
		return r
	}
	return n
}

// processLine interprets one complete line, reporting an event when the line
// is blank and data is pending.
func (p *Parser) processLine(line []byte) (Event, bool) {
	if !p.started {
		p.started = true
		line = bytes.TrimPrefix(line, []byte(bom))
	}
	if len(line) == 0 {
		return p.dispatch()
	}
	if line[0] == ':' {
		return Event{}, false // a comment, such as ": keep-alive"
	}
	field, value := line, []byte(nil)
	if c := bytes.IndexByte(line, ':'); c >= 0 {
		field, value = line[:c], line[c+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(field) {
	case "data":
		p.appendData(value)
	case "event":
		p.name = append(p.name[:0], value...)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			p.id = append(p.id[:0], value...)
		}
	case "retry":
		if ms, ok := parseDigits(value); ok {
			p.retry = time.Duration(ms) * time.Millisecond
		}
	case "error":
		p.name = append(p.name[:0], "error"...)
		p.appendData(value)
	}
	return Event{}, false
}

// appendData adds one data line to the pending event, unless the event
// would pass the Limit.
func (p *Parser) appendData(value []byte) {
	n := len(p.data) + len(value)
	if p.hasData {
		n++ // the '\n' joining it
	}
	if !p.fits(n, p.data, value) {
		return
	}
	if p.hasData {
		p.data = append(p.data, '\n')
	}
	p.data = append(p.data, value...)
	p.hasData = true
}

// dispatch hands out the pending event, if it has data; either way the
// event type is cleared, as the specification requires.
func (p *Parser) dispatch() (Event, bool) {
	if !p.hasData {
		p.name = p.name[:0]
		return Event{}, false
	}
	p.dispatched = true
	return Event{Name: p.name, Data: p.data}, true
}

// excerptBytes is how much of an event that passed the Limit its error
// quotes.
const excerptBytes = 64

// fits reports whether n bytes are within the Limit; if not, it stops the
// parser with an error quoting the start of the line or event, which is
// held (the line or data so far) followed by more. The quote is the
// first min(Limit, 64) bytes, which every split of the stream has seen.
func (p *Parser) fits(n int, held, more []byte) bool {
	if p.Limit <= 0 || n <= p.Limit {
		return true
	}
	size := min(p.Limit, excerptBytes)
	start := make([]byte, 0, size)
	start = append(start, held[:min(len(held), size)]...)
	start = append(start, more[:min(len(more), size-len(start))]...)
	p.err = &EventTooLargeError{Limit: p.Limit, Start: string(start)}
	return false
}

// EventTooLargeError is a line or an event longer than a Parser's Limit.
type EventTooLargeError struct {
	Limit int    // the Parser's Limit
	Start string // the first bytes of the line or event (at most 64)
}

func (e *EventTooLargeError) Error() string {
	return fmt.Sprintf("an SSE line or event longer than %d bytes (the event cap) starting %q", e.Limit, e.Start)
}

// parseDigits parses a non-empty run of ASCII digits that fits in an int64
// of milliseconds.
func parseDigits(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}
