package importers

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// csvRows reads a CSV file with a header line: the parse function turns
// the fields of the columns it asked for, in that order, into a request.
// Fields are split at every comma: the formats read this way quote
// nothing, and a line per row keeps a bad row from swallowing the next.
type csvRows struct {
	lr    *lineReader
	cols  []int // index in a record of each column asked for
	need  int   // fields a record must have: 1 + the largest of cols
	parse func(fields []string, q *request) error
	field []string // scratch: the asked-for fields of the current record
}

// newCSVRows reads the header of the CSV in r and finds the columns
// named want (compared without case or surrounding space; a leading
// byte-order mark is ignored); format names the format in errors.
func newCSVRows(r io.Reader, format string, want []string, parse func([]string, *request) error) (*csvRows, error) {
	lr := newLineReader(r)
	line, err := nextLine(lr)
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file: want a header line %s", format, strings.Join(want, ","))
	}
	if err != nil {
		return nil, fmt.Errorf("%s header: %w", format, err)
	}
	head := strings.Split(string(line), ",")
	cols, err := findColumns(head, want)
	if err != nil {
		return nil, fmt.Errorf("%s header, line %d: %w", format, lr.line, err)
	}
	need := 0
	for _, c := range cols {
		need = max(need, c+1)
	}
	return &csvRows{lr: lr, cols: cols, need: need, parse: parse, field: make([]string, len(cols))}, nil
}

// findColumns returns the index in head of each column of want.
func findColumns(head, want []string) ([]int, error) {
	index := map[string]int{}
	for i, h := range head {
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		index[strings.ToLower(strings.TrimSpace(h))] = i
	}
	cols := make([]int, len(want))
	var missing []string
	for k, w := range want {
		i, ok := index[strings.ToLower(w)]
		if !ok {
			missing = append(missing, w)
		}
		cols[k] = i
	}
	if missing != nil {
		return nil, fmt.Errorf("no column %s in %q", strings.Join(missing, ", "), strings.Join(head, ","))
	}
	return cols, nil
}

// nextLine returns the next line that is not blank.
func nextLine(lr *lineReader) ([]byte, error) {
	for {
		line, err := lr.next()
		if err != nil || len(bytes.TrimSpace(line)) > 0 {
			return line, err
		}
	}
}

// next parses the next row; blank lines are skipped.
func (cr *csvRows) next(q *request) (int, error) {
	line, err := nextLine(cr.lr)
	if err != nil {
		return cr.lr.line, err
	}
	n := cr.lr.line
	rec := strings.Split(string(line), ",")
	if len(rec) < cr.need {
		return n, rowError(n, fmt.Errorf("%d fields, want at least %d", len(rec), cr.need))
	}
	for k, c := range cr.cols {
		cr.field[k] = strings.TrimSpace(rec[c])
	}
	*q = request{}
	if err := cr.parse(cr.field, q); err != nil {
		return n, rowError(n, err)
	}
	return n, nil
}
