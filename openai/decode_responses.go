package openai

// The Responses API streams typed events (a "type" member, repeated in the
// SSE event name) and ends with response.completed, response.incomplete or
// response.failed, which carry the whole response, usage included; there
// is no [DONE]. Only delta events and the start of a function call carry
// generated tokens: the events that close a part or an item repeat the text
// so far, and the final response all of it.

// Responses API event types that carry tokens or end the stream.
const (
	eventOutputText    = "response.output_text.delta"
	eventRefusal       = "response.refusal.delta"
	eventReasoningText = "response.reasoning_text.delta"
	eventSummaryText   = "response.reasoning_summary_text.delta"
	eventArguments     = "response.function_call_arguments.delta"
	eventItemAdded     = "response.output_item.added"
	eventItemDone      = "response.output_item.done"
	eventCompleted     = "response.completed"
	eventIncomplete    = "response.incomplete"
	eventFailed        = "response.failed"
	eventError         = "error"
)

// responseEvent is what the scan of a Responses API object collects
// before its type, which may come last, says what it means.
type responseEvent struct {
	typ      string // the type member, interned
	delta    rawString
	call     bool     // the item member is a function call
	part     callPart // what the item or delta says of a call, collecting calls
	index    int      // the output_index member
	response responseState
	message  string // the top-level message (an error event's)
}

// responseState is what a response object (the whole body, or the
// response member of an event) says about how it ended.
type responseState struct {
	status, reason string
	called         bool // an output item is a function call
}

// responses reads a Responses API stream event or whole response.
func (s *scanner) responses() (Info, error) {
	var in Info
	var ev responseEvent
	err := s.object(func(key []byte) error {
		switch string(key) {
		case "type":
			return s.kind("", key, &ev.typ)
		case "delta":
			return s.rawString("", key, &ev.delta)
		case "output_index":
			if s.sink.calls == nil {
				return s.skip()
			}
			v, _, err := s.integer()
			ev.index = v
			return err
		case "item":
			return s.responseItem(&in, "item", false, &ev.call, &ev.part)
		case "response":
			if ok, err := s.typed("", key, '{'); !ok {
				return err
			}
			return s.object(func(key []byte) error {
				return s.responseMember(&in, &ev.response, "response", key, false)
			})
		case "message":
			v, err := s.stringValue()
			ev.message = v
			return err
		}
		return s.responseMember(&in, &ev.response, "", key, true)
	})
	if err != nil {
		return Info{}, err
	}
	s.responseEnd(&in, &ev)
	return in, nil
}

// responseEnd applies what the event's type says of the members read.
func (s *scanner) responseEnd(in *Info, ev *responseEvent) {
	switch ev.typ {
	case eventOutputText, eventRefusal:
		s.answerText(in, ev.delta)
	case eventReasoningText, eventSummaryText:
		s.reasoningText(in, ev.delta)
	case eventArguments:
		args := len(ev.delta.raw) > 0
		in.Answer, in.ToolCall = in.Answer || args, in.ToolCall || args
		s.sink.calls.apply(ev.index, &callPart{args: ev.delta})
	case eventItemAdded:
		if ev.call {
			in.Answer, in.ToolCall = true, true
			in.ToolCalls++
			s.sink.calls.apply(ev.index, &ev.part)
		}
	case eventItemDone:
		if ev.call {
			ev.part.whole = true
			s.sink.calls.apply(ev.index, &ev.part)
		}
	case eventCompleted, eventIncomplete, eventFailed:
		in.End = true
	case eventError:
		in.IsError = true
		if in.ErrorMessage == "" {
			in.ErrorMessage = ev.message
		}
	}
	st := &ev.response
	if st.status == "failed" {
		in.IsError = true
		if in.ErrorMessage == "" {
			in.ErrorMessage = "response failed"
		}
	}
	if f := responseFinish(st.status, st.reason, st.called); f != "" {
		in.FinishReason = f
	}
}

// responseFinish is the finish reason, in chat's words, of a response
// whose status, incomplete_details.reason and output (called: a function
// call in it) are given: completed is "stop", or "tool_calls" when the
// model called a function; incomplete for max_output_tokens is "length",
// for another reason that reason. A response still in progress or failed
// has none.
func responseFinish(status, reason string, called bool) string {
	switch status {
	case "completed":
		if called {
			return "tool_calls"
		}
		return "stop"
	case "incomplete":
		switch reason {
		case "max_output_tokens":
			return "length"
		case "":
			return "incomplete"
		}
		return reason
	case "cancelled":
		return "cancelled"
	}
	return ""
}

// responseMember reads the member key of a response object at path (""
// for the whole body): its status, why it is incomplete, its usage, its
// error, surge's timings and, in a whole body (tokens), its output items,
// whose text is generated tokens. In an event's response member the
// output repeats what the deltas carried, so only its function calls are
// noted.
func (s *scanner) responseMember(in *Info, st *responseState, path string, key []byte, tokens bool) error {
	switch string(key) {
	case "status":
		return s.kind(path, key, &st.status)
	case "incomplete_details":
		if ok, err := s.typed(path, key, '{'); !ok {
			return err
		}
		return s.object(func(k []byte) error {
			if string(k) != "reason" {
				return s.skip()
			}
			return s.kind(join(path, "incomplete_details"), k, &st.reason)
		})
	case "output":
		if ok, err := s.typed(path, key, '['); !ok {
			return err
		}
		pos := 0
		return s.array(func() error {
			var call bool
			var part callPart
			err := s.responseItem(in, join(path, "output[]"), tokens, &call, &part)
			st.called = st.called || call
			if tokens && call && err == nil {
				s.sink.calls.apply(pos, &part)
			}
			pos++
			return err
		})
	case "usage":
		return s.responseUsage(in, path, key)
	case "error":
		return s.errorMember(in)
	case "surge_timings":
		return s.surgeTimings(in)
	}
	return s.skip()
}

