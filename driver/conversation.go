package driver

import (
	"slices"
	"sync"

	"surge/openai"
	"surge/trace"
)

// conversation holds the messages each turn of one session sent and the
// reply it got, so that a turn continuing another can send the whole
// conversation so far.
type conversation struct {
	s      *trace.Session
	salt   *salting                             // nil: none
	expand func(s *trace.Session, k int) string // writes a turn's missing text; may be nil
	pinned bool                                 // carry the trace's planned replies, not the server's
	keep   []bool                               // turn k's reply text is needed by a later turn
	tools  []openai.Tool                        // the session's tool definitions, sent with every turn

	mu      sync.Mutex // guards sent, replies, actual and grown: turns of a DAG run concurrently
	sent    [][]openai.Message
	replies []string
	actual  []int // reply tokens turn k's server reported generating; 0: not reported
	grown   []int // tokens turn k's prompt has beyond the trace's plan (live replies of other lengths)
}

// newConversation prepares the conversation state of s.
func newConversation(s *trace.Session, salt *salting, pinned bool, expand func(*trace.Session, int) string) *conversation {
	c := &conversation{
		s: s, salt: salt, pinned: pinned, expand: expand,
		keep: make([]bool, len(s.Turns)),
		sent: make([][]openai.Message, len(s.Turns)), replies: make([]string, len(s.Turns)),
		actual: make([]int, len(s.Turns)), grown: make([]int, len(s.Turns)),
	}
	if s.Tools != nil {
		c.tools = make([]openai.Tool, len(s.Tools.Tools))
		for i, t := range s.Tools.Tools {
			c.tools[i] = openai.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters}
		}
	}
	for _, t := range s.Turns {
		if t.Parent != nil && !pinned {
			c.keep[*t.Parent] = true
		}
	}
	return c
}

// messages returns the messages turn k sends: its parent's messages and
// reply then its user message, or, for a turn starting a conversation, the
// system prompt and the user message, the first of them salted (the salt
// in place of its first tokens).
func (c *conversation) messages(k int) []openai.Message {
	t := &c.s.Turns[k]
	c.mu.Lock()
	defer c.mu.Unlock()
	var msgs []openai.Message
	if t.Parent != nil {
		p := *t.Parent
		msgs = slices.Concat(c.sent[p], []openai.Message{{Role: "assistant", Content: c.reply(p)}})
		c.grown[k] = c.grown[p]
		if !c.pinned && c.actual[p] > 0 {
			c.grown[k] += c.actual[p] - c.s.Turns[p].OutputTokens
		}
	} else if t.System != "" {
		msgs = []openai.Message{{Role: "system", Content: t.System}}
	}
	msgs = append(msgs, openai.Message{Role: "user", Content: c.prompt(k)})
	if t.Parent == nil {
		msgs[0].Content, c.grown[k] = c.salt.apply(msgs[0].Content)
	}
	c.sent[k] = msgs
	return msgs
}

// prompt is turn k's new user message: the trace's text, or the text the
// expander writes for a turn without it.
func (c *conversation) prompt(k int) string {
	if t := &c.s.Turns[k]; t.Prompt != "" || c.expand == nil {
		return t.Prompt
	}
	return c.expand(c.s, k)
}

// inputs is what turn k of an embeddings session embeds: its batch of
// inputs, the first salted, or, for a turn without one, its prompt.
func (c *conversation) inputs(k int) (string, []string) {
	batch := c.s.Turns[k].Inputs
	if len(batch) == 0 {
		return c.completion(k), nil
	}
	if c.salt == nil {
		return "", batch
	}
	salted := slices.Clone(batch)
	var grown int
	salted[0], grown = c.salt.apply(batch[0])
	c.mu.Lock()
	c.grown[k] = grown
	c.mu.Unlock()
	return "", salted
}

// completion is turn k's completions prompt, salted: its text with the
// salt in place of its first tokens.
func (c *conversation) completion(k int) string {
	text, grown := c.salt.apply(c.prompt(k))
	c.mu.Lock()
	c.grown[k] = grown
	c.mu.Unlock()
	return text
}

// reply is what turn p's successors carry as its reply; c.mu is held.
func (c *conversation) reply(p int) string {
	if c.pinned {
		return c.s.Turns[p].Reply
	}
	return c.replies[p]
}

// finished records the server's reply to turn k: its text (kept only if
// a later turn carries it) and the tokens the server said it generated.
func (c *conversation) finished(k int, text string, tokens int) {
	c.mu.Lock()
	c.replies[k], c.actual[k] = text, tokens
	c.mu.Unlock()
}

// inputTokens is the prompt length turn k sends by the trace's counts:
// the planned length, corrected for live replies of other lengths than
// planned (by the server's own output counts); the salt takes the place
// of tokens the plan has (see salting.apply). It is meaningful once
// messages(k) or completion(k) has been called.
func (c *conversation) inputTokens(k int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.s.Turns[k].InputTokens + c.grown[k]
}
