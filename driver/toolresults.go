package driver

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"
	"unicode/utf8"

	"surge/openai"
	"surge/trace"
)

// toolResults are the tool messages answering calls: one per call, with
// the call's id, whose contents are text, the turn's planned tool
// results, cut into as many pieces (see splitText).
func toolResults(calls []openai.Call, text string) []openai.Message {
	pieces := splitText(text, len(calls))
	out := make([]openai.Message, len(calls))
	for i, c := range calls {
		out[i] = openai.Message{Role: openai.RoleTool, CallID: c.ID, Content: pieces[i]}
	}
	return out
}

// splitText cuts text into n pieces of about equal length that join back
// into it: piece i ends where the next starts, at the first space at or
// after i+1 n-ths of the text (so that words, and mostly tokens, stay
// whole), else at the first rune boundary there (text without spaces,
// such as Chinese, or its last word). Pieces are empty only where text has
// too few runes.
func splitText(text string, n int) []string {
	out := make([]string, n)
	start := 0
	for i := range n - 1 {
		cut := max(len(text)*(i+1)/n, start)
		if j := strings.IndexByte(text[cut:], ' '); j >= 0 {
			cut += j
		} else {
			for cut < len(text) && !utf8.RuneStart(text[cut]) {
				cut++
			}
		}
		out[i], start = text[start:cut], cut
	}
	out[n-1] = text[start:]
	return out
}

// pinnedCalls are the n tool calls of turn p's planned reply under pinned
// history, fixed by the trace alone: call j's id is a hash of the tool
// set's id (drawn from the seed), the session, p and j; its function is
// the tool the same hash picks; its arguments are {"input": piece j of
// the planned reply}, so that the calls carry the reply's tokens.
func pinnedCalls(s *trace.Session, p, n int, tools []openai.Tool) []openai.Call {
	pieces := splitText(s.Turns[p].Reply, n)
	out := make([]openai.Call, n)
	for j := range out {
		h := fnv.New64a()
		fmt.Fprintf(h, "%d %q %d %d %d", s.Tools.ID, s.Client, s.Index, p, j)
		sum := h.Sum64()
		args, _ := json.Marshal(struct {
			Input string `json:"input"`
		}{pieces[j]})
		out[j] = openai.Call{ID: fmt.Sprintf("call_%016x", sum), Name: tools[sum%uint64(len(tools))].Name, Arguments: string(args)}
	}
	return out
}
