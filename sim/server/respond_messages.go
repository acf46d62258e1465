package server

import (
	"encoding/json"
	"strconv"

	"surge/openai"
)

// A Messages API stream, as Anthropic writes it: message_start with the
// input usage (sent with the first token, once the prefix cache was
// looked up); for a reasoning request a thinking block whose
// thinking_delta events are the reasoning tokens; a text block whose
// text_delta events are the answer tokens; content_block_stop; then
// message_delta with the stop reason, the usage and surge_timings, and
// message_stop. A reply calling a tool has a tool_use block in place of
// the text block, whose input_json_delta events are the answer tokens,
// and stops for tool_use.

// appendAnthropic appends the SSE event typ whose data is v, an object
// that starts with its type.
func appendAnthropic(dst []byte, typ string, v any) []byte {
	body, _ := json.Marshal(v)
	dst = append(dst, "event: "...)
	dst = append(dst, typ...)
	dst = append(dst, "\ndata: "...)
	dst = append(dst, body...)
	return append(dst, "\n\n"...)
}

// anthropicEvent is an event whose data is its type and an index.
type anthropicEvent struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
}

// appendMessagesToken appends the events of output token i: the message
// or block it opens, if any, then its delta.
func (rp *reply) appendMessagesToken(dst []byte, i int) []byte {
	reasoning := rp.st.job.reasoning
	if i == 0 {
		m := rp.messageHead()
		dst = appendAnthropic(dst, "message_start", struct {
			Type    string                  `json:"type"`
			Message openai.MessagesResponse `json:"message"`
		}{"message_start", m})
		if reasoning > 0 {
			dst = rp.appendBlockStart(dst, 0, "thinking")
		}
	}
	if i == reasoning && i < rp.st.job.outputLen {
		if reasoning > 0 {
			dst = appendAnthropic(dst, "content_block_stop", anthropicEvent{"content_block_stop", 0})
		}
		dst = rp.appendBlockStart(dst, rp.textIndex(), rp.answerBlock())
		if rp.st.job.tool != "" {
			return dst // the tool_use block's start is the token (its name)
		}
	}
	index, kind, field := rp.textIndex(), "text_delta", "text"
	value := rp.st.job.text(i)
	switch {
	case i < reasoning:
		index, kind, field = 0, "thinking_delta", "thinking"
	case rp.st.job.tool != "":
		kind, field, value = "input_json_delta", "partial_json", rp.argument(i)
	}
	dst = append(dst, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":"...)
	dst = strconv.AppendInt(dst, int64(index), 10)
	dst = append(dst, `,"delta":{"type":"`...)
	dst = append(dst, kind...)
	dst = append(dst, `","`...)
	dst = append(dst, field...)
	dst = append(dst, `":`...)
	dst = strconv.AppendQuote(dst, value)
	return append(dst, "}}\n\n"...)
}

// answerBlock is the kind of the block holding the answer: tool_use when
// the reply calls a tool, else text.
func (rp *reply) answerBlock() string {
	if rp.st.job.tool != "" {
		return "tool_use"
	}
	return "text"
}

// textIndex is the index of the text block: after the thinking block, if
// there is one.
func (rp *reply) textIndex() int {
	if rp.st.job.reasoning > 0 {
		return 1
	}
	return 0
}

// appendBlockStart appends the start of an empty block of kind ("text",
// "thinking" or "tool_use", whose input is {} until its deltas come).
func (rp *reply) appendBlockStart(dst []byte, index int, kind string) []byte {
	empty := ""
	b := openai.ContentBlock{Type: kind, Text: &empty}
	switch kind {
	case "thinking":
		b = openai.ContentBlock{Type: kind, Thinking: &empty, Signature: &empty}
	case "tool_use":
		b = openai.ContentBlock{Type: kind, ID: toolCallID(rp.id), Name: rp.st.job.tool, Input: json.RawMessage("{}")}
	}
	return appendAnthropic(dst, "content_block_start", struct {
		Type         string              `json:"type"`
		Index        int                 `json:"index"`
		ContentBlock openai.ContentBlock `json:"content_block"`
	}{"content_block_start", index, b})
}

