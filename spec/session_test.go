package spec

import (
	"math"
	"os"
	"strings"
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

// TestAgentReset reads an agent's reset block, writes it back in the
// canonical form (which parses to the same block), and refuses a
// probability out of [0, 1].
func TestAgentReset(t *testing.T) {
	const base = "version: 1\nrequests: 5\nclients:\n  - name: a\n    model: m\n    concurrency: 1\n    input: 1k\n    output: 100\n    session:\n      kind: agent\n      steps: 5\n      tools: 1\n      tool_latency: 1s\n      tool_result: 200\n"
	s, err := Parse("reset.yaml", []byte(base+"      reset: {probability: 0.02, to: 20k}\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := s.Clients[0].Session.Agent.Reset
	if r == nil || r.Probability != 0.02 || r.To.String() != "fixed(value=20000)" {
		t.Fatalf("reset %+v, want probability 0.02 to fixed 20000", r)
	}
	again, err := Parse("canonical", s.Canonical())
	if err != nil {
		t.Fatalf("canonical form: %v\n%s", err, s.Canonical())
	}
	if r2 := again.Clients[0].Session.Agent.Reset; r2 == nil || r2.Probability != r.Probability || r2.To.String() != r.To.String() {
		t.Errorf("canonical reset %+v, want %+v", r2, r)
	}
	_, err = Parse("bad.yaml", []byte(base+"      reset: {probability: 2, to: 20k}\n"))
	if err == nil || !strings.Contains(err.Error(), "probability must be in [0, 1]") {
		t.Errorf("probability 2: %v, want a refusal", err)
	}
}

// TestAgentEpisodeLaws reads an agent's scale, correlation and reset by
// context, writes them back in the canonical form (which parses to the
// same), and refuses each malformed one with what is wrong.
func TestAgentEpisodeLaws(t *testing.T) {
	const base = "version: 1\nrequests: 5\nclients:\n  - name: a\n    model: m\n    concurrency: 1\n    input: 1k\n    output: 100\n    session:\n      kind: agent\n      steps: 5\n      tools: 1\n      tool_latency: 1s\n      tool_result: 200\n"
	const good = "      scale: {dist: lognormal, median: 1, sigma: 0.8}\n" +
		"      correlation: {steps_input: -0.3, steps_scale: -0.2}\n" +
		"      reset: {probability: 0.002, to: 60k, by_context: {at: [130k, 150k], probability: [0.02, 0.07]}}\n"
	s, err := Parse("laws.yaml", []byte(base+good))
	if err != nil {
		t.Fatal(err)
	}
	a := s.Clients[0].Session.Agent
	if a.Scale == nil || a.Correlation == nil || *a.Correlation != (EpisodeCorrelation{StepsInput: -0.3, StepsScale: -0.2}) {
		t.Fatalf("scale %v, correlation %+v", a.Scale, a.Correlation)
	}
	for _, tt := range []struct {
		context int
		want    float64
	}{{0, 0.002}, {129999, 0.002}, {130000, 0.02}, {149999, 0.02}, {150000, 0.07}, {1 << 30, 0.07}} {
		if got := a.Reset.At(tt.context); got != tt.want {
			t.Errorf("reset chance at %d tokens: %g, want %g", tt.context, got, tt.want)
		}
	}
	again, err := Parse("canonical", s.Canonical())
	if err != nil {
		t.Fatalf("canonical form: %v\n%s", err, s.Canonical())
	}
	if string(again.Canonical()) != string(s.Canonical()) {
		t.Errorf("canonical form does not parse to itself:\n%s\n%s", s.Canonical(), again.Canonical())
	}
	for _, tt := range []struct {
		block, want string
	}{
		{"      scale: {dist: uniform, min: -1, max: 0}\n", "must be positive"},
		{"      correlation: {steps_input: 1}\n", "steps_input must be in (−1, 1)"},
		{"      correlation: {steps_scale: 0.3}\n", "set scale too"},
		{"      scale: 1\n      correlation: {steps_input: 0.9, steps_scale: 0.9, input_scale: -0.9}\n", "not positive definite"},
		{"      reset: {probability: 0.01, to: 1k, by_context: {at: [2k, 1k], probability: [0.1, 0.2]}}\n", "ascending"},
		{"      reset: {probability: 0.01, to: 1k, by_context: {at: [2k], probability: [0.1, 0.2]}}\n", "the same, non-zero length"},
		{"      reset: {probability: 0.01, to: 1k, by_context: {at: [2k], probability: [1.5]}}\n", "probability must be in [0, 1]"},
	} {
		_, err := Parse("bad.yaml", []byte(base+tt.block))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want an error saying %q", tt.block, err, tt.want)
		}
	}
	_, err = Parse("both.yaml", []byte(strings.Replace(base, "    output: 100\n", "    output: 100\n    correlation: 0.2\n", 1)+"      correlation: {steps_input: 0.2}\n"))
	if err == nil || !strings.Contains(err.Error(), "drop the client's correlation or the session's") {
		t.Errorf("both correlations: %v, want a refusal", err)
	}
}
