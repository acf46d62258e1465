package trace

import (
	"errors"
	"fmt"
)

// LineError is a Reader's error of one line of a trace.
type LineError struct {
	Line int // from 1, the header's line
	Err  error
}

// lineErr is err on line n.
func lineErr(n int, err error) *LineError { return &LineError{Line: n, Err: err} }

func (e *LineError) Error() string { return fmt.Sprintf("trace line %d: %v", e.Line, e.Err) }

// Unwrap returns the line's error.
func (e *LineError) Unwrap() error { return e.Err }

// InFile is err, an error reading the trace file name, as an editor
// reads it: "name:line: what" for an error of a line, else
// "trace name: err".
func InFile(name string, err error) error {
	if le := (*LineError)(nil); errors.As(err, &le) {
		return fmt.Errorf("%s:%d: %w", name, le.Line, le.Err)
	}
	return fmt.Errorf("trace %s: %w", name, err)
}