// appendMessagesEnd appends the events closing a stream: an error event,
// or the open block's stop, message_delta and message_stop.
func (rp *reply) appendMessagesEnd(dst []byte, p progress) []byte {
	if p.failure != nil {
		e := anthropicError{Type: "error"}
		e.Error.Type, e.Error.Message = p.failure.typ, p.failure.msg
		return appendAnthropic(dst, "error", e)
	}
	if p.tokens > 0 {
		index := 0
		if p.tokens > rp.st.job.reasoning {
			index = rp.textIndex()
		}
		dst = appendAnthropic(dst, "content_block_stop", anthropicEvent{"content_block_stop", index})
	}
	m := rp.message(p)
	dst = appendAnthropic(dst, "message_delta", messageDelta{Type: "message_delta",
		Delta: stopDelta{StopReason: m.StopReason, StopSequence: m.StopSequence}, Usage: m.Usage, SurgeTimings: m.SurgeTimings})
	return append(dst, "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"...)
}

// messageDelta is the data of a message_delta event: the stop reason and
// the cumulative usage (the input counts included), with surge's timings.
type messageDelta struct {
	Type         string               `json:"type"`
	Delta        stopDelta            `json:"delta"`
	Usage        openai.MessagesUsage `json:"usage"`
	SurgeTimings *openai.SurgeTimings `json:"surge_timings"`
}

// stopDelta is the delta of a message_delta event.
type stopDelta struct {
	StopReason   *string `json:"stop_reason"`
	StopSequence *string `json:"stop_sequence"`
}

// anthropicError is the data of an error event.
type anthropicError struct {
	Type  string `json:"type"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// messageHead is the message with no content yet, and the input usage of
// the request's progress: the prompt tokens found in the prefix cache are
// read from the cache, the rest input.
func (rp *reply) messageHead() openai.MessagesResponse {
	return openai.MessagesResponse{ID: rp.id, Type: "message", Role: "assistant", Content: []openai.ContentBlock{},
		Model: rp.s.cfg.Model, Usage: openai.MessagesUsage{
			InputTokens:          rp.st.job.promptLen - rp.p.cached,
			CacheReadInputTokens: rp.p.cached,
			OutputTokens:         min(rp.p.tokens, 1),
		}}
}

// message is the whole message of a finished request: its thinking and
// text blocks, its stop reason (max_tokens, stop_sequence with the stop
// string that ended it, or end_turn), usage and timings.
func (rp *reply) message(p progress) openai.MessagesResponse {
	rp.p = p
	j := rp.st.job
	m := rp.messageHead()
	reasoning, answer := rp.texts(p)
	if reasoning != "" {
		sig := ""
		m.Content = append(m.Content, openai.ContentBlock{Type: "thinking", Thinking: &reasoning, Signature: &sig})
	}
	reason := "end_turn"
	switch {
	case answer != "" && j.tool != "":
		m.Content = append(m.Content, openai.ContentBlock{Type: "tool_use", ID: toolCallID(rp.id), Name: j.tool, Input: toolInput(rp.arguments(p.tokens))})
		reason = "tool_use"
	case answer != "":
		m.Content = append(m.Content, openai.ContentBlock{Type: "text", Text: &answer})
	}
	switch {
	case j.length:
		reason = "max_tokens"
	case j.stopped:
		reason, m.StopSequence = "stop_sequence", &j.stopWith
	}
	m.StopReason = &reason
	u, t := rp.usageOf(p)
	m.Usage.OutputTokens = u.CompletionTokens
	m.SurgeTimings = &t
	return m
}

// toolInput is a tool_use block's input: the call's arguments, {} when
// they are cut short of a whole JSON object.
func toolInput(arguments string) json.RawMessage {
	if !json.Valid([]byte(arguments)) {
		return json.RawMessage("{}")
	}
	return json.RawMessage(arguments)
}
