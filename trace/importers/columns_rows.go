package importers

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// fieldReader reads the named fields of each row of a generic trace.
type fieldReader interface {
	// next returns the fields of the next row, in the order asked for,
	// valid until the next call, and the row's line; io.EOF after the
	// last; a *RowError for a malformed row, after which next may be
	// called again; any other error is fatal.
	next() (fields []string, line int, err error)
}

// csvFields reads a CSV file with a header line, with the quoting rules
// of RFC 4180.
type csvFields struct {
	r     *csv.Reader
	cols  []int
	field []string
}

// newCSVFields reads the header of the CSV in r and finds the columns
// named want (compared without case or surrounding space).
func newCSVFields(r io.Reader, want []string) (*csvFields, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("csv: empty file: want a header line with %s", strings.Join(want, ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("csv header: %w", err)
	}
	cols, err := findColumns(head, want)
	if err != nil {
		return nil, fmt.Errorf("csv header: %w", err)
	}
	return &csvFields{r: cr, cols: cols, field: make([]string, len(cols))}, nil
}

// next reads the next record.
func (cf *csvFields) next() ([]string, int, error) {
	rec, err := cf.r.Read()
	if err == io.EOF {
		return nil, 0, err
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return nil, pe.StartLine, rowError(pe.StartLine, pe.Err)
	}
	if err != nil {
		return nil, 0, err
	}
	line, _ := cf.r.FieldPos(0)
	for k, c := range cf.cols {
		if c >= len(rec) {
			return nil, line, rowError(line, fmt.Errorf("%d fields, want at least %d", len(rec), c+1))
		}
		cf.field[k] = strings.TrimSpace(rec[c])
	}
	return cf.field, line, nil
}

// jsonFields reads JSON Lines, an object per line; a field may be a
// string or a number.
type jsonFields struct {
	lr    *lineReader
	want  []string
	field []string
}

// newJSONFields returns a reader of the fields want of each line of r.
func newJSONFields(r io.Reader, want []string) *jsonFields {
	return &jsonFields{lr: newLineReader(r), want: want, field: make([]string, len(want))}
}

// next reads the next non-blank line.
func (jf *jsonFields) next() ([]string, int, error) {
	line, err := nextLine(jf.lr)
	if err != nil {
		return nil, jf.lr.line, err
	}
	n := jf.lr.line
	if err := jsonRow(line, jf.want, jf.field); err != nil {
		return nil, n, rowError(n, err)
	}
	return jf.field, n, nil
}

// jsonRow reads the fields want of one JSON object into field.
func jsonRow(line []byte, want, field []string) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil {
		return fmt.Errorf("not a JSON object: %w", err)
	}
	for k, w := range want {
		raw, ok := obj[w]
		if !ok {
			return fmt.Errorf("no field %q", w)
		}
		raw = bytes.TrimSpace(raw)
		if len(raw) > 0 && raw[0] == '"' {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return fmt.Errorf("field %q: %w", w, err)
			}
			field[k] = strings.TrimSpace(s)
			continue
		}
		if len(raw) == 0 || raw[0] == '{' || raw[0] == '[' || raw[0] == 'n' || raw[0] == 't' || raw[0] == 'f' {
			return fmt.Errorf("field %q is %s: want a string or a number", w, truncate(raw))
		}
		field[k] = string(raw)
	}
	return nil
}
