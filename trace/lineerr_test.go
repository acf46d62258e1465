package trace

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestInFile: a reader's error of a line reads "file:line: what", as
// editors and compilers give positions; any other error names the file.
func TestInFile(t *testing.T) {
	t.Parallel()
	_, err := NewReader(strings.NewReader("version: 1\n"))
	var le *LineError
	if !errors.As(err, &le) || le.Line != 1 {
		t.Fatalf("NewReader of a spec: %v, want a LineError of line 1", err)
	}
	if got := InFile("t.jsonl", err).Error(); !strings.HasPrefix(got, "t.jsonl:1: header: ") {
		t.Errorf("InFile = %q, want t.jsonl:1: header: …", got)
	}
	if got := InFile("t.jsonl", io.ErrUnexpectedEOF).Error(); got != "trace t.jsonl: unexpected EOF" {
		t.Errorf("InFile of another error = %q", got)
	}
	if !errors.Is(InFile("t.jsonl", lineErr(3, io.ErrUnexpectedEOF)), io.ErrUnexpectedEOF) {
		t.Error("InFile loses the error it wraps")
	}
}
