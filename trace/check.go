package trace

import "fmt"

// Validate checks what a driver relies on: a session has turns, at most
// MaxTurns, each turn depends only on turns before it, waits are not
// negative, and token counts and times are within the limits (MaxTokens,
// MaxOffset).
func (s *Session) Validate() error {
	if len(s.Turns) == 0 {
		return fmt.Errorf("no turns")
	}
	if len(s.Turns) > MaxTurns {
		return fmt.Errorf("%d turns: want at most %d (trace.MaxTurns)", len(s.Turns), MaxTurns)
	}
	if s.DeadlineUS < 0 {
		return fmt.Errorf("negative deadline_us %d", s.DeadlineUS)
	}
	if err := checkTime("at_us", s.AtUS); err != nil {
		return err
	}
	if err := checkTime("deadline_us", s.DeadlineUS); err != nil {
		return err
	}
	if s.Tools != nil {
		if err := s.Tools.validate(); err != nil {
			return err
		}
	}
	for k := range s.Turns {
		t := &s.Turns[k]
		for _, d := range t.Deps() {
			if d < 0 || d >= k {
				return fmt.Errorf("turn %d depends on turn %d: a turn may depend only on turns before it", k, d)
			}
		}
		if t.WaitUS < 0 {
			return fmt.Errorf("turn %d: negative wait_us %d", k, t.WaitUS)
		}
		if err := t.checkLimits(); err != nil {
			return fmt.Errorf("turn %d: %w", k, err)
		}
		if err := t.checkBlocks(); err != nil {
			return fmt.Errorf("turn %d: %w", k, err)
		}
		if err := t.checkImages(); err != nil {
			return fmt.Errorf("turn %d: %w", k, err)
		}
		if len(t.Images) > 0 && s.API != "" && s.API != "chat" && s.API != "responses" && s.API != "messages" {
			return fmt.Errorf("turn %d: images in a %s session: only chat, responses and messages send them", k, s.API)
		}
	}
	return nil
}

// checkBlocks checks a turn's content blocks: only on a turn starting a
// conversation, of a positive size, within its prompt, and a tail block
// only where a rest shorter than a block follows them.
func (t *Turn) checkBlocks() error {
	if t.TailBlock != nil {
		rest := t.InputTokens - len(t.Blocks)*t.BlockTokens
		switch {
		case t.Parent != nil:
			return fmt.Errorf("tail_block on a turn continuing a conversation")
		case t.BlockTokens < 1:
			return fmt.Errorf("tail_block with block_tokens %d", t.BlockTokens)
		case rest < 1 || rest >= t.BlockTokens:
			return fmt.Errorf("tail_block on a rest of %d tokens after %d blocks of %d: want 1 to %d", rest, len(t.Blocks), t.BlockTokens, t.BlockTokens-1)
		}
	}
	switch n := len(t.Blocks); {
	case n == 0:
		return nil
	case t.Parent != nil:
		return fmt.Errorf("blocks on a turn continuing a conversation")
	case t.BlockTokens < 1:
		return fmt.Errorf("blocks with block_tokens %d", t.BlockTokens)
	case n*t.BlockTokens > t.InputTokens:
		return fmt.Errorf("%d blocks of %d tokens exceed input_tokens %d", n, t.BlockTokens, t.InputTokens)
	}
	return nil
}
