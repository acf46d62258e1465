package spec

import (
	"math"
	"os"
	"testing"

	"surge/dist"
)

// TestSessionsDecode checks what the session and prefix blocks decode to:
// durations in seconds whichever way they are written, and the defaults.
func TestSessionsDecode(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/sessions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse("sessions.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if s.Salt != SaltNone {
		t.Errorf("salt %q, want none", s.Salt)
	}
	mean := func(d dist.Dist) float64 { return d.Mean() }
	tests := []struct {
		reason string
		got    float64
		want   float64
	}{
		{"exponential think mean 2500ms, clamped at 1m, is ~2.5 s", mean(s.Clients[0].Session.Think), 2.5},
		{"a fixed think of 5s is 5 seconds", mean(s.Clients[1].Session.Think), 5},
		{"compact think numbers are seconds", mean(s.Clients[2].Session.Think), 4},
		{"uniform turns 2..6 average 4", mean(s.Clients[0].Session.Turns), 4},
		{"prefix length 2k", mean(s.Clients[0].Prefix.Length), 2000},
		{"prefix zipf", s.Clients[0].Prefix.Zipf, 1.1},
		{"pool defaults to 1", float64(s.Clients[2].Prefix.Pool), 1},
	}
	for _, tt := range tests {
		if math.Abs(tt.got-tt.want) > 0.01*tt.want {
			t.Errorf("%s: got %g, want %g", tt.reason, tt.got, tt.want)
		}
	}
	if c := s.Clients[0].Session; c.Kind != KindChat || c.History != HistoryPinned {
		t.Errorf("session %+v, want chat, pinned", c)
	}
	if c := s.Clients[1].Session; c.History != HistoryLive {
		t.Errorf("history %q, want the default live", c.History)
	}
}
