package fit

import (
	"errors"
	"io"
	"testing"

	"surge/trace"
)

// sessions is a Source of its sessions, then of err (io.EOF when nil).
type sessions struct {
	list []*trace.Session
	err  error
}

func (s *sessions) Next() (*trace.Session, error) {
	if len(s.list) == 0 {
		if s.err == nil {
			return nil, io.EOF
		}
		return nil, s.err
	}
	next := s.list[0]
	s.list = s.list[1:]
	return next, nil
}

// TestTrafficRead adds sessions until io.EOF, and stops at another
// error, returning it.
func TestTrafficRead(t *testing.T) {
	t.Parallel()
	bad := errors.New("row 3: bad")
	two := func() []*trace.Session {
		return []*trace.Session{
			{Client: "a", Turns: []trace.Turn{{InputTokens: 1, OutputTokens: 1}}},
			{Client: "b", Turns: []trace.Turn{{InputTokens: 2, OutputTokens: 2}}},
		}
	}
	for _, tt := range []struct {
		name  string
		src   *sessions
		order int
		err   error
	}{
		{"empty", &sessions{}, 0, nil},
		{"two clients", &sessions{list: two()}, 2, nil},
		{"an error after two", &sessions{list: two(), err: bad}, 2, bad},
	} {
		var tr Traffic
		err := tr.Read(tt.src)
		if !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) || len(tr.Order) != tt.order {
			t.Errorf("%s: %d clients, error %v; want %d, %v", tt.name, len(tr.Order), err, tt.order, tt.err)
		}
	}
}
