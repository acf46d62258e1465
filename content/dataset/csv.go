package dataset

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// readCSV reads a CSV file whose first row names the columns; each later
// row's column opts.Field (default prompt) is a prompt.
func readCSV(r io.Reader, set *Set, opts Options) error {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err == io.EOF {
		return errors.New("empty file: want a header row naming the columns")
	}
	if err != nil {
		return csvError(err)
	}
	if len(head) > 0 {
		head[0] = strings.TrimPrefix(head[0], "\xef\xbb\xbf")
	}
	field := cmp.Or(opts.Field, "prompt")
	col := slices.Index(head, field)
	if col < 0 {
		return fmt.Errorf("line 1: no column %q among %s: name the prompt's with field", field, strings.Join(head, ", "))
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return csvError(err)
		}
		line, _ := cr.FieldPos(0)
		if col >= len(rec) {
			return fmt.Errorf("line %d: %d columns, no %q (column %d)", line, len(rec), field, col+1)
		}
		e := Entry{Row: line}
		if s := rec[col]; strings.TrimSpace(s) != "" {
			e.Turns = []Turn{{Prompt: strings.Clone(s)}}
		}
		if err := set.add(e, opts); err != nil {
			return err
		}
	}
}

// csvError gives a CSV parse error its line.
func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("line %d: %w", pe.StartLine, pe.Err)
	}
	return err
}
