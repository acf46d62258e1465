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
	// sentMore counts the tokens of choices 1 to n−1 written so far;
	// offsets and next are each choice's text length before its token
	// next, for completions' text_offset.
	sentMore      []int
	offsets, next []int
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
	case openai.APIRerank:
		return "rerank-"
	case openai.APIScore:
		return "score-"
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
	return rp.appendChoiceToken(dst, 0, i)
}

// appendChoiceToken appends the chat or completions chunk of output
// token i of choice c: each choice streams its tokens in chunks of its
// own, with its index.
func (rp *reply) appendChoiceToken(dst []byte, c, i int) []byte {
	dst = append(dst, "data: "...)
	dst = append(dst, rp.head...)
	dst = append(dst, `"choices":[{"index":`...)
	dst = strconv.AppendInt(dst, int64(c), 10)
	switch {
	case rp.req.chat() && i < rp.st.job.reasoning:
		// vLLM's reasoning parsers stream thinking as reasoning_content.
		dst = append(dst, `,"delta":{"reasoning_content":`...)
	case rp.req.chat() && rp.st.job.tool != "":
		dst = rp.appendToolDelta(dst, i)
	case rp.req.chat():
		dst = append(dst, `,"delta":{"content":`...)
	default:
		dst = append(dst, `,"text":`...)
	}
	if rp.req.chat() && rp.st.job.tool != "" && i >= rp.st.job.reasoning {
		dst = strconv.AppendQuote(dst, rp.argument(i))
		dst = append(dst, "}}]"...) // close the function, the call and tool_calls
	} else {
		dst = strconv.AppendQuote(dst, rp.st.job.text(i))
	}
	if rp.req.chat() {
		dst = append(dst, '}')
	}
	dst = rp.appendLogprobs(dst, c, i)
	dst = append(dst, `,"finish_reason":`...)
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
	dst = append(dst, `,"delta":{"tool_calls":[{"index":0,`...)
	if i == rp.st.job.reasoning {
		dst = append(dst, `"id":"`+toolCallID(rp.id)+`","type":"function","function":{"name":`...)
		dst = strconv.AppendQuote(dst, rp.st.job.tool)
		return append(dst, `,"arguments":`...)
	}
	return append(dst, `"function":{"arguments":`...)
}

// argument is the part of a tool call's JSON arguments that answer token
// i carries: its word, opening the object on the first token carrying
// arguments and closing it on the last, so that the parts join into a
// JSON object.
func (rp *reply) argument(i int) string {
	a := word(i)
	if i == rp.argsFrom() {
		a = `{"input":"` + a
	}
	if i == rp.st.job.outputLen-1 {
		a += `"}`
	}
	return a
}

// argsFrom is the first answer token carrying arguments: the first, but
// in the Messages API the second, as the first is the tool_use block's
// start (its name), which holds no partial input.
func (rp *reply) argsFrom() int {
	if rp.req.api == openai.APIMessages {
		return rp.st.job.reasoning + 1
	}
	return rp.st.job.reasoning
}

// arguments is the whole arguments text of the first tokens of a tool
// call's answer.
func (rp *reply) arguments(tokens int) string {
	var b strings.Builder
	for i := rp.argsFrom(); i < tokens; i++ {
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
	u := openai.UsageDetails{Usage: openai.Usage{PromptTokens: rp.st.job.promptLen, CompletionTokens: p.total(),
		TotalTokens: rp.st.job.promptLen + p.total()}}
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
		buf = rp.appendChoices(buf, p)
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
		for c := range rp.st.job.choices {
			dst = append(dst, "data: "...)
			dst = append(dst, rp.head...)
			dst = append(dst, `"choices":[{"index":`...)
			dst = strconv.AppendInt(dst, int64(c), 10)
			dst = append(dst, `,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}`+"\n\n"...)
		}
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
	case openai.APIRerank:
		writeJSON(w, rp.rerank(p))
		return
	case openai.APIScore:
		writeJSON(w, rp.score(p))
		return
	}
	u, t := rp.usageOf(p)
	object := "text_completion"
	if req.chat() {
		object = "chat.completion"
	}
	writeJSON(w, struct {
		ID      string              `json:"id"`
		Object  string              `json:"object"`
		Created int64               `json:"created"`
		Model   string              `json:"model"`
		Choices []wholeChoice       `json:"choices"`
		Usage   openai.UsageDetails `json:"usage"`
		Timings openai.SurgeTimings `json:"surge_timings"`
	}{rp.id, object, s.created, s.cfg.Model, rp.wholeChoices(p), u, t})
}

// texts returns the reasoning and the answer of the tokens generated so
// far: the first job.reasoning tokens are reasoning.
func (rp *reply) texts(p progress) (reasoning, answer string) {
	var r, a strings.Builder
	for i := range p.tokens {
		if i < rp.st.job.reasoning {
			r.WriteString(rp.st.job.text(i))
		} else {
			a.WriteString(rp.st.job.text(i))
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
