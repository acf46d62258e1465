package server

import (
	"encoding/json"
	"strconv"

	"surge/openai"
)

// A Responses API stream, as OpenAI writes it: response.created and
// response.in_progress; for a reasoning request a reasoning item whose
// reasoning_text deltas are the reasoning tokens; a message item with one
// output_text part whose deltas are the answer tokens; the done events
// that close the part and the items, with their whole text; and
// response.completed, or response.incomplete when the output reached
// max_output_tokens, carrying the whole response with its usage and
// surge_timings. Every event has a sequence_number. A reply calling a
// tool has a function_call item in place of the message, whose
// function_call_arguments deltas are the answer tokens.

// Item IDs of a request's reasoning and message.
func (rp *reply) reasoningID() string { return "rs_" + strconv.FormatUint(rp.st.id, 10) }
func (rp *reply) messageID() string   { return "msg_" + strconv.FormatUint(rp.st.id, 10) }

// appendEvent appends the SSE event of type typ whose data is the members
// of v (an object) after type and sequence_number.
func (rp *reply) appendEvent(dst []byte, typ string, v any) []byte {
	body, _ := json.Marshal(v)
	dst = rp.appendEventHead(dst, typ)
	if len(body) > 2 {
		dst = append(dst, ',')
	}
	dst = append(dst, body[1:]...)
	return append(dst, "\n\n"...)
}

// appendEventHead appends the event line of typ and the start of its
// data, up to its sequence number.
func (rp *reply) appendEventHead(dst []byte, typ string) []byte {
	dst = append(dst, "event: "...)
	dst = append(dst, typ...)
	dst = append(dst, "\ndata: {\"type\":\""...)
	dst = append(dst, typ...)
	dst = append(dst, `","sequence_number":`...)
	dst = strconv.AppendInt(dst, int64(rp.seq), 10)
	rp.seq++
	return dst
}

// appendResponsesStart appends response.created and response.in_progress.
func (rp *reply) appendResponsesStart(dst []byte) []byte {
	r := rp.responseHead("in_progress")
	dst = rp.appendEvent(dst, "response.created", struct {
		Response openai.Response `json:"response"`
	}{r})
	return rp.appendEvent(dst, "response.in_progress", struct {
		Response openai.Response `json:"response"`
	}{r})
}

// appendResponsesToken appends the events of output token i: the item it
// opens, if any, then its delta.
func (rp *reply) appendResponsesToken(dst []byte, i int) []byte {
	reasoning := rp.st.job.reasoning
	if i == 0 && reasoning > 0 {
		dst = rp.appendItem(dst, "response.output_item.added", rp.reasoningItem(0, "in_progress"), 0)
	}
	if i == reasoning && i < rp.st.job.outputLen {
		if reasoning > 0 {
			dst = rp.appendItem(dst, "response.output_item.done", rp.reasoningItem(i, "completed"), 0)
		}
		if rp.st.job.tool != "" {
			// The item's start carries the first token's arguments: one
			// event per token, as in chat.
			return rp.appendItem(dst, "response.output_item.added", rp.callItem(i+1, "in_progress"), rp.messageIndex())
		}
		dst = rp.appendItem(dst, "response.output_item.added", rp.messageItem(0, "in_progress"), rp.messageIndex())
		dst = rp.appendPart(dst, "response.content_part.added", "")
	}
	if rp.st.job.tool != "" && i >= reasoning {
		return rp.appendArgumentsDelta(dst, i)
	}
	typ, item, index := "response.output_text.delta", rp.messageID(), rp.messageIndex()
	if i < reasoning {
		typ, item, index = "response.reasoning_text.delta", rp.reasoningID(), 0
	}
	dst = rp.appendEventHead(dst, typ)
	dst = append(dst, `,"item_id":"`...)
	dst = append(dst, item...)
	dst = append(dst, `","output_index":`...)
	dst = strconv.AppendInt(dst, int64(index), 10)
	dst = append(dst, `,"content_index":0,"delta":`...)
	dst = strconv.AppendQuote(dst, rp.st.job.text(i))
	if j := &rp.st.job; j.logprobs && i >= reasoning {
		dst = append(dst, `,"logprobs":[`...)
		dst = appendTokenLogprob(dst, j.text(i), i, j.topLogprobs)
		dst = append(dst, ']')
	}
	return append(dst, "}\n\n"...)
}

// appendArgumentsDelta appends the arguments delta of answer token i of
// a function call.
func (rp *reply) appendArgumentsDelta(dst []byte, i int) []byte {
	dst = rp.appendEventHead(dst, "response.function_call_arguments.delta")
	dst = append(dst, `,"item_id":"`...)
	dst = append(dst, rp.callItemID()...)
	dst = append(dst, `","output_index":`...)
	dst = strconv.AppendInt(dst, int64(rp.messageIndex()), 10)
	dst = append(dst, `,"delta":`...)
	dst = strconv.AppendQuote(dst, rp.argument(i))
	return append(dst, "}\n\n"...)
}

// callItemID is the item ID of a request's function call.
func (rp *reply) callItemID() string { return "fc_" + strconv.FormatUint(rp.st.id, 10) }

// callItem is the function call item whose arguments are the answer
// tokens up to token n.
func (rp *reply) callItem(n int, status string) openai.ResponseItem {
	return openai.ResponseItem{Type: "function_call", ID: rp.callItemID(), Status: status,
		Name: rp.st.job.tool, CallID: toolCallID(rp.id), Arguments: rp.arguments(n)}
}

