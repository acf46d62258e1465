package importers

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"surge/trace"
)

// wekaConversation is one conversation file of the WEKA agentic traces
// (coding-agent sessions recorded through a proxy).
type wekaConversation struct {
	ID        string        `json:"id"`
	BlockSize int           `json:"block_size"`
	Scope     string        `json:"hash_id_scope"`
	Requests  []wekaRequest `json:"requests"`
	Subagent  any           `json:"subagent"`
}

// wekaRequest is one LLM call of a conversation. T is seconds from the
// conversation's start; ThinkTime the time since the previous call's
// response ended (ApiTime after its start).
type wekaRequest struct {
	T         *float64 `json:"t"`
	Type      string   `json:"type"`
	Model     string   `json:"model"`
	In        *int     `json:"in"`
	Out       *int     `json:"out"`
	HashIDs   []uint64 `json:"hash_ids"`
	ThinkTime float64  `json:"think_time"`
	APITime   float64  `json:"api_time"`
	Subagent  any      `json:"subagent"`
}

// WEKAOptions adjust a WEKA import.
type WEKAOptions struct {
	// Speed divides every think time: 10 replays ten times faster (0 or 1:
	// as recorded).
	Speed float64
}

// WEKA reads one conversation of the WEKA agentic traces from r and
// returns it as session index of client, the index also scoping the
// conversation's block ids (the files' hash ids are local to a
// conversation). Each call becomes a turn sent after the previous one
// ended plus its think time (divided by opts.Speed), asking for exactly
// its recorded output (at least 1 token). Its prompt is its recorded
// input: the blocks of its hash ids (full blocks of block_size tokens, as
// the files list them) and the rest as content of its own. The session's
// model is the one most of its calls used (the first by name on a tie). Sub-agent entries are refused
// with an error: the published files hold none.
func WEKA(r io.Reader, client string, index int, opts WEKAOptions) (*trace.Session, error) {
	var c wekaConversation
	dec := json.NewDecoder(r)
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("weka conversation: %w", err)
	}
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("weka conversation %q: %w", c.ID, err)
	}
	speed := opts.Speed
	if speed <= 0 {
		speed = 1
	}
	models := map[string]int{}
	for _, q := range c.Requests {
		models[q.Model]++
	}
	s := &trace.Session{Client: client, Index: index, Model: mostUsed(models), API: "chat"}
	scope := uint64(index+1) << 40
	for k, q := range c.Requests {
		out := max(*q.Out, 1)
		t := trace.Turn{
			InputTokens: *q.In, OutputTokens: out, MaxTokens: out, MinTokens: out, IgnoreEOS: true,
			BlockTokens: c.BlockSize, Blocks: make([]uint64, len(q.HashIDs)),
		}
		for i, id := range q.HashIDs {
			t.Blocks[i] = scope | id
		}
		if k > 0 {
			t.After = []int{k - 1}
			t.WaitUS = int64(math.Round(q.ThinkTime / speed * 1e6))
		}
		s.Turns = append(s.Turns, t)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("weka conversation %q: %w", c.ID, err)
	}
	return s, nil
}

// check verifies what the import relies on, naming the request at fault.
func (c *wekaConversation) check() error {
	switch {
	case c.Subagent != nil:
		return errors.New("sub-agent entries are not imported yet")
	case c.BlockSize < 1:
		return fmt.Errorf("block_size %d: want a positive block size", c.BlockSize)
	case c.Scope != "" && c.Scope != "local":
		return fmt.Errorf("hash_id_scope %q: only local (per-conversation) ids are known", c.Scope)
	case len(c.Requests) == 0:
		return errors.New("no requests")
	}
	for i, q := range c.Requests {
		switch {
		case q.Subagent != nil:
			return fmt.Errorf("requests[%d]: sub-agent entries are not imported yet", i)
		case q.In == nil || q.Out == nil:
			return fmt.Errorf("requests[%d]: missing in or out", i)
		case *q.In < 1 || *q.Out < 0:
			return fmt.Errorf("requests[%d]: in %d, out %d: want in ≥ 1 and out ≥ 0", i, *q.In, *q.Out)
		case len(q.HashIDs)*c.BlockSize > *q.In:
			return fmt.Errorf("requests[%d]: %d hash ids of %d tokens cover more than its %d input tokens", i, len(q.HashIDs), c.BlockSize, *q.In)
		case q.ThinkTime < 0 || math.IsNaN(q.ThinkTime):
			return fmt.Errorf("requests[%d]: think_time %g", i, q.ThinkTime)
		}
	}
	return nil
}
