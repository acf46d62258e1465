package spec

import (
	"errors"
	"testing"
)

func TestErrorString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		e      Error
		want   string
		reason string
	}{
		{Error{"chat.yaml", 7, 5, "clients[0].arrival.cvv", "unknown key"}, "chat.yaml:7:5: clients[0].arrival.cvv: unknown key", "everything"},
		{Error{"", 7, 5, "rate", "bad"}, "7:5: rate: bad", "no file name"},
		{Error{"s.yaml", 1, 1, "", "spec is empty"}, "s.yaml:1:1: spec is empty", "no path"},
		{Error{"", 0, 0, "", "bare"}, "bare", "nothing but the message"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.reason, got, tt.want)
		}
	}
}

func TestErrorWarning(t *testing.T) {
	t.Parallel()
	tests := []struct {
		e      Error
		want   string
		reason string
	}{
		{Error{"chat.yaml", 2, 11, "duration", "a run of 2400h"}, "chat.yaml:2:11: warning: duration: a run of 2400h", "everything"},
		{Error{"", 7, 5, "rate", "high"}, "7:5: warning: rate: high", "no file name"},
		{Error{"s.yaml", 1, 1, "", "no clients"}, "s.yaml:1:1: warning: no clients", "no path"},
		{Error{"", 0, 0, "", "bare"}, "warning: bare", "nothing but the message"},
	}
	for _, tt := range tests {
		if got := tt.e.Warning(); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.reason, got, tt.want)
		}
	}
}

func TestErrorsSortedAndJoined(t *testing.T) {
	t.Parallel()
	a := &Error{File: "f", Line: 3, Col: 1, Msg: "a"}
	b := &Error{File: "f", Line: 1, Col: 9, Msg: "b"}
	c := &Error{File: "f", Line: 1, Col: 2, Msg: "c"}
	c2 := &Error{File: "f", Line: 1, Col: 2, Msg: "c"}
	es := Errors{a, b, c, c2}.sorted()
	if got, want := es.Error(), "f:1:2: c\nf:1:9: b\nf:3:1: a"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var one *Error
	if !errors.As(error(es), &one) || one != c {
		t.Errorf("errors.As found %v, want the first problem", one)
	}
}