// messageIndex is the output index of the message item: after the
// reasoning item, if there is one.
func (rp *reply) messageIndex() int {
	if rp.st.job.reasoning > 0 {
		return 1
	}
	return 0
}

// appendItem appends an output item event.
func (rp *reply) appendItem(dst []byte, typ string, item openai.ResponseItem, index int) []byte {
	return rp.appendEvent(dst, typ, struct {
		OutputIndex int                 `json:"output_index"`
		Item        openai.ResponseItem `json:"item"`
	}{index, item})
}

// appendPart appends a content part event of the message's output_text
// part holding text.
func (rp *reply) appendPart(dst []byte, typ, text string) []byte {
	return rp.appendEvent(dst, typ, struct {
		ItemID       string             `json:"item_id"`
		OutputIndex  int                `json:"output_index"`
		ContentIndex int                `json:"content_index"`
		Part         openai.ContentPart `json:"part"`
	}{rp.messageID(), rp.messageIndex(), 0, openai.ContentPart{Type: "output_text", Text: text}})
}

// reasoningItem is the reasoning item holding the first n reasoning
// tokens.
func (rp *reply) reasoningItem(n int, status string) openai.ResponseItem {
	it := openai.ResponseItem{Type: "reasoning", ID: rp.reasoningID(), Status: status}
	if n > 0 {
		it.Content = []openai.ContentPart{{Type: "reasoning_text", Text: rp.st.job.textOf(0, n)}}
	}
	return it
}

// messageItem is the message item holding answer tokens up to token n.
func (rp *reply) messageItem(n int, status string) openai.ResponseItem {
	it := openai.ResponseItem{Type: "message", ID: rp.messageID(), Status: status, Role: "assistant", Content: []openai.ContentPart{}}
	if r := rp.st.job.reasoning; n > r {
		it.Content = []openai.ContentPart{{Type: "output_text", Text: rp.st.job.textOf(r, n)}}
	}
	return it
}

// appendResponsesEnd appends the events closing a stream: an error event,
// or the done events of the open part and items and the final event.
func (rp *reply) appendResponsesEnd(dst []byte, p progress) []byte {
	if p.failure != nil {
		return rp.appendEvent(dst, "error", struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Param   *int   `json:"param"`
		}{p.failure.typ, p.failure.msg, nil})
	}
	j := rp.st.job
	if p.tokens > j.reasoning && j.tool != "" {
		it := rp.callItem(p.tokens, "completed")
		dst = rp.appendEvent(dst, "response.function_call_arguments.done", struct {
			ItemID      string `json:"item_id"`
			OutputIndex int    `json:"output_index"`
			Arguments   string `json:"arguments"`
		}{it.ID, rp.messageIndex(), it.Arguments})
		dst = rp.appendItem(dst, "response.output_item.done", it, rp.messageIndex())
	} else if p.tokens > j.reasoning {
		answer := j.textOf(j.reasoning, p.tokens)
		dst = rp.appendEvent(dst, "response.output_text.done", struct {
			ItemID       string `json:"item_id"`
			OutputIndex  int    `json:"output_index"`
			ContentIndex int    `json:"content_index"`
			Text         string `json:"text"`
		}{rp.messageID(), rp.messageIndex(), 0, answer})
		dst = rp.appendPart(dst, "response.content_part.done", answer)
		dst = rp.appendItem(dst, "response.output_item.done", rp.messageItem(p.tokens, "completed"), rp.messageIndex())
	} else if p.tokens > 0 {
		dst = rp.appendItem(dst, "response.output_item.done", rp.reasoningItem(p.tokens, "completed"), 0)
	}
	r := rp.response(p)
	typ := "response.completed"
	if r.Status == "incomplete" {
		typ = "response.incomplete"
	}
	return rp.appendEvent(dst, typ, struct {
		Response openai.Response `json:"response"`
	}{r})
}

// responseHead is the response with no output yet.
func (rp *reply) responseHead(status string) openai.Response {
	return openai.Response{ID: rp.id, Object: "response", CreatedAt: rp.s.created, Model: rp.s.cfg.Model,
		Status: status, Output: []openai.ResponseItem{}}
}

// response is the whole response of a finished request: completed, or
// incomplete at max_output_tokens, with its output, usage and timings.
func (rp *reply) response(p progress) openai.Response {
	j := rp.st.job
	r := rp.responseHead("completed")
	if j.length {
		r.Status, r.IncompleteDetails = "incomplete", &openai.IncompleteDetails{Reason: "max_output_tokens"}
	}
	if j.reasoning > 0 && p.tokens > 0 {
		r.Output = append(r.Output, rp.reasoningItem(min(j.reasoning, p.tokens), "completed"))
	}
	switch {
	case p.tokens > j.reasoning && j.tool != "":
		r.Output = append(r.Output, rp.callItem(p.tokens, "completed"))
	case p.tokens > j.reasoning:
		r.Output = append(r.Output, rp.messageItem(p.tokens, "completed"))
	}
	u, t := rp.usageOf(p)
	r.Usage = &openai.ResponseUsage{
		InputTokens:         u.PromptTokens,
		InputTokensDetails:  openai.InputTokensDetails{CachedTokens: u.PromptTokensDetails.CachedTokens},
		OutputTokens:        u.CompletionTokens,
		OutputTokensDetails: openai.OutputTokensDetails{ReasoningTokens: min(j.reasoning, p.tokens)},
		TotalTokens:         u.TotalTokens,
	}
	r.SurgeTimings = &t
	return r
}
