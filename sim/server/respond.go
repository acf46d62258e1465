package server

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"surge/openai"
)

// reply holds what every chunk and response of one request repeats.
type reply struct {
	s    *Server
	req  request
	st   *stream
	id   string
	head []byte // `{"id":…,"object":…,"created":…,"model":…,` of chat and completions chunks
	// p is the latest progress of the request, seq the number of the
	// next event of a Responses stream.
	p   progress
	seq int
	// firstWrite is when the handler flushed the first token to the
	// client: the server's TTFT counts to it, not to the engine step that
	// made the token, since with a thousand streams writing one step's
	// tokens out takes milliseconds.
	firstWrite time.Time
}

// idPrefix is the prefix of an API's response IDs.
func idPrefix(api string) string {
	switch api {
	case openai.APIChat:
		return "chatcmpl-"
	case openai.APIResponses:
		return "resp_"
	case openai.APIMessages:
		return "msg_"
	case openai.APIEmbeddings:
		return "embd-"
	}
	return "cmpl-"
}

func (s *Server) newReply(req request, st *stream, object string) *reply {
	id := idPrefix(req.api) + strconv.FormatUint(st.id, 10)
	model, _ := json.Marshal(s.cfg.Model)
	head := `{"id":"` + id + `","object":"` + object + `","created":` + strconv.FormatInt(s.created, 10) +
		`,"model":` + string(model) + `,`
	return &reply{s: s, req: req, st: st, id: id, head: []byte(head)}
}

// finishReason is "length" when the output stopped at the token cap,
// "tool_calls" when it called a tool.
func finishReason(j job) string {
	switch {
	case j.length:
		return "length"
	case j.tool != "":
		return "tool_calls"
	}
	return "stop"
}

// appendToken appends the SSE events of output token i (0-based) in the
// request's API: a chunk whose last token carries the finish reason, or
// a delta event after those that open its item or block.
func (rp *reply) appendToken(dst []byte, i int) []byte {
	switch rp.req.api {
	case openai.APIResponses:
		return rp.appendResponsesToken(dst, i)
	case openai.APIMessages:
		return rp.appendMessagesToken(dst, i)
	}
	dst = append(dst, "data: "...)
	dst = append(dst, rp.head...)
	switch {
	case rp.req.chat() && i < rp.st.job.reasoning:
		// vLLM's reasoning parsers stream thinking as reasoning_content.
		dst = append(dst, `"choices":[{"index":0,"delta":{"reasoning_content":`...)
	case rp.req.chat() && rp.st.job.tool != "":
		dst = rp.appendToolDelta(dst, i)
	case rp.req.chat():
		dst = append(dst, `"choices":[{"index":0,"delta":{"content":`...)
	default:
		dst = append(dst, `"choices":[{"index":0,"text":`...)
	}
	if rp.req.chat() && rp.st.job.tool != "" && i >= rp.st.job.reasoning {
		dst = strconv.AppendQuote(dst, rp.argument(i))
		dst = append(dst, "}}]"...) // close the function, the call and tool_calls
	} else {
		dst = strconv.AppendQuote(dst, word(i))
	}
	if rp.req.chat() {
		dst = append(dst, '}')
	}
	dst = append(dst, `,"logprobs":null,"finish_reason":`...)
	if i == rp.st.job.outputLen-1 {
		dst = strconv.AppendQuote(dst, finishReason(rp.st.job))
	} else {
		dst = append(dst, "null"...)
	}
	return append(dst, "}]}\n\n"...)
}

// appendToolDelta opens the tool_calls delta of answer token i, up to
// the arguments' string: the first answer token starts the call, with its
// id and the function's name, as vLLM's tool parsers stream it.
func (rp *reply) appendToolDelta(dst []byte, i int) []byte {
	dst = append(dst, `"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,`...)
	if i == rp.st.job.reasoning {
		dst = append(dst, `"id":"`+toolCallID(rp.id)+`","type":"function","function":{"name":`...)
		dst = strconv.AppendQuote(dst, rp.st.job.tool)
		return append(dst, `,"arguments":`...)
	}
	return append(dst, `"function":{"arguments":`...)
}

