package importers

import (
	"errors"
	"fmt"
	"strings"

	"surge/trace"
)

// The roles of ShareGPT messages.
const (
	roleHuman = iota + 1
	roleGPT
	roleSystem
)

// shareGPTRoles maps the from values of ShareGPT files, lowercased, to
// their roles: the ShareGPT names and the OpenAI ones some copies use.
var shareGPTRoles = map[string]int{
	"human": roleHuman, "user": roleHuman,
	"gpt": roleGPT, "chatgpt": roleGPT, "assistant": roleGPT, "bard": roleGPT, "bing": roleGPT,
	"system": roleSystem,
}

// shareGPTTurns turns a conversation's messages into chat turns of real
// text and reports whether messages were left out before its end:
//
//   - a leading system message becomes the first turn's system prompt,
//     and leading gpt messages (a greeting no one asked for) are passed;
//
//   - then each human message answered by the gpt message after it is a
//     turn: its prompt the human text, its planned reply the gpt text,
//     its output exactly the reply's tokens (ignore_eos), its input the
//     whole conversation so far with pinned history,
//
//     input_k = system + Σ_{j<k} (prompt_j + reply_j) + prompt_k,
//
//     its parent the turn before and its wait opts.Think;
//
//   - the turns end at the first message breaking that alternation, an
//     empty message, a turn whose input plus output exceeds
//     opts.MaxContext, or after trace.MaxTurns turns; a last human
//     message with no reply is left out without counting as a cut.
//
// A conversation with no answered human message, or a message of an
// unknown role, is an error; one whose first turn exceeds MaxContext is
// errTooLong.
func shareGPTTurns(msgs []shareGPTMessage, opts ShareGPTOptions) (turns []trace.Turn, cut bool, err error) {
	roles := make([]int, len(msgs))
	for i, m := range msgs {
		if roles[i] = shareGPTRoles[strings.ToLower(m.From)]; roles[i] == 0 {
			return nil, false, fmt.Errorf("message %d from %q: want human, gpt or system", i, m.From)
		}
	}
	i, system := 0, ""
	if len(msgs) > 0 && roles[0] == roleSystem {
		system, i = msgs[0].Value, 1
	}
	for i < len(msgs) && roles[i] == roleGPT {
		i++
	}
	sys := 0
	if system != "" {
		sys = opts.Count(system)
	}
	history := sys
	for ; i+1 < len(msgs) && len(turns) < trace.MaxTurns; i += 2 {
		h, g := msgs[i], msgs[i+1]
		if roles[i] != roleHuman || roles[i+1] != roleGPT || h.Value == "" || g.Value == "" {
			break
		}
		in, out := history+opts.Count(h.Value), max(opts.Count(g.Value), 1)
		if opts.MaxContext > 0 && in+out > opts.MaxContext {
			break
		}
		if err := checkTokens(in, out); err != nil {
			return nil, false, fmt.Errorf("message %d: %w", i, err)
		}
		t := trace.Turn{InputTokens: in, OutputTokens: out, MaxTokens: out, MinTokens: out, IgnoreEOS: true,
			Prompt: h.Value, Reply: g.Value}
		if k := len(turns); k == 0 {
			t.System, t.SystemTokens = system, sys
		} else {
			parent := k - 1
			t.Parent, t.WaitUS = &parent, opts.Think.Microseconds()
		}
		turns = append(turns, t)
		history = in + out
	}
	switch {
	case len(turns) == 0 && opts.MaxContext > 0 && i+1 < len(msgs) && roles[i] == roleHuman && roles[i+1] == roleGPT &&
		msgs[i].Value != "" && msgs[i+1].Value != "":
		return nil, false, errTooLong
	case len(turns) == 0:
		return nil, false, errors.New("no human message answered by a gpt message")
	}
	// A lone unanswered human message at the end is no cut.
	cut = i < len(msgs) && !(i == len(msgs)-1 && roles[i] == roleHuman)
	return turns, cut, nil
}
