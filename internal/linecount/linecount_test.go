package linecount

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestLine(t *testing.T) {
	const text = "a\nbb\n\nccc\nd"
	lc := NewReader(iotest.OneByteReader(strings.NewReader(text)))
	if _, err := io.ReadAll(lc); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		off  int64
		want int
	}{
		{0, 1}, {1, 1}, {2, 2}, {4, 2}, {5, 3}, {6, 4}, {9, 4}, {10, 5}, {11, 5},
	}
	for _, tt := range tests {
		if got := lc.Line(tt.off); got != tt.want {
			t.Errorf("Line(%d) = %d, want %d", tt.off, got, tt.want)
		}
	}
}
