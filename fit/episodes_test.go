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
	if e.Shrinks != 2 || !slices.Equal(e.Growth, []float64{40, 40}) || !slices.Equal(e.Resets, []float64{50, 50}) || !slices.Equal(e.Delta, []float64{50, -100, 50, -100}) {
		t.Fatalf("episodes %+v, want growth 40, resets to 50, deltas 50 and -100", e)
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
	e, f := fitAgentSpec(t, yaml)
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

// TestFitEpisodeScale regenerates a spec whose episodes differ in scale,
// whose steps, task and scale are rank-correlated and whose resets
// gather above 20k tokens of context, and fits them back: the scale is
// found (its spread within 20%), the correlations within 0.1 of the
// spec's, and the resets' chance by context in two bins, the step near
// 20k.
func TestFitEpisodeScale(t *testing.T) {
	t.Parallel()
	const yaml = `version: 1
name: scaled
seed: 5
requests: 1500
clients:
  - name: agent
    model: m
    concurrency: 8
    input: {dist: lognormal, median: 3000, sigma: 0.5}
    output: 100
    session:
      kind: agent
      steps: {dist: uniform, min: 5, max: 60}
      tool_result: {dist: exponential, mean: 400}
      scale: {dist: lognormal, median: 1, sigma: 0.8}
      correlation: {steps_input: -0.3, steps_scale: -0.4, input_scale: 0.2}
      tools: 1
      tool_latency: 1s
      reset: {probability: 0.002, to: 2000, by_context: {at: [20000], probability: [0.2]}}
`
	_, f := fitAgentSpec(t, yaml)
	if f.Scale == nil || f.Correlation == nil {
		t.Fatalf("scale %v, correlation %v: want both fitted", f.Scale, f.Correlation)
	}
	var logs []float64
	for _, k := range f.Scale.Of {
		if k > 0 {
			logs = append(logs, math.Log(k))
		}
	}
	_, sd := meanSD(logs)
	c := f.Correlation
	if math.Abs(sd-0.8) > 0.16 {
		t.Errorf("log scale sd %.3f, want 0.8 ± 20%%", sd)
	}
	for _, x := range []struct {
		name      string
		got, want float64
	}{{"steps_input", c.StepsInput, -0.3}, {"steps_scale", c.StepsScale, -0.4}, {"input_scale", c.InputScale, 0.2}} {
		if math.Abs(x.got-x.want) > 0.1 {
			t.Errorf("%s %.3f, want %.1f ± 0.1", x.name, x.got, x.want)
		}
	}
	h := f.Hazard
	t.Logf("log scale sd %.3f; correlations %+v; resets at %v with %v", sd, *c, h.At, h.P)
	if len(h.At) != 2 || math.Abs(float64(h.At[1])-20000)/20000 > 0.1 || math.Abs(h.P[1]-0.2) > 0.04 || h.P[0] > 0.006 {
		t.Errorf("reset chance by context: at %v, p %v; want about 0.002 below 20000 and 0.2 above", h.At, h.P)
	}
}

// meanSD returns the mean and standard deviation of xs.
func meanSD(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x / float64(len(xs))
	}
	for _, x := range xs {
		sd += (x - mean) * (x - mean) / float64(len(xs)-1)
	}
	return mean, math.Sqrt(sd)
}

// fitAgentSpec regenerates the spec yaml and fits the episodes of its
// client named agent.
func fitAgentSpec(t *testing.T, yaml string) (Episodes, EpisodeFit) {
	t.Helper()
	s, err := spec.Parse("agent.yaml", []byte(yaml))
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
	return e, f
}
