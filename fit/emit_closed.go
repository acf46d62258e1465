package fit

import (
	"bytes"
	"fmt"
	"strings"
)

// writeClosed writes the rest of a closed-loop client: its concurrency,
// and its lengths, or for sessions of several turns an agent episode of
// the fitted task, steps, tool latency and tool result.
func writeClosed(b *bytes.Buffer, c Client) error {
	fmt.Fprintf(b, "    # closed loop: %d sessions, %d in flight, as the trace's header says\n", c.Sessions, c.Concurrency)
	fmt.Fprintf(b, "    concurrency: %d\n", c.Concurrency)
	e := c.Episodes
	if e == nil {
		l := c.Lengths
		if c.Prefix != nil {
			l.Input = c.Prefix.Rest
		}
		if err := writeLengths(b, l); err != nil {
			return err
		}
		writeMix(b, c.Mix)
		return writePrefix(b, c.Prefix)
	}
	task := e.Task
	if c.Prefix != nil {
		task = c.Prefix.Rest
	}
	fmt.Fprintf(b, "    # sessions of several turns, stated as agent episodes: the first prompt is the task (input),\n")
	fmt.Fprintf(b, "    # each later prompt adds the answer before it and a tool result (tool_result) after a wait (tool_latency)\n")
	if err := writeLength(b, "    ", "input", task, 1); err != nil {
		return err
	}
	if err := writeLength(b, "    ", "output", c.Lengths.Output, 1); err != nil {
		return err
	}
	if r := c.Lengths.Reasoning; r != nil {
		if err := writeLength(b, "    ", "reasoning", *r, 1); err != nil {
			return err
		}
	}
	writeMix(b, c.Mix)
	b.WriteString("    session:\n      kind: agent\n      history: pinned\n      tools: 1\n")
	for _, k := range []struct {
		key   string
		l     Length
		floor float64
	}{{"steps", e.Steps, 1}, {"tool_latency", e.Wait, 0.001}, {"tool_result", e.Growth, 1}} {
		if err := writeLength(b, "      ", k.key, k.l, k.floor); err != nil {
			return err
		}
	}
	if err := writeScale(b, e); err != nil {
		return err
	}
	if err := writeReset(b, e); err != nil {
		return err
	}
	if err := writeSubagent(b, e.Subagent); err != nil {
		return err
	}
	return writePrefix(b, c.Prefix)
}

// writeSubagent writes the episodes' sub-agents, if any: the share of
// later steps that fork one, and the laws of its turns and task.
func writeSubagent(b *bytes.Buffer, s *SubagentFit) error {
	if s == nil {
		return nil
	}
	fmt.Fprintf(b, "      # sub-agents: %s of the main loops' later steps fork one, which starts afresh from its task\n", num(s.Probability))
	fmt.Fprintf(b, "      subagent:\n        probability: %s\n", num(s.Probability))
	if err := writeLength(b, "        ", "steps", s.Steps, 1); err != nil {
		return err
	}
	return writeLength(b, "        ", "task", s.Task, 1)
}

// writeReset writes the reset of episodes whose prompts shrank: the share
// of later prompts that did, and the law of their lengths.
func writeReset(b *bytes.Buffer, e *EpisodeFit) error {
	if e.Reset == nil || e.Later == 0 {
		return nil
	}
	fmt.Fprintf(b, "      # %d of %d later prompts are shorter than the one before (resets, compaction):\n", e.Shrinks, e.Later)
	fmt.Fprintf(b, "      # stated as resets to their lengths, and left out of tool_result\n")
	h := e.Hazard
	if len(h.P) == 0 {
		h = Hazard{At: []int{0}, P: []float64{float64(e.Shrinks) / float64(e.Later)}}
	}
	fmt.Fprintf(b, "      reset:\n        probability: %s\n", num(h.P[0]))
	if err := writeLength(b, "        ", "to", *e.Reset, 1); err != nil {
		return err
	}
	if len(h.P) == 1 {
		fmt.Fprintf(b, "        # the same chance at every context: bins by context do not lower the BIC\n")
		return nil
	}
	at, ps := make([]string, len(h.P)-1), make([]string, len(h.P)-1)
	for i := range at {
		at[i], ps[i] = fmt.Sprint(h.At[i+1]), num(h.P[i+1])
	}
	fmt.Fprintf(b, "        # the chance by the context a step follows, in %d bins chosen by BIC (%.1f, one chance %.1f)\n", len(h.P), h.BIC[1], h.BIC[0])
	fmt.Fprintf(b, "        by_context: {at: [%s], probability: [%s]}\n", strings.Join(at, ", "), strings.Join(ps, ", "))
	return nil
}

// writeScale writes the episodes' scale and the rank correlations of
// steps, task and scale, when the fit kept them.
func writeScale(b *bytes.Buffer, e *EpisodeFit) error {
	if s := e.Scale; s != nil {
		fmt.Fprintf(b, "      # episodes differ in how fast their contexts grow: log growth by episode, F %.2f (p %.2g) over %d episodes;\n", s.F, s.P, s.Groups)
		fmt.Fprintf(b, "      # each episode draws a scale (its mean growth over the episodes' mean) that multiplies its tool results\n")
		if err := writeLength(b, "      ", "scale", s.Scale, 0.001); err != nil {
			return err
		}
	}
	if c := e.Correlation; c != nil {
		fmt.Fprintf(b, "      # rank correlations of an episode's steps, task and scale (kept where |rho|*sqrt(n-1) > %.3f)\n", CorrelationZ)
		fmt.Fprintf(b, "      correlation: {steps_input: %s, steps_scale: %s, input_scale: %s}\n", num(c.StepsInput), num(c.StepsScale), num(c.InputScale))
	}
	return nil
}
