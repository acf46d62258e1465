package fit

import (
	"bytes"
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"surge/spec"
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

// TestFitSubagents regenerates agent episodes whose steps delegate to
// sub-agents and fits them back: the main loops' steps, the share of later
// steps that fork, and the sub-agents' turns and tasks come out as the
// spec states them, and no sub-agent's fresh start counts as a reset.
func TestFitSubagents(t *testing.T) {
	t.Parallel()
	const yaml = `version: 1
name: subagents
seed: 3
requests: 400
clients:
  - name: agent
    model: m
    concurrency: 4
    input: 3000
    output: 100
    session:
      kind: agent
      steps: {dist: uniform, min: 6, max: 10}
      tool_result: 200
      tools: 1
      tool_latency: 1s
      subagent: {probability: 0.2, steps: {dist: uniform, min: 2, max: 4}, task: 1500}
`
	s, err := spec.Parse("subagents", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	regen, err := regenerate(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	e := regen["agent"].Episodes
	f, err := FitEpisodes(e)
	if err != nil {
		t.Fatal(err)
	}
	mainSteps, _ := meanCV(e.Steps)
	sub := f.Subagent
	if sub == nil {
		t.Fatalf("no sub-agents fitted from %d sessions", len(e.Steps))
	}
	subSteps, _ := meanCV(e.SubSteps)
	task, _ := meanCV(e.SubTask)
	if math.Abs(mainSteps-8) > 0.3 || math.Abs(sub.Probability-0.2) > 0.03 || math.Abs(subSteps-3) > 0.2 || task != 1500 || e.Shrinks != 0 {
		t.Errorf("main steps %.2f (want 8), fork share %.3f (0.2), sub-agent turns %.2f (3), task %.0f (1500), shrinks %d (0)",
			mainSteps, sub.Probability, subSteps, task, e.Shrinks)
	}
}
