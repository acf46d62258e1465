package driver

import (
	"slices"
	"sync"

	"surge/content/vision"
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
	called []int                                // pinned: the tool calls turn k's planned reply makes (a successor's tool_calls)
	tools  []openai.Tool                        // the session's tool definitions, sent with every turn
	images *vision.Cache                        // encodes the turns' images; nil when none has any

	mu      sync.Mutex // guards sent, replies, calls, actual and grown: turns of a DAG run concurrently
	sent    [][]openai.Message
	replies []string
	calls   [][]openai.Call // the tool calls of turn k's reply, with the server's ids
	actual  []int           // reply tokens turn k's server reported generating; 0: not reported
	grown   []int           // tokens turn k's prompt has beyond the trace's plan (live replies of other lengths)
	seen    []imageCount
}

// imageCount is the images a turn's request carries, its ancestors'
// among them, and their tokens.
type imageCount struct{ images, tokens int }

// newConversation prepares the conversation state of s.
func newConversation(s *trace.Session, salt *salting, pinned bool, expand func(*trace.Session, int) string, images *vision.Cache) *conversation {
	c := &conversation{
		s: s, salt: salt, pinned: pinned, expand: expand, images: images,
		keep: make([]bool, len(s.Turns)),
		sent: make([][]openai.Message, len(s.Turns)), replies: make([]string, len(s.Turns)),
		calls:  make([][]openai.Call, len(s.Turns)),
		actual: make([]int, len(s.Turns)), grown: make([]int, len(s.Turns)),
		seen: make([]imageCount, len(s.Turns)),
	}
	if pinned {
		c.called = make([]int, len(s.Turns))
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
		if t.Parent != nil && pinned && t.ToolCalls > 0 && c.called[*t.Parent] == 0 {
			c.called[*t.Parent] = t.ToolCalls
		}
	}
	return c
}

// messages returns the messages turn k sends: its parent's messages and
// reply then its user message, or, for a turn starting a conversation, the
// system prompt and the user message, the first of them salted (the salt
// in place of its first tokens). When the parent's reply called tools,
// the reply carries its calls and the user message is their results, one
// tool message per call (see toolResults).
func (c *conversation) messages(k int) []openai.Message {
	t := &c.s.Turns[k]
	c.mu.Lock()
	defer c.mu.Unlock()
	var msgs []openai.Message
	c.seen[k] = imageCount{len(t.Images), trace.ImageTokens(t.Images)}
	if t.Parent != nil {
		p := *t.Parent
		reply := c.replyMessage(p)
		calls := reply.Calls
		msgs = slices.Concat(c.sent[p], []openai.Message{reply})
		c.grown[k] = c.grown[p]
		c.seen[k].images += c.seen[p].images
		c.seen[k].tokens += c.seen[p].tokens
		if !c.pinned && c.actual[p] > 0 {
			c.grown[k] += c.actual[p] - c.s.Turns[p].OutputTokens
		}
		if len(calls) > 0 {
			// Tool results carry no images.
			c.seen[k].images -= len(t.Images)
			c.seen[k].tokens -= trace.ImageTokens(t.Images)
			msgs = append(msgs, toolResults(calls, c.prompt(k))...)
			c.sent[k] = msgs
			return msgs
		}
	} else if t.System != "" {
		msgs = []openai.Message{{Role: "system", Content: t.System}}
	}
	msgs = append(msgs, openai.Message{Role: "user", Content: c.prompt(k), Images: c.imagesOf(t)})
	if t.Parent == nil {
		msgs[0].Content, c.grown[k] = c.salt.apply(msgs[0].Content)
	}
	c.sent[k] = msgs
	return msgs
}

// imagesOf is the images of turn t as its message carries them, from the
// cache. The driver validated every image's size and format, so none
// fails to encode.
func (c *conversation) imagesOf(t *trace.Turn) []openai.Image {
	if len(t.Images) == 0 {
		return nil
	}
	out := make([]openai.Image, 0, len(t.Images))
	for _, im := range t.Images {
		v, err := c.images.Get(vision.Key{W: im.W, H: im.H, Seed: im.Seed, Format: im.Format})
		if err == nil {
			out = append(out, openai.Image{MediaType: v.MediaType, Data: v.Data})
		}
	}
	return out
}

// imageCount is the images turn k's request carried and their tokens,
// meaningful once messages(k) has been called.
func (c *conversation) imageCount(k int) imageCount {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seen[k]
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

// scored is what turn k of a rerank or score session sends: its query,
// salted as a completions prompt is, and its documents. A salt that
// grows the query grows every pair, as each holds the query.
func (c *conversation) scored(k int) (string, []string) {
	query := c.completion(k)
	c.mu.Lock()
	c.grown[k] *= len(c.s.Turns[k].Documents)
	c.mu.Unlock()
	return query, c.s.Turns[k].Documents
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

// replyMessage is the assistant message turn p's successors carry: its
// reply and the tool calls it made; with pinned history, the planned
// reply, as tool calls (pinnedCalls) when a successor carries their
// results. c.mu is held.
func (c *conversation) replyMessage(p int) openai.Message {
	if !c.pinned {
		return openai.Message{Role: "assistant", Content: c.replies[p], Calls: c.calls[p]}
	}
	if n := c.called[p]; n > 0 && len(c.tools) > 0 {
		return openai.Message{Role: "assistant", Calls: pinnedCalls(c.s, p, n, c.tools)}
	}
	return openai.Message{Role: "assistant", Content: c.s.Turns[p].Reply}
}

// finished records the server's reply to turn k: its text and tool calls
// (kept only if a later turn carries them) and the tokens the server said
// it generated.
func (c *conversation) finished(k int, text string, calls []openai.Call, tokens int) {
	c.mu.Lock()
	c.replies[k], c.calls[k], c.actual[k] = text, calls, tokens
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
