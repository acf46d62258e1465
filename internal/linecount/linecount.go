// Package linecount numbers the lines of a stream as it is read, so that
// a decoder reporting byte offsets (encoding/json's InputOffset) can name
// the line of an error.
package linecount

import (
	"bytes"
	"io"
)

// Reader numbers the lines of what is read through it: it notes where
// each newline falls, so that a later Line can name the line of an
// offset, forgetting newlines once offsets pass them.
type Reader struct {
	r        io.Reader
	read     int64   // bytes read so far
	newlines []int64 // offsets of newlines not yet passed
	before   int     // newlines passed
}

// NewReader returns a Reader that reads from r.
func NewReader(r io.Reader) *Reader { return &Reader{r: r} }

// Read reads from the underlying reader, noting newlines.
func (lc *Reader) Read(p []byte) (int, error) {
	n, err := lc.r.Read(p)
	for i := 0; i < n; {
		j := bytes.IndexByte(p[i:n], '\n')
		if j < 0 {
			break
		}
		lc.newlines = append(lc.newlines, lc.read+int64(i+j))
		i += j + 1
	}
	lc.read += int64(n)
	return n, err
}

// Line returns the 1-based line of byte offset off; offsets must not
// decrease from call to call.
func (lc *Reader) Line(off int64) int {
	k := 0
	for k < len(lc.newlines) && lc.newlines[k] < off {
		k++
	}
	lc.before += k
	lc.newlines = lc.newlines[k:]
	return lc.before + 1
}
