package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// NewRecordWriterRoom is NewRecordWriter leaving room spaces after the
// header's JSON on its line, so that RewriteHeader can later put in its
// place a header up to room bytes longer: a simulation that generates its
// workload as it runs learns the workload's hash and implied reuse only
// at its end. Readers take the spaces as JSON's whitespace.
func NewRecordWriterRoom(w io.Writer, h RunHeader, room int) (*RecordWriter, error) {
	line, err := headerLine(h, room)
	if err != nil {
		return nil, err
	}
	rw := &RecordWriter{w: newBuffered(w), head: len(line)}
	rw.enc = json.NewEncoder(&rw.buf)
	rw.enc.SetEscapeHTML(false)
	if _, err := rw.w.Write(line); err != nil {
		return nil, err
	}
	return rw, rw.Flush()
}

// RewriteHeader writes h over the header line of the records file at the
// start of f, the file rw wrote (with NewRecordWriterRoom) and closed,
// padded with spaces to the line's length; it fails when h needs more.
func (rw *RecordWriter) RewriteHeader(f io.WriterAt, h RunHeader) error {
	if rw.head == 0 {
		return fmt.Errorf("rewriting the records header: the writer left no room for it")
	}
	line, err := headerLine(h, 0)
	if err != nil {
		return err
	}
	if len(line) > rw.head {
		return fmt.Errorf("rewriting the records header: %d bytes, over the %d left for it", len(line), rw.head)
	}
	padded := append(bytes.Repeat([]byte{' '}, rw.head-1), '\n')
	copy(padded, line[:len(line)-1])
	_, err = f.WriteAt(padded, 0)
	return err
}

// headerLine is h's line, with room spaces before its newline.
func headerLine(h RunHeader, room int) ([]byte, error) {
	h.Format = RecordsFormat
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(h); err != nil {
		return nil, fmt.Errorf("encoding records header: %w", err)
	}
	line := b.Bytes()
	return append(append(line[:len(line)-1:len(line)-1], bytes.Repeat([]byte{' '}, room)...), '\n'), nil
}
