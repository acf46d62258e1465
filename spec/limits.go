package spec

import (
	"fmt"
	"io"

	"github.com/goccy/go-yaml/scanner"
	"github.com/goccy/go-yaml/token"
)

// Limits on a spec's text, checked before it is parsed: the YAML parser's
// time and memory grow faster than the text for deep nesting (a 200 KB
// spec of nested lists would exhaust memory), and are about two hundred
// times the text for a large spec. Scanning the text into tokens, which
// the depth check needs, costs about 250 bytes a token: at most a few
// hundred megabytes for a spec of MaxBytes, about 50 MB for 200 KB.
const (
	// MaxBytes is the longest spec Parse reads: 1 MiB, hundreds of times
	// a hand-written spec, and room for inline empirical tables.
	MaxBytes = 1 << 20

	// MaxDepth bounds how deeply a spec's collections nest, block and
	// flow together; a spec needs about eight levels.
	MaxDepth = 64
)

// Read reads a spec of at most MaxBytes from r and parses it as Parse
// does; a longer one is refused after reading MaxBytes + 1 bytes.
func Read(name string, r io.Reader) (*Spec, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading spec %s: %w", name, err)
	}
	return Parse(name, data)
}

// tokens scans data into YAML tokens, refusing a spec longer than MaxBytes
// before scanning and one nesting deeper than MaxDepth as soon as the
// scan reaches that depth, so that the parser never sees either.
func (d *decoder) tokens(data []byte) (tks token.Tokens, ok bool) {
	defer func() {
		// As in parseYAML: a panic in goccy/go-yaml is its bug.
		if r := recover(); r != nil {
			d.errs = append(d.errs, &Error{File: d.file, Line: 1, Col: 1, Msg: fmt.Sprintf("yaml: the YAML scanner failed on this input: %v", r)})
			tks, ok = nil, false
		}
	}()
	if len(data) > MaxBytes {
		d.errs = append(d.errs, &Error{File: d.file, Line: 1, Col: 1,
			Msg: fmt.Sprintf("spec is larger than %d bytes (spec.MaxBytes, 1 MiB), where a spec is a few kilobytes: is this the right file?", MaxBytes)})
		return nil, false
	}
	var s scanner.Scanner
	s.Init(string(data))
	var dp depth
	for {
		sub, err := s.Scan()
		if err == io.EOF {
			return tks, true
		}
		for _, tk := range sub {
			if dp.add(tk) > MaxDepth {
				line, col := 1, 1
				if tk.Position != nil {
					line, col = max(tk.Position.Line, 1), max(tk.Position.Column, 1)
				}
				d.errs = append(d.errs, &Error{File: d.file, Line: line, Col: col,
					Msg: fmt.Sprintf("spec nests more than %d levels deep here (spec.MaxDepth); a spec needs about eight", MaxDepth)})
				return nil, false
			}
		}
		tks.Add(sub...)
	}
}

// depth follows how deeply the tokens scanned so far nest: flow
// collections by their brackets, block collections by the columns of
// their entries, a stack of increasing columns (an entry at a column
// closes every open entry at that column or right of it). The count is
// an upper bound on the parser's nesting within a factor of two (a block
// sequence may sit at its parent key's column), which is all a bound on
// the parser's work needs.
type depth struct {
	flow   int
	blocks []int        // columns of the open block entries, increasing
	last   *token.Token // the token before
}

// add takes the next token, tk, and returns the depth there.
func (dp *depth) add(tk *token.Token) int {
	prev := dp.last
	dp.last = tk
	switch tk.Type {
	case token.SequenceStartType, token.MappingStartType:
		dp.flow++
	case token.SequenceEndType, token.MappingEndType:
		dp.flow = max(dp.flow-1, 0)
	case token.DocumentHeaderType, token.DocumentEndType:
		dp.flow, dp.blocks = 0, dp.blocks[:0]
	case token.SequenceEntryType, token.MappingKeyType:
		if dp.flow == 0 {
			dp.open(tk)
		}
	case token.MappingValueType:
		// A block mapping's entry starts at its key, the token before.
		if dp.flow == 0 && prev != nil {
			dp.open(prev)
		}
	}
	return dp.flow + len(dp.blocks)
}

// open records a block entry starting at tk's column.
func (dp *depth) open(tk *token.Token) {
	if tk.Position == nil {
		return
	}
	c := tk.Position.Column
	for len(dp.blocks) > 0 && dp.blocks[len(dp.blocks)-1] >= c {
		dp.blocks = dp.blocks[:len(dp.blocks)-1]
	}
	dp.blocks = append(dp.blocks, c)
}
