package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
)

// flushEvery bounds how long a finished record may sit in the buffer, so an
// interrupted or killed run loses at most this much of what it saw.
const flushEvery = 100 * time.Millisecond

// RecordWriter streams records to a file as requests finish. It is safe for
// concurrent use. A record waits in the buffer at most 100 ms: a timer
// flushes what the last writes left behind, so a run killed at any moment
// loses at most that much.
type RecordWriter struct {
	mu    sync.Mutex // guards everything below
	w     *bufio.Writer
	buf   bytes.Buffer
	enc   *json.Encoder
	flush time.Time
	timer *time.Timer // pending flush of buffered records, or nil
	gaps  []byte      // a record's line with its gaps, reused
	head  int         // the header line's length, when it has room (NewRecordWriterRoom)
	err   error
}

// NewRecordWriter writes h and returns a writer for the records.
func NewRecordWriter(w io.Writer, h RunHeader) (*RecordWriter, error) {
	rw := &RecordWriter{w: newBuffered(w)}
	rw.enc = json.NewEncoder(&rw.buf)
	rw.enc.SetEscapeHTML(false)
	h.Format = RecordsFormat
	if err := rw.line(h); err != nil {
		return nil, err
	}
	return rw, rw.Flush()
}

// newBuffered is the buffer a RecordWriter writes through.
func newBuffered(w io.Writer) *bufio.Writer { return bufio.NewWriterSize(w, 256<<10) }

// Write appends one record, flushing to w at least every 100 ms.
func (rw *RecordWriter) Write(r *Record) error {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if err := rw.record(r); err != nil {
		return err
	}
	if now := time.Now(); now.Sub(rw.flush) >= flushEvery {
		rw.flush = now
		rw.err = rw.w.Flush()
	} else if rw.timer == nil {
		rw.timer = time.AfterFunc(flushEvery, rw.timedFlush)
	}
	return rw.err
}

// timedFlush flushes records that no later Write has flushed.
func (rw *RecordWriter) timedFlush() {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	rw.timer = nil
	if rw.err == nil && rw.w.Buffered() > 0 {
		rw.flush = time.Now()
		rw.err = rw.w.Flush()
	}
}

// Close writes the end line and flushes.
func (rw *RecordWriter) Close(end RunEnd) error {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if rw.timer != nil {
		rw.timer.Stop()
		rw.timer = nil
	}
	if err := rw.line(end); err != nil {
		return err
	}
	return rw.w.Flush()
}

// Flush writes buffered records to the underlying writer.
func (rw *RecordWriter) Flush() error {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	rw.flush = time.Now()
	return rw.w.Flush()
}

// line encodes v as one line; rw.mu must be held.
func (rw *RecordWriter) line(v any) error {
	if rw.err != nil {
		return rw.err
	}
	rw.buf.Reset()
	if err := rw.enc.Encode(v); err != nil {
		return fmt.Errorf("encoding record: %w", err)
	}
	_, rw.err = rw.w.Write(rw.buf.Bytes())
	return rw.err
}

// e2eKey is the key Record's itl_us follows.
var e2eKey = []byte(`"e2e_us":`)

// record encodes r as one line, as line does, but for its gaps, most of
// the line, which it writes itself after e2e_us, the field they follow
// (TestRecordLineIsJSON holds the two ways to the same bytes); rw.mu must
// be held.
func (rw *RecordWriter) record(r *Record) error {
	if r.packed != nil {
		u := *r
		u.Unpack()
		r = &u
	}
	if len(r.ITLUS) == 0 || rw.err != nil {
		return rw.line(r)
	}
	c := *r
	c.ITLUS = nil
	rw.buf.Reset()
	if err := rw.enc.Encode(&c); err != nil {
		return fmt.Errorf("encoding record: %w", err)
	}
	b := rw.buf.Bytes()
	i := bytes.Index(b, e2eKey)
	if i < 0 {
		return rw.line(r)
	}
	i += len(e2eKey)
	for i < len(b) && (b[i] == '-' || b[i] >= '0' && b[i] <= '9') {
		i++
	}
	rw.gaps = append(append(rw.gaps[:0], b[:i]...), `,"itl_us":[`...)
	for k, g := range r.ITLUS {
		if k > 0 {
			rw.gaps = append(rw.gaps, ',')
		}
		rw.gaps = strconv.AppendInt(rw.gaps, g, 10)
	}
	rw.gaps = append(append(rw.gaps, ']'), b[i:]...)
	_, rw.err = rw.w.Write(rw.gaps)
	return rw.err
}

// Records is a whole records file read back.
type Records struct {
	Header  RunHeader
	Records []Record
	End     *RunEnd // nil when the run died before writing its end line
}

// ReadRecords reads a records file of any version from 1 to
// RecordsFormat. A missing end line is not an error (the run was killed);
// a truncated last line is dropped and counted in the returned warning.
// A record with more than MaxITLGaps gaps in itl_us (version 1 kept them
// all) has the rest moved to its ITLTail as it is read.
func ReadRecords(r io.Reader) (*Records, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	out := &Records{}
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if err == io.EOF && len(line) > 0 {
			return out, fmt.Errorf("records line %d: truncated; the %d complete records before it were read", n, len(out.Records))
		}
		if err == io.EOF {
			if n == 1 {
				return nil, errors.New("records file is empty: expected a header line")
			}
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if err := out.decode(n, line); err != nil {
			return nil, err
		}
	}
}

// decode reads line n into the header, a record or the end line.
func (rs *Records) decode(n int, line []byte) error {
	switch {
	case n == 1:
		if err := json.Unmarshal(line, &rs.Header); err != nil {
			return fmt.Errorf("records line 1: header: %w", err)
		}
		if rs.Header.Format < oldestRecordsFormat || rs.Header.Format > RecordsFormat {
			return fmt.Errorf("records line 1: format version %d is not supported (this surge reads versions %d to %d); is this a surge records file?", rs.Header.Format, oldestRecordsFormat, RecordsFormat)
		}
	case bytes.HasPrefix(line, []byte(`{"surge_end"`)):
		rs.End = new(RunEnd)
		if err := json.Unmarshal(line, rs.End); err != nil {
			return fmt.Errorf("records line %d: end: %w", n, err)
		}
	default:
		var r Record
		if err := json.Unmarshal(line, &r); err != nil {
			return fmt.Errorf("records line %d: %w", n, err)
		}
		r.CompactITL()
		rs.Records = append(rs.Records, r)
	}
	return nil
}