// join is the path of member key inside the object at path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// responseItem reads an output item at path (null or an object), noting
// in call whether it is a function call, and in part its call_id, name
// and arguments when collecting calls. With tokens, its parts' text are
// generated tokens (and a function call one too).
func (s *scanner) responseItem(in *Info, path string, tokens bool, call *bool, part *callPart) error {
	if ok, err := s.typed("", []byte(path), '{'); !ok {
		return err
	}
	var typ string
	err := s.object(func(key []byte) error {
		switch string(key) {
		case "type":
			return s.kind(path, key, &typ)
		case "call_id", "name", "arguments":
			if s.sink.calls == nil {
				return s.skip()
			}
			return s.lenientString(part.member(key))
		case "content", "summary":
			if !tokens {
				return s.skip()
			}
			if ok, err := s.typed(path, key, '['); !ok {
				return err
			}
			p := path + "." + string(key) + "[]"
			return s.array(func() error { return s.responsePart(in, p) })
		}
		return s.skip()
	})
	*call = typ == "function_call"
	if tokens && *call {
		in.Answer, in.ToolCall = true, true
		in.ToolCalls++
	}
	return err
}

// member is where a function call item's member key goes: call_id is
// the call's id.
func (p *callPart) member(key []byte) *rawString {
	switch string(key) {
	case "call_id":
		return &p.id
	case "name":
		return &p.name
	}
	return &p.args
}

// responsePart reads one content part of a whole response's output item:
// the text of output_text parts and the refusal of refusal parts are
// answer, the text of reasoning_text and summary_text parts reasoning.
func (s *scanner) responsePart(in *Info, path string) error {
	if ok, err := s.typed("", []byte(path), '{'); !ok {
		return err
	}
	var typ string
	var text, refusal rawString
	err := s.object(func(key []byte) error {
		switch string(key) {
		case "type":
			return s.kind(path, key, &typ)
		case "text":
			return s.rawString(path, key, &text)
		case "refusal":
			return s.rawString(path, key, &refusal)
		}
		return s.skip()
	})
	if err != nil {
		return err
	}
	switch typ {
	case "output_text":
		s.answerText(in, text)
	case "refusal":
		s.answerText(in, refusal)
	case "reasoning_text", "summary_text":
		s.reasoningText(in, text)
	}
	return nil
}

// rawString is a JSON string as the scanner found it: its contents
// between the quotes, and whether they hold escapes.
type rawString struct {
	raw     []byte
	escaped bool
}

// rawString reads the string member key of the object at path into dst;
// null leaves dst alone.
func (s *scanner) rawString(path string, key []byte, dst *rawString) error {
	ok, err := s.typed(path, key, '"')
	if ok {
		dst.raw, dst.escaped, err = s.str()
	}
	return err
}

// answerText notes a non-empty str as answer text, kept with s.keep.
func (s *scanner) answerText(in *Info, str rawString) {
	if len(str.raw) == 0 {
		return
	}
	in.Answer = true
	if s.keep {
		s.sink.answer = appendUnquoted(s.sink.answer, str.raw, str.escaped)
	}
}

// reasoningText notes a non-empty str as reasoning text, kept with s.keep.
func (s *scanner) reasoningText(in *Info, str rawString) {
	if len(str.raw) == 0 {
		return
	}
	in.Reasoning = true
	if s.keep {
		s.sink.reasoning = appendUnquoted(s.sink.reasoning, str.raw, str.escaped)
	}
}

// responseUsage reads a Responses API usage: input and output tokens, with
// input_tokens_details.cached_tokens and
// output_tokens_details.reasoning_tokens.
func (s *scanner) responseUsage(in *Info, path string, key []byte) error {
	if ok, err := s.typed(path, key, '{'); !ok {
		return err
	}
	in.HasUsage = true
	p := join(path, "usage")
	return s.object(func(k []byte) error {
		var dst *int
		switch string(k) {
		case "input_tokens":
			dst = &in.Usage.PromptTokens
		case "output_tokens":
			dst = &in.Usage.CompletionTokens
		case "total_tokens":
			dst = &in.Usage.TotalTokens
		case "input_tokens_details":
			return s.detail(p, k, "cached_tokens", &in.CachedTokens)
		case "output_tokens_details":
			return s.detail(p, k, "reasoning_tokens", &in.HiddenReasoning)
		default:
			return s.skip()
		}
		return s.count(p, k, dst)
	})
}

// detail reads the object member key of the object at path (null or an
// object), keeping its count member name in dst.
func (s *scanner) detail(path string, key []byte, name string, dst *int) error {
	if ok, err := s.typed(path, key, '{'); !ok {
		return err
	}
	p := path + "." + string(key)
	return s.object(func(k []byte) error {
		if string(k) != name {
			return s.skip()
		}
		return s.count(p, k, dst)
	})
}

// kind reads the string member key of the object at path into dst,
// interning the names this package compares; null leaves dst alone.
func (s *scanner) kind(path string, key []byte, dst *string) error {
	if ok, err := s.typed(path, key, '"'); !ok {
		return err
	}
	v, err := s.text()
	*dst = internKind(v)
	return err
}
