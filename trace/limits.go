package trace

import (
	"fmt"
	"time"
)

// Limits on what a trace may hold. A Reader refuses a line beyond any of
// them, naming the line, before any later stage allocates or waits from
// the number, and a Writer refuses to write one, so every trace surge
// writes reads back. Each is far beyond what a real workload needs.
const (
	// MaxLine is the longest trace line a Reader accepts: a session with
	// a few million tokens of prompt text, with room for JSON escaping.
	MaxLine = 64 << 20

	// MaxTokens bounds every token count of a turn (input, output,
	// reasoning, max and min tokens, system prompt, content block, a
	// fault's tokens): 10M tokens, several times the longest context any
	// model serves today.
	MaxTokens = 10_000_000

	// MaxTurns bounds the turns of one session: a chat of ten thousand
	// turns, or an agent episode of ten thousand LLM calls.
	MaxTurns = 10_000

	// MaxOffset bounds every time of a trace (a session's start, a
	// turn's wait, a deadline, a fault's time, the warmup): a run of a
	// year, which no measurement needs and which keeps every sum of them
	// far inside time.Duration's ±292 years.
	MaxOffset = 366 * 24 * time.Hour

	// MaxConcurrency bounds a closed-loop client's sessions in flight.
	MaxConcurrency = 1_000_000
)

// maxOffsetUS is MaxOffset in microseconds, as traces write times.
const maxOffsetUS = int64(MaxOffset / time.Microsecond)

// checkTokens checks one token count of a turn, named by field.
func checkTokens(field string, n int) error {
	if n < 0 || n > MaxTokens {
		return fmt.Errorf("%s %d: want 0 to %d (trace.MaxTokens); is the trace corrupt, or its lengths in another unit?", field, n, MaxTokens)
	}
	return nil
}

// checkTime checks one time of a trace, in microseconds, named by field.
func checkTime(field string, us int64) error {
	if us < 0 || us > maxOffsetUS {
		return fmt.Errorf("%s %d: want 0 to %d (a year, trace.MaxOffset); is the trace corrupt, or its times in another unit?", field, us, maxOffsetUS)
	}
	return nil
}

// checkLimits checks a turn's token counts, wait and fault against the
// limits.
func (t *Turn) checkLimits() error {
	counts := []struct {
		field string
		n     int
	}{
		{"input_tokens", t.InputTokens}, {"output_tokens", t.OutputTokens},
		{"reasoning_tokens", t.ReasoningTokens}, {"max_tokens", t.MaxTokens},
		{"min_tokens", t.MinTokens}, {"system_tokens", t.SystemTokens},
		{"block_tokens", t.BlockTokens}, {"tool_calls", t.ToolCalls},
	}
	for _, c := range counts {
		if err := checkTokens(c.field, c.n); err != nil {
			return err
		}
	}
	if err := checkTime("wait_us", t.WaitUS); err != nil {
		return err
	}
	if !(t.Copy >= 0 && t.Copy <= 1) {
		return fmt.Errorf("copy %g: want a fraction in [0, 1]", t.Copy)
	}
	if t.Fault != nil {
		return t.Fault.checkLimits()
	}
	return nil
}

// checkLimits checks a fault's tokens, times and speed against the limits.
func (f *Fault) checkLimits() error {
	if err := checkTokens("fault tokens", f.Tokens); err != nil {
		return err
	}
	if err := checkTime("fault after_us", f.AfterUS); err != nil {
		return err
	}
	if err := checkTime("fault stall_us", f.StallUS); err != nil {
		return err
	}
	if f.BytesPerS < 0 {
		return fmt.Errorf("fault bytes_per_s %d: want 0 or more", f.BytesPerS)
	}
	return nil
}

// Validate checks what a driver relies on in a header: closed-loop
// concurrencies, the warmup and the fault windows within the limits.
func (h *Header) Validate() error {
	if err := checkTime("warmup_us", h.WarmupUS); err != nil {
		return err
	}
	for _, c := range h.Clients {
		if c.Concurrency < 0 || c.Concurrency > MaxConcurrency {
			return fmt.Errorf("client %q: concurrency %d: want 0 (open loop) to %d (trace.MaxConcurrency)", c.Name, c.Concurrency, MaxConcurrency)
		}
	}
	for i, w := range h.FaultWindows {
		if err := checkTime("at_us", w.AtUS); err != nil {
			return fmt.Errorf("fault_windows[%d]: %w", i, err)
		}
		if err := checkTime("for_us", w.ForUS); err != nil {
			return fmt.Errorf("fault_windows[%d]: %w", i, err)
		}
	}
	return nil
}
