package trace

import "fmt"

// Ending is how a run ended, as its records say: EndingOf decides it, and
// every report, check and verdict asks it.
type Ending int

// The endings of a run.
const (
	// EndFinished: the end line says the run finished its schedule.
	EndFinished Ending = iota
	// EndAborted: the run stopped itself early, too many of its requests
	// having failed (RunEnd.Aborted says how many); its end line says
	// interrupted too.
	EndAborted
	// EndInterrupted: the run was stopped from outside (Ctrl-C) before
	// its schedule ended.
	EndInterrupted
	// EndDied: there is no end line; the run died before writing it.
	EndDied
)

// EndingOf is how the run whose end line is end (nil: none) ended.
func EndingOf(end *RunEnd) Ending {
	switch {
	case end == nil:
		return EndDied
	case end.Aborted != "":
		return EndAborted
	case end.Interrupted:
		return EndInterrupted
	}
	return EndFinished
}

// String is the ending in a word or two: "finished", "aborted",
// "interrupted", "died".
func (e Ending) String() string {
	switch e {
	case EndFinished:
		return "finished"
	case EndAborted:
		return "aborted"
	case EndInterrupted:
		return "interrupted"
	case EndDied:
		return "died"
	}
	return "Ending(?)"
}

// MarshalText writes the ending as String does, so that JSON carries it
// as a word.
func (e Ending) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// UnmarshalText reads an ending MarshalText wrote.
func (e *Ending) UnmarshalText(b []byte) error {
	for _, x := range []Ending{EndFinished, EndAborted, EndInterrupted, EndDied} {
		if x.String() == string(b) {
			*e = x
			return nil
		}
	}
	return fmt.Errorf("ending %q: want finished, aborted, interrupted or died", b)
}