// argument is the part of a tool call's JSON arguments that answer token
// i carries: its word, opening the object on the first answer token and
// closing it on the last, so that the parts join into a JSON object.
func (rp *reply) argument(i int) string {
	a := word(i)
	if i == rp.st.job.reasoning {
		a = `{"input":"` + a
	}
	if i == rp.st.job.outputLen-1 {
		a += `"}`
	}
	return a
}

// arguments is the whole arguments text of the first tokens of a tool
// call's answer.
func (rp *reply) arguments(tokens int) string {
	var b strings.Builder
	for i := rp.st.job.reasoning; i < tokens; i++ {
		b.WriteString(rp.argument(i))
	}
	return b.String()
}

// toolCallID is the id of the tool call of the response id.
func toolCallID(id string) string { return "call_" + id }

// usageOf returns the usage and timings of a finished request, whose last
// bytes are being written now: its TTFT counts to the flush of its first
// token (or to now, if that is in this last write), its E2E to now.
func (rp *reply) usageOf(p progress) (openai.UsageDetails, openai.SurgeTimings) {
	u := openai.UsageDetails{Usage: openai.Usage{PromptTokens: rp.st.job.promptLen, CompletionTokens: p.tokens,
		TotalTokens: rp.st.job.promptLen + p.tokens}}
	u.PromptTokensDetails.CachedTokens = p.cached
	now := time.Now()
	first := rp.firstWrite
	if first.IsZero() {
		first = now
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return u, openai.SurgeTimings{QueuedMS: ms(p.queued), TTFTMS: ms(first.Sub(rp.st.arrival)), E2EMS: ms(now.Sub(rp.st.arrival))}
}

// writeStream streams the request as Server-Sent Events until it ends or
// the client goes away, in which case the request is aborted.
func (s *Server) writeStream(w http.ResponseWriter, r *http.Request, req request, st *stream, pl plan) {
	object := "text_completion"
	if req.chat() {
		object = "chat.completion.chunk"
	}
	rp := s.newReply(req, st, object)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	sf := streamFaults{s: s, w: w, r: r, rc: rc, rp: rp, restarted: pl.restarted, pending: pl.stream}
	buf := rp.appendStart(nil)
	sent := 0
	for {
		if len(buf) > 0 {
			if _, err := w.Write(buf); err != nil {
				s.abort(st.id)
				return
			}
			rc.Flush()
			if sent > 0 && rp.firstWrite.IsZero() {
				rp.firstWrite = time.Now()
			}
			buf = buf[:0]
		}
		select {
		case <-st.notify:
		case <-r.Context().Done():
			s.abort(st.id)
			return
		}
		p := st.snapshot()
		cutOnRestart(p)
		rp.p = p
		var ok bool
		for ; sent < p.tokens; sent++ {
			if buf, ok = sf.before(sent, buf); !ok {
				s.abort(st.id)
				return
			}
			buf = rp.appendToken(buf, sent)
		}
		if p.done {
			if buf, ok = sf.before(sent, buf); !ok {
				return // the engine has finished the request: nothing to abort
			}
			buf = rp.appendEnd(buf, p)
			w.Write(buf)
			rc.Flush()
			return
		}
	}
}

// appendStart appends the events that open a stream, before its first
// token: chat's role-only chunk, the Responses API's response.created and
// response.in_progress.
func (rp *reply) appendStart(dst []byte) []byte {
	switch {
	case rp.req.api == openai.APIResponses:
		return rp.appendResponsesStart(dst)
	case rp.req.chat():
		dst = append(dst, "data: "...)
		dst = append(dst, rp.head...)
		return append(dst, `"choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}`+"\n\n"...)
	}
	return dst
}

// appendEnd appends the events closing a stream: an error, or the usage
// chunk when asked for, then [DONE]; or the closing events of the
// Responses or Messages API.
func (rp *reply) appendEnd(dst []byte, p progress) []byte {
	switch rp.req.api {
	case openai.APIResponses:
		return rp.appendResponsesEnd(dst, p)
	case openai.APIMessages:
		return rp.appendMessagesEnd(dst, p)
	}
	if p.failure != nil {
		body, _ := json.Marshal(openai.ErrorResponse{Error: openai.ErrorDetail{
			Message: p.failure.msg, Type: p.failure.typ, Code: p.failure.status}})
		dst = append(dst, "data: "...)
		dst = append(dst, body...)
		return append(dst, "\n\n"...)
	}
	if rp.req.includeUsage {
		u, t := rp.usageOf(p)
		tail, _ := json.Marshal(struct {
			Usage   openai.UsageDetails `json:"usage"`
			Timings openai.SurgeTimings `json:"surge_timings"`
		}{u, t})
		dst = append(dst, "data: "...)
		dst = append(dst, rp.head...)
		dst = append(dst, `"choices":[],`...)
		dst = append(dst, tail[1:]...) // the members, without the opening brace
		dst = append(dst, "\n\n"...)
	}
	return append(dst, "data: [DONE]\n\n"...)
}

// writeWhole waits for the request to finish and writes one JSON response.
func (s *Server) writeWhole(w http.ResponseWriter, r *http.Request, req request, st *stream) {
	var p progress
	for !p.done {
		select {
		case <-st.notify:
		case <-r.Context().Done():
			s.abort(st.id)
			return
		}
		p = st.snapshot()
	}
	cutOnRestart(p)
	if p.failure != nil {
		writeError(w, p.failure)
		return
	}
	rp := s.newReply(req, st, "")
	switch req.api {
	case openai.APIResponses:
		writeJSON(w, rp.response(p))
		return
	case openai.APIMessages:
		writeJSON(w, rp.message(p))
		return
	case openai.APIEmbeddings:
		writeJSON(w, rp.embeddings(p))
		return
	}
	// Completions have no reasoning field: their text holds every token.
	reasoning, answer := rp.texts(p)
	if !req.chat() {
		reasoning, answer = "", reasoning+answer
	}
	u, t := rp.usageOf(p)
	finish := finishReason(st.job)
	c := openai.Choice{FinishReason: &finish}
	object := "text_completion"
	if req.chat() {
		object = "chat.completion"
		c.Message = &openai.Delta{Role: "assistant", Content: &answer, ReasoningContent: reasoning}
		if st.job.tool != "" {
			c.Message.Content = nil
			c.Message.ToolCalls = []openai.ToolCall{{ID: toolCallID(rp.id), Type: "function",
				Function: openai.FunctionCall{Name: st.job.tool, Arguments: rp.arguments(p.tokens)}}}
		}
	} else {
		c.Text = &answer
	}
	writeJSON(w, struct {
		ID      string              `json:"id"`
		Object  string              `json:"object"`
		Created int64               `json:"created"`
		Model   string              `json:"model"`
		Choices []openai.Choice     `json:"choices"`
		Usage   openai.UsageDetails `json:"usage"`
		Timings openai.SurgeTimings `json:"surge_timings"`
	}{rp.id, object, s.created, s.cfg.Model, []openai.Choice{c}, u, t})
}

// texts returns the reasoning and the answer of the tokens generated so
// far: the first job.reasoning tokens are reasoning.
func (rp *reply) texts(p progress) (reasoning, answer string) {
	var r, a strings.Builder
	for i := range p.tokens {
		if i < rp.st.job.reasoning {
			r.WriteString(word(i))
		} else {
			a.WriteString(word(i))
		}
	}
	return r.String(), a.String()
}

// writeJSON writes v as a 200 JSON response.
func writeJSON(w http.ResponseWriter, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		writeError(w, &apiError{status: http.StatusInternalServerError, typ: "InternalServerError", msg: err.Error()})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}
