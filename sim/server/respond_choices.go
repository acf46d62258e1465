package server

import (
	"encoding/json"
	"strconv"
	"strings"

	"surge/openai"
)

// appendChoices appends the chunks of the tokens of choices 1 to n−1
// that p has and the stream has not written yet, choice by choice.
func (rp *reply) appendChoices(dst []byte, p progress) []byte {
	if len(p.more) == 0 {
		return dst
	}
	if rp.sentMore == nil {
		rp.sentMore = make([]int, len(p.more))
	}
	for c, n := range p.more {
		for ; rp.sentMore[c] < n; rp.sentMore[c]++ {
			dst = rp.appendChoiceToken(dst, c+1, rp.sentMore[c])
		}
	}
	return dst
}

// wholeChoice is one choice of a whole chat or completions response:
// openai.Choice with its logprobs in either API's shape.
type wholeChoice struct {
	Index        int             `json:"index"`
	Message      *openai.Delta   `json:"message,omitempty"`
	Text         *string         `json:"text,omitempty"`
	Logprobs     json.RawMessage `json:"logprobs"`
	FinishReason string          `json:"finish_reason"`
}

// wholeChoices are the choices of a whole chat or completions response,
// each the same answer of the tokens generated.
func (rp *reply) wholeChoices(p progress) []wholeChoice {
	j := &rp.st.job
	reasoning, answer := rp.texts(p)
	if !rp.req.chat() {
		// Completions have no reasoning field: their text holds every token.
		reasoning, answer = "", reasoning+answer
	}
	out := make([]wholeChoice, j.choices)
	for c := range out {
		ch := wholeChoice{Index: c, FinishReason: finishReason(*j), Logprobs: json.RawMessage("null")}
		if rp.req.chat() {
			ch.Message = &openai.Delta{Role: "assistant", Content: &answer, ReasoningContent: reasoning}
			if j.tool != "" {
				ch.Message.Content = nil
				ch.Message.ToolCalls = []openai.ToolCall{{ID: toolCallID(rp.id), Type: "function",
					Function: openai.FunctionCall{Name: j.tool, Arguments: rp.arguments(p.tokens)}}}
			}
		} else {
			ch.Text = &answer
		}
		if j.logprobs {
			ch.Logprobs = rp.wholeLogprobs(c, p.tokens)
		}
		out[c] = ch
	}
	return out
}

// wholeLogprobs is the logprobs of choice c's first n tokens: chat's
// content array, or completions' four arrays.
func (rp *reply) wholeLogprobs(c, n int) json.RawMessage {
	j := &rp.st.job
	if rp.req.chat() {
		dst := []byte(`{"content":[`)
		for i := range n {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendTokenLogprob(dst, j.text(i), i, j.topLogprobs)
		}
		return append(dst, "]}"...)
	}
	var tokens, lps, tops, offs []string
	off := 0
	for i := range n {
		text := j.text(i)
		tokens = append(tokens, strconv.Quote(text))
		lps = append(lps, strconv.FormatFloat(logprob(i, 0), 'f', -1, 64))
		var alts []string
		for k := range max(j.topLogprobs, 1) {
			alts = append(alts, strconv.Quote(alternative(text, i, k))+":"+strconv.FormatFloat(logprob(i, k), 'f', -1, 64))
		}
		tops = append(tops, "{"+strings.Join(alts, ",")+"}")
		offs = append(offs, strconv.Itoa(off))
		off += len(text)
	}
	_ = c // every choice has the same tokens
	return json.RawMessage(`{"tokens":[` + strings.Join(tokens, ",") + `],"token_logprobs":[` + strings.Join(lps, ",") +
		`],"top_logprobs":[` + strings.Join(tops, ",") + `],"text_offset":[` + strings.Join(offs, ",") + `]}`)
}
