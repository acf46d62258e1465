package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"surge/internal/linecount"
)

// readShareGPT reads a JSON array of records (the ShareGPT_V3 layout), or
// JSON objects one after another, each record starting an entry.
func readShareGPT(r io.Reader, set *Set, opts Options) error {
	lc := linecount.NewReader(r)
	br := bufio.NewReader(lc)
	base, array, err := jsonStart(br)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(br)
	if array {
		if _, err := dec.Token(); err != nil {
			return err
		}
	}
	for n := 1; dec.More(); n++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return fmt.Errorf("record %d (near line %d): %w", n, lc.Line(base+dec.InputOffset()), err)
		}
		line := lc.Line(base + dec.InputOffset() - int64(len(raw)))
		if len(raw) > MaxRecordBytes {
			return fmt.Errorf("line %d: a record of %d bytes, more than %d", line, len(raw), MaxRecordBytes)
		}
		e, err := objectEntry(raw, opts.Field)
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		e.Row = line
		if err := set.add(e, opts); err != nil {
			return err
		}
	}
	if array {
		if _, err := dec.Token(); err != nil {
			return fmt.Errorf("the closing ]: %w", err)
		}
	}
	return nil
}

// jsonStart reads past a byte-order mark and white space to the first
// value, returning how many bytes it passed and whether it is an array.
func jsonStart(br *bufio.Reader) (int64, bool, error) {
	var base int64
	if bom, _ := br.Peek(3); string(bom) == "\xef\xbb\xbf" {
		br.Discard(3)
		base = 3
	}
	for {
		c, err := br.ReadByte()
		switch {
		case err == io.EOF:
			return 0, false, errors.New("empty file: want a JSON array of conversations")
		case err != nil:
			return 0, false, err
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			base++
			continue
		case c == '[' || c == '{':
			return base, c == '[', br.UnreadByte()
		}
		return 0, false, fmt.Errorf("starts with %q: want a JSON array of conversations", c)
	}
}

// readJSONL reads one JSON object a line; blank lines are passed.
func readJSONL(r io.Reader, set *Set, opts Options) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxRecordBytes)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		}
		if len(b) == 0 {
			continue
		}
		e, err := objectEntry(b, opts.Field)
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		e.Row = line
		if err := set.add(e, opts); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("a line longer than %d bytes", MaxRecordBytes)
		}
		return fmt.Errorf("line %d: %w", line+1, err)
	}
	return nil
}
