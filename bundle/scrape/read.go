package scrape

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Series is a server-metrics file read back: its header (zero if the file
// had none) and every scrape in file order, failed ones included.
type Series struct {
	Header  Header
	Scrapes []Scrape
	// Truncated is set when the last line was cut short (no newline and
	// not valid JSON), as an interrupted run leaves it; it was skipped.
	Truncated bool
}

// Read reads a server-metrics file written by Run. The header line is
// optional; blank lines are skipped; any other malformed line is an
// error naming its line number, except a cut-short last line, which sets
// Truncated. Scrapes must not go back in time.
func Read(r io.Reader) (*Series, error) {
	br := bufio.NewReader(r)
	s := &Series{}
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("reading server metrics: %w", err)
		}
		eof := err != nil
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			if perr := s.add(trimmed, n); perr != nil {
				if eof && !json.Valid(trimmed) {
					s.Truncated = true
					return s, nil
				}
				return nil, perr
			}
		}
		if eof {
			return s, nil
		}
	}
}

// add decodes one non-blank line.
func (s *Series) add(line []byte, n int) error {
	if n == 1 && bytes.Contains(line, []byte(`"format"`)) {
		var h Header
		if err := strictUnmarshal(line, &h); err != nil {
			return fmt.Errorf("server metrics line %d: header: %w", n, err)
		}
		if h.Format != Format {
			return fmt.Errorf("server metrics line %d: format %q, want %q", n, h.Format, Format)
		}
		if h.Version > Version {
			return fmt.Errorf("server metrics line %d: version %d is newer than this reader's %d", n, h.Version, Version)
		}
		s.Header = h
		return nil
	}
	var sc Scrape
	if err := strictUnmarshal(line, &sc); err != nil {
		return fmt.Errorf("server metrics line %d: %w", n, err)
	}
	if err := sc.check(); err != nil {
		return fmt.Errorf("server metrics line %d: %w", n, err)
	}
	if k := len(s.Scrapes); k > 0 && sc.AtUS < s.Scrapes[k-1].AtUS {
		return fmt.Errorf("server metrics line %d: at_us %d before the previous line's %d", n, sc.AtUS, s.Scrapes[k-1].AtUS)
	}
	s.Scrapes = append(s.Scrapes, sc)
	return nil
}

func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// check reports a scrape line the views below could not use.
func (sc Scrape) check() error {
	for _, smp := range sc.Samples {
		if smp.Name == "" {
			return errors.New("sample without a name")
		}
		n := 0
		for _, set := range []bool{smp.Value != nil, smp.Histogram != nil, smp.Summary != nil} {
			if set {
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf("sample %s: want exactly one of value, histogram, summary", smp.Name)
		}
		if h := smp.Histogram; h != nil && len(h.LE) != len(h.Cum) {
			return fmt.Errorf("sample %s: %d bounds but %d counts", smp.Name, len(h.LE), len(h.Cum))
		}
		if q := smp.Summary; q != nil && len(q.Q) != len(q.V) {
			return fmt.Errorf("sample %s: %d quantiles but %d values", smp.Name, len(q.Q), len(q.V))
		}
	}
	return nil
}

// OK returns the successful scrapes, in order.
func (s *Series) OK() []Scrape {
	var out []Scrape
	for _, sc := range s.Scrapes {
		if sc.OK() {
			out = append(out, sc)
		}
	}
	return out
}
