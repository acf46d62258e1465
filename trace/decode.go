package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// wireSession is a Session as a Reader decodes it: the outer Turns
// shadows Session.Turns, so that the turns are decoded one at a time and
// a line of too many turns, or of turns expanding to too many content
// blocks, is refused before it is held whole.
type wireSession struct {
	Session
	Turns turnList `json:"turns"`
}

// decodeSession decodes one session line.
func decodeSession(line []byte) (*Session, error) {
	var w wireSession
	if err := json.Unmarshal(line, &w); err != nil {
		return nil, err
	}
	s := w.Session
	s.Turns = w.Turns
	return &s, nil
}

// turnList is a session's turns, decoded at most MaxTurns of them and at
// most maxBlocks content blocks in all.
type turnList []Turn

// UnmarshalJSON decodes the turns one at a time, stopping at the first
// beyond the limits. json.Unmarshal has checked the syntax of data
// already, so only the shape can be wrong here.
func (l *turnList) UnmarshalJSON(data []byte) error {
	if bytes.Equal(data, []byte("null")) {
		*l = nil
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return fmt.Errorf("turns: want a list of turns, got %.40s", data)
	}
	var out []Turn
	blocks := 0
	for dec.More() {
		if len(out) == MaxTurns {
			return fmt.Errorf("turns: more than %d (trace.MaxTurns); split the session, or is the trace corrupt?", MaxTurns)
		}
		var t Turn
		if err := dec.Decode(&t); err != nil {
			return fmt.Errorf("turn %d: %w", len(out), err)
		}
		if blocks += len(t.Blocks); blocks > maxBlocks {
			return fmt.Errorf("turn %d: the session's turns hold more than %d content blocks", len(out), maxBlocks)
		}
		out = append(out, t)
	}
	*l = out
	return nil
}
