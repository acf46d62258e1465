package workload

import (
	"surge/content/dataset"
	"surge/spec"
	"surge/trace"
)

// datasetChat builds the conversation of session index of client c from
// its dataset: the next conversation that serves, each of its user
// messages a turn continuing the one before after a think time, as chat
// does, with at most the client's turns law's draw of turns (all without
// one). A turn's output is the length of the reply the file records
// after its message (output: dataset; the conversation ends before the
// first message with none) or a draw from the output law; with pinned
// history the reply carried forward is the file's reply, or text of the
// drawn length under an output law.
func (b *builder) datasetChat(c *client, index int) ([]trace.Turn, error) {
	limit := trace.MaxTurns
	if c.Session.Turns != nil {
		limit = min(limit, tokens(c.Session.Turns.Sample(b.rng)))
	}
	sysID, sys := b.system(c)
	var turns []trace.Turn
	err := c.data.take(index, 0, func(i int) bool {
		turns = b.entryChat(c, i, limit)
		return turns != nil
	})
	if err == nil && sys != nil {
		t := &turns[0]
		t.SystemID, t.SystemTokens, t.System = sysID, sys.tokens, sys.text
		for k := range turns {
			turns[k].InputTokens += sys.tokens
		}
	}
	return turns, err
}

// entryChat is the conversation of entry i of c's dataset, at most limit
// turns, or nil when the entry does not serve, counted by why.
func (b *builder) entryChat(c *client, i, limit int) []trace.Turn {
	p, e := c.data, &c.data.set.Entries[i]
	if !p.inRange(count(b.g.tok, p.counts, i, e.Turns[0].Prompt)) {
		return nil
	}
	n := min(limit, len(e.Turns))
	if p.ds.Replies {
		for k := range n {
			if e.Turns[k].Reply == "" {
				n = k
				break
			}
		}
	}
	if n == 0 {
		p.noReply += p.once()
		return nil
	}
	turns := make([]trace.Turn, n)
	context := 0
	for k := range turns {
		turns[k] = b.entryChatTurn(c, e.Turns[k], k)
		t := &turns[k]
		if k == 0 {
			b.entrySystem(c, e, t)
			context = t.SystemTokens
			t.InputTokens -= t.SystemTokens // added back with the rest of the context
		}
		context += t.InputTokens
		t.InputTokens = context
		context += t.OutputTokens - t.ReasoningTokens // the reply carried forward is the answer
	}
	return turns
}

// entryChatTurn is turn k of a conversation from the file's dt: its user
// message's length as its input (the context is added by entryChat), its
// output and, with pinned history, its reply.
func (b *builder) entryChatTurn(c *client, dt dataset.Turn, k int) trace.Turn {
	tok := b.g.tok
	out := 0
	if c.data.ds.Replies {
		out = max(1, len(tok.Encode(dt.Reply)))
	} else {
		out = tokens(c.Output.Sample(b.rng))
	}
	t := b.lengthsTurn(c, len(tok.Encode(dt.Prompt)), out)
	t.Style, t.Language = "", ""
	if k > 0 {
		t.Parent = &[]int{k - 1}[0]
		if c.Session.Think != nil {
			t.WaitUS = micros(c.Session.Think.Sample(b.rng))
		}
	}
	if b.g.noText {
		return t
	}
	t.Prompt = dt.Prompt
	if c.Session.History == spec.HistoryPinned {
		t.Reply = dt.Reply
		if !c.data.ds.Replies {
			t.Style = string(c.text.style)
			b.buf = b.prompt(b.buf[:0], b.rng, &t, t.OutputTokens-t.ReasoningTokens)
			t.Reply, t.Style = string(b.buf), ""
		}
	}
	return t
}
