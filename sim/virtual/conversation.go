package virtual

import (
	"slices"

	"surge/trace"
)

// Kinds of message content, mixed into content ids so that a system
// prompt, a user message and a reply never share an id.
const (
	kindSystem    uint64 = 0x73797374 // a client's pool entry: (client, SystemID)
	kindOwnSystem uint64 = 0x6f777379 // a system prompt with no id: (session, turn)
	kindUser      uint64 = 0x75736572 // (session, turn)
	kindReply     uint64 = 0x7265706c // (session, turn)
	kindBlock     uint64 = 0x626c6b73 // an imported content block: (block id)
	kindTools     uint64 = 0x746f6f6c // a session's tool definitions: (tool set id)
	kindImage     uint64 = 0x696d6167 // an image: (seed, size and format)
)

// messages replaces dst with the messages of turn k's prompt, in order:
// along the chain of parents from the conversation's root, the session's
// tool definitions (which templates render first), the root's system
// prompt, then each turn's user message followed by its reply, ending
// with turn k's user message. Token counts come from the trace:
//
//	tools = the tool set's Tokens, named by its id
//	system = SystemTokens of the root
//	user j = InputTokens_j − SystemTokens                       at the root
//	user j = InputTokens_j − (InputTokens_p + answer_p)         with parent p
//	reply p = answer_p (pinned) or the engine's output for p (live),
//	          less the reasoning, which clients do not carry forward
//	image i of turn j = its Tokens, after user j
//
// where answer_p = OutputTokens_p − ReasoningTokens_p
//
// (negative counts taken as 0), so with pinned history they sum to turn
// k's InputTokens plus the tools' and the images' tokens.
func (sr *sessionRun) messages(dst []message, k int) []message {
	dst = dst[:0]
	for j := k; ; {
		t := &sr.s.Turns[j]
		dst = appendImages(dst, t.Images)
		if t.Parent == nil {
			dst = sr.rootContent(dst, j)
			if t.SystemTokens > 0 {
				dst = append(dst, sr.system(j))
			}
			if ts := sr.s.Tools; ts != nil && ts.Tokens > 0 {
				dst = append(dst, message{tokens: ts.Tokens, id: ident(kindTools, ts.ID, 0)})
			}
			break
		}
		p := *t.Parent
		pt := &sr.s.Turns[p]
		answer := pt.OutputTokens - pt.ReasoningTokens
		reply := sr.turns[p].out - min(sr.turns[p].out, pt.ReasoningTokens)
		if sr.pinned {
			reply = answer
		}
		dst = append(dst, sr.user(j, t.InputTokens-pt.InputTokens-answer),
			message{tokens: max(reply, 0), id: ident(kindReply, sr.key, uint64(p))})
		j = p
	}
	slices.Reverse(dst)
	return dst
}

// appendImages appends, last first, the images a user message carries
// after its text, each a message of its tokens named by its seed, size
// and format, so equal images share their blocks.
func appendImages(dst []message, images []trace.Image) []message {
	for i := len(images) - 1; i >= 0; i-- {
		im := &images[i]
		var jpeg uint64
		if im.Format == "jpeg" {
			jpeg = 1
		}
		dst = append(dst, message{tokens: im.Tokens, id: ident(kindImage, im.Seed, uint64(im.W)<<32|uint64(im.H)<<1|jpeg)})
	}
	return dst
}

// images is the images turn k's request carries, its ancestors' among
// them, and their tokens.
func (sr *sessionRun) images(k int) (n, tokens int) {
	for j := &k; j != nil; j = sr.s.Turns[*j].Parent {
		n += len(sr.s.Turns[*j].Images)
		tokens += trace.ImageTokens(sr.s.Turns[*j].Images)
	}
	return n, tokens
}

// inputTokens is the prompt length turn k sends by the trace's counts, as
// the driver records it (Record.InputTokens): its InputTokens, corrected
// under live history for each reply along its chain of parents that the
// engine made of another length than planned,
//
//	InputTokens_k + Σ over ancestors p of (out_p − OutputTokens_p).
func (sr *sessionRun) inputTokens(k int) int {
	n := sr.s.Turns[k].InputTokens
	if sr.pinned {
		return n
	}
	for p := sr.s.Turns[k].Parent; p != nil; p = sr.s.Turns[*p].Parent {
		n += sr.turns[*p].out - sr.s.Turns[*p].OutputTokens
	}
	return n
}

// rootContent appends, last first (messages reverses them), the content
// of root turn j after its system prompt: its user message, or, for an
// imported turn described by content blocks, its blocks, then the rest of
// the prompt, named by TailBlock as a block cut short when the turn has
// one and else as content of this turn alone. The blocks are one message
// hashing as one per block would; a plain run builds one per block.
func (sr *sessionRun) rootContent(dst []message, j int) []message {
	t := &sr.s.Turns[j]
	n := t.InputTokens - t.SystemTokens
	if len(t.Blocks) == 0 {
		return append(dst, sr.user(j, n))
	}
	tail := message{tokens: max(n-len(t.Blocks)*t.BlockTokens, 0), id: ident(kindUser, sr.key, uint64(j))}
	if t.TailBlock != nil {
		tail.id = ident(kindBlock, *t.TailBlock, 0)
	}
	dst = append(dst, tail)
	if !sr.plain {
		return append(dst, message{tokens: len(t.Blocks) * t.BlockTokens, blocks: t.Blocks, per: t.BlockTokens})
	}
	for i := len(t.Blocks) - 1; i >= 0; i-- {
		dst = append(dst, message{tokens: t.BlockTokens, id: ident(kindBlock, t.Blocks[i], 0)})
	}
	return dst
}

// user is turn j's user message of n tokens: identified by its text when
// the trace has it, else by (session, turn).
func (sr *sessionRun) user(j, n int) message {
	return message{tokens: max(n, 0), id: ident(kindUser, sr.key, uint64(j)), text: sr.s.Turns[j].Prompt, role: kindUser}
}

// system is root turn j's system prompt: the client's pool entry SystemID
// when it has one, else its text, else a prompt of this turn alone.
func (sr *sessionRun) system(j int) message {
	t := &sr.s.Turns[j]
	if t.SystemID > 0 {
		return message{tokens: t.SystemTokens, id: ident(kindSystem, sr.client, uint64(t.SystemID))}
	}
	return message{tokens: t.SystemTokens, id: ident(kindOwnSystem, sr.key, uint64(j)), text: t.System, role: kindSystem}
}

// promptLen is the number of tokens in msgs.
func promptLen(msgs []message) int {
	n := 0
	for i := range msgs {
		n += msgs[i].tokens
	}
	return n
}
