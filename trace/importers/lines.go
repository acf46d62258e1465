package importers

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// maxLine is the longest line a JSON Lines import accepts, 16 MiB; a
// longer one is a row error, read past without being held.
const maxLine = 16 << 20

// lineReader reads a file line by line, numbering the lines, in bounded
// memory. It is not safe for concurrent use.
type lineReader struct {
	r     *bufio.Reader
	limit int    // longest line accepted, in bytes
	line  int    // number of the line last returned
	buf   []byte // the line being read
}

// newLineReader returns a lineReader of r.
func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 1<<16), limit: maxLine}
}

// next returns the next line without its line ending, valid until the
// next call; io.EOF after the last line (a last line without a newline
// counts); a *RowError for a line longer than the limit.
func (lr *lineReader) next() ([]byte, error) {
	lr.buf = lr.buf[:0]
	long := false
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if !long && len(lr.buf)+len(chunk) > lr.limit {
			long, lr.buf = true, lr.buf[:0]
		}
		if !long {
			lr.buf = append(lr.buf, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && (len(lr.buf) > 0 || long) {
			err = nil
		}
		if err != nil {
			if err != io.EOF {
				err = fmt.Errorf("reading line %d: %w", lr.line+1, err)
			}
			return nil, err
		}
		lr.line++
		if long {
			return nil, rowError(lr.line, fmt.Errorf("longer than %d bytes", lr.limit))
		}
		return bytes.TrimRight(lr.buf, "\r\n"), nil
	}
}
