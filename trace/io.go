package trace

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
)

// Writer writes a trace: the header, then sessions, hashing them as it goes.
// It is not safe for concurrent use.
type Writer struct {
	w    *bufio.Writer
	h    hash.Hash
	buf  bytes.Buffer
	enc  *json.Encoder
	n    int
	last int64
}

// NewWriter writes h to w and returns a Writer for the sessions.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	tw := &Writer{w: bufio.NewWriterSize(w, 1<<20), h: sha256.New()}
	tw.enc = json.NewEncoder(&tw.buf)
	tw.enc.SetEscapeHTML(false)
	h.Format = Format
	if err := h.Validate(); err != nil {
		return nil, fmt.Errorf("trace header: %w", err)
	}
	if err := tw.enc.Encode(h); err != nil {
		return nil, fmt.Errorf("encoding trace header: %w", err)
	}
	if _, err := tw.w.Write(tw.buf.Bytes()); err != nil {
		return nil, fmt.Errorf("writing trace header: %w", err)
	}
	return tw, nil
}

// Write appends one session. Sessions must come in non-decreasing start
// order.
func (tw *Writer) Write(s *Session) error {
	if err := s.Validate(); err != nil {
		return fmt.Errorf("session %s/%d: %w", s.Client, s.Index, err)
	}
	if s.AtUS < tw.last {
		return fmt.Errorf("session %s/%d at %dus written after one at %dus: sessions must be in start order", s.Client, s.Index, s.AtUS, tw.last)
	}
	tw.last = s.AtUS
	tw.buf.Reset()
	if err := tw.enc.Encode(s); err != nil {
		return fmt.Errorf("encoding session %s/%d: %w", s.Client, s.Index, err)
	}
	tw.h.Write(tw.buf.Bytes())
	tw.n++
	if _, err := tw.w.Write(tw.buf.Bytes()); err != nil {
		return fmt.Errorf("writing session %s/%d: %w", s.Client, s.Index, err)
	}
	return nil
}

// Close flushes the trace and returns the workload hash of what was
// written.
func (tw *Writer) Close() (string, error) {
	if err := tw.w.Flush(); err != nil {
		return "", fmt.Errorf("flushing trace: %w", err)
	}
	return hashString(tw.h), nil
}

// Sessions is the number of sessions written so far.
func (tw *Writer) Sessions() int { return tw.n }

func hashString(h hash.Hash) string {
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// Reader reads a trace written by Writer.
type Reader struct {
	r      *bufio.Reader
	h      hash.Hash
	line   int
	Header Header
}

// NewReader reads and checks the header of the trace in r.
func NewReader(r io.Reader) (*Reader, error) {
	tr := &Reader{r: bufio.NewReaderSize(r, 1<<20), h: sha256.New()}
	line, err := tr.next()
	if err == io.EOF {
		return nil, errors.New("trace is empty: expected a header line")
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(line, &tr.Header); err != nil {
		return nil, lineErr(1, fmt.Errorf("header: %w", err))
	}
	if tr.Header.Format < oldestFormat || tr.Header.Format > Format {
		return nil, lineErr(1, fmt.Errorf("format version %d is not supported (this surge reads versions %d to %d); is this a surge trace?", tr.Header.Format, oldestFormat, Format))
	}
	if err := tr.Header.Validate(); err != nil {
		return nil, lineErr(1, fmt.Errorf("header: %w", err))
	}
	return tr, nil
}

// Read returns the next session, or io.EOF after the last one.
func (tr *Reader) Read() (*Session, error) {
	line, err := tr.next()
	if err != nil {
		return nil, err
	}
	tr.h.Write(line)
	s, err := decodeSession(line)
	if err != nil {
		return nil, lineErr(tr.line, err)
	}
	if err := s.Validate(); err != nil {
		return nil, lineErr(tr.line, fmt.Errorf("session %s/%d: %w", s.Client, s.Index, err))
	}
	return s, nil
}

// Hash returns the workload hash of the sessions read so far; after Read
// returned io.EOF it is the hash of the whole trace.
func (tr *Reader) Hash() string { return hashString(tr.h) }

// next returns the next line including its newline.
func (tr *Reader) next() ([]byte, error) {
	var line []byte
	for {
		chunk, err := tr.r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > MaxLine {
			return nil, lineErr(tr.line+1, fmt.Errorf("longer than %d bytes (trace.MaxLine)", MaxLine))
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && len(line) > 0 {
			return nil, lineErr(tr.line+1, errors.New("truncated (no final newline); was the trace cut short?"))
		}
		if err != nil {
			return nil, err
		}
		tr.line++
		return line, nil
	}
}

// ReadWanted returns the next session for which want(client, index) is
// true, or io.EOF after the last, skipping the others: a line that starts
// as Writer writes one ({"client":"…","index":N,…}) is skipped without
// decoding it, so that finding a few sessions in a large trace costs
// little more than reading it. The hash covers every line, as Read's.
// A skipped line is not checked.
func (tr *Reader) ReadWanted(want func(client string, index int) bool) (*Session, error) {
	for {
		line, err := tr.next()
		if err != nil {
			return nil, err
		}
		tr.h.Write(line)
		if client, index, ok := sessionKey(line); ok && !want(client, index) {
			continue
		}
		s, err := decodeSession(line)
		if err != nil {
			return nil, lineErr(tr.line, err)
		}
		if !want(s.Client, s.Index) {
			continue
		}
		if err := s.Validate(); err != nil {
			return nil, lineErr(tr.line, fmt.Errorf("session %s/%d: %w", s.Client, s.Index, err))
		}
		return s, nil
	}
}

// sessionKey reads the client and index a session's line starts with
// when it starts as Writer writes one, with a client name of printable
// ASCII and neither key again later in the line; ok is false for any
// other line.
func sessionKey(line []byte) (client string, index int, ok bool) {
	const head, mid = `{"client":"`, `","index":`
	rest, found := bytes.CutPrefix(line, []byte(head))
	if !found {
		return "", 0, false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return "", 0, false
	}
	for _, c := range rest[:end] {
		if c < ' ' || c > '~' || c == '\\' {
			return "", 0, false
		}
	}
	name := rest[:end]
	if rest, found = bytes.CutPrefix(rest[end:], []byte(mid)); !found {
		return "", 0, false
	}
	n, digits := 0, 0
	for ; digits < len(rest) && digits < 10 && rest[digits] >= '0' && rest[digits] <= '9'; digits++ {
		n = n*10 + int(rest[digits]-'0')
	}
	if digits == 0 || digits == 10 || digits >= len(rest) || (rest[digits] != ',' && rest[digits] != '}') || (digits > 1 && rest[0] == '0') {
		return "", 0, false
	}
	if tail := rest[digits:]; bytes.Contains(tail, []byte(`"client"`)) || bytes.Contains(tail, []byte(`"index"`)) {
		return "", 0, false // a repeated key, which JSON would take instead
	}
	return string(name), n, true
}
