package fit

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"surge/trace"
)

// TestEpisodesReset records a session whose context grows by 40 tokens,
// then shrinks to 50: the growth is kept, the shrink is counted with its
// prompt, the signed changes are both kept, and the fitted episodes state
// a reset of probability 1/2 to the shrunk prompt's length.
func TestEpisodesReset(t *testing.T) {
	zero, one := 0, 1
	s := &trace.Session{Turns: []trace.Turn{
		{InputTokens: 100, OutputTokens: 10},
		{InputTokens: 150, OutputTokens: 10, Parent: &zero},
		{InputTokens: 50, OutputTokens: 10, Parent: &one},
	}}
	var e Episodes
	e.add(s)
	e.add(s)
	if e.Shrinks != 2 || !slices.Equal(e.Growth, []float64{40, 40}) || !slices.Equal(e.Resets, []float64{50, 50}) || !slices.Equal(e.Delta, []float64{40, -110, 40, -110}) {
		t.Fatalf("episodes %+v, want growth 40, resets to 50, deltas 40 and -110", e)
	}
	f, err := FitEpisodes(e)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := writeReset(&b, &f); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "      reset:\n        probability: 0.5\n") || !strings.Contains(b.String(), "to: ") {
		t.Errorf("reset block:\n%s", &b)
	}
}
