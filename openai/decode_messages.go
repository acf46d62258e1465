package openai

// Anthropic's Messages API streams typed events: message_start (the
// message with its usage so far), then per content block
// content_block_start, content_block_delta events and content_block_stop,
// then message_delta (the stop reason and the cumulative usage) and
// message_stop, which ends the stream; ping events keep it alive and an
// error event ends it with an error. Text, thinking and tool-input deltas
// and the start of a tool_use block carry generated tokens.

// Messages API event types this package acts on.
const (
	eventMessageStop = "message_stop"
	blockToolUse     = "tool_use"
	blockServerTool  = "server_tool_use"
)

// messages reads a Messages API stream event or whole response.
func (s *scanner) messages() (Info, error) {
	var in Info
	var typ, message string
	var part callPart // what a tool_use block's start or input delta says
	var index int
	var call bool
	err := s.object(func(key []byte) error {
		switch string(key) {
		case "type":
			return s.kind("", key, &typ)
		case "index":
			if s.sink.calls == nil {
				return s.skip()
			}
			v, _, err := s.integer()
			index = v
			return err
		case "message":
			if s.peek() == '"' {
				v, err := s.stringValue()
				message = v
				return err
			}
			if ok, err := s.typed("", key, '{'); !ok {
				return err
			}
			return s.object(func(k []byte) error { return s.messageMember(&in, "message", k) })
		case "content_block":
			var err error
			call, err = s.contentBlock(&in, "content_block", &part, false)
			return err
		case "delta":
			return s.messagesDelta(&in, &part)
		case "error":
			return s.errorMember(&in)
		case "surge_timings":
			return s.surgeTimings(&in)
		}
		return s.messageMember(&in, "", key)
	})
	if err != nil {
		return Info{}, err
	}
	if call || len(part.args.raw) > 0 {
		s.sink.calls.apply(index, &part)
	}
	switch typ {
	case eventMessageStop:
		in.End = true
	case eventError:
		in.IsError = true
		if in.ErrorMessage == "" {
			in.ErrorMessage = message
		}
	}
	return in, nil
}

// messageMember reads the member key of a message object at path (""
// for the whole body, "message" for message_start's): its content
// blocks, stop reason and usage.
func (s *scanner) messageMember(in *Info, path string, key []byte) error {
	switch string(key) {
	case "content":
		if ok, err := s.typed(path, key, '['); !ok {
			return err
		}
		p := join(path, "content[]")
		pos := 0
		return s.array(func() error {
			var part callPart
			call, err := s.contentBlock(in, p, &part, true)
			if call && err == nil && path == "" {
				s.sink.calls.apply(pos, &part)
			}
			pos++
			return err
		})
	case "stop_reason":
		return s.stopReason(in, path, key)
	case "usage":
		return s.messagesUsage(in, path, key)
	}
	return s.skip()
}

// contentBlock reads a content block at path (null or an object): text
// is answer, thinking reasoning, and a tool_use block's start is an
// answer token (its name) whose input is not text. It reports whether
// the block is a tool_use block, and, collecting calls, notes its id and
// name in part, and with whole its input, raw.
func (s *scanner) contentBlock(in *Info, path string, part *callPart, whole bool) (bool, error) {
	if ok, err := s.typed("", []byte(path), '{'); !ok {
		return false, err
	}
	var typ string
	err := s.object(func(key []byte) error {
		switch {
		case string(key) == "type":
			return s.kind(path, key, &typ)
		case s.sink.calls == nil:
		case string(key) == "id":
			return s.lenientString(&part.id)
		case string(key) == "name":
			return s.lenientString(&part.name)
		case string(key) == "input" && whole:
			s.ws()
			start := s.i
			err := s.skip()
			part.raw, part.whole = s.b[start:s.i], true
			return err
		}
		return s.blockText(in, path, key)
	})
	call := typ == blockToolUse
	if call || typ == blockServerTool {
		in.Answer, in.ToolCall = true, true
		in.ToolCalls++
	}
	return call, err
}

// messagesDelta reads a delta: a content_block_delta's (text, thinking or
// partial_json; a signature is no token) or a message_delta's (the stop
// reason). Their members do not overlap, so the event's type is not
// needed.
func (s *scanner) messagesDelta(in *Info, part *callPart) error {
	if ok, err := s.typed("", []byte("delta"), '{'); !ok {
		return err
	}
	return s.object(func(key []byte) error {
		switch string(key) {
		case "partial_json":
			if ok, err := s.typed("delta", key, '"'); !ok {
				return err
			}
			var str rawString
			raw, escaped, err := s.str()
			str.raw, str.escaped = raw, escaped
			ok := len(raw) > 0
			if s.sink.calls != nil {
				part.args = str
			}
			in.Answer, in.ToolCall = in.Answer || ok, in.ToolCall || ok
			return err
		case "stop_reason":
			return s.stopReason(in, "delta", key)
		}
		return s.blockText(in, "delta", key)
	})
}

// blockText reads the member key of a block or delta at path: a text
// member is answer, a thinking member reasoning; others are skipped.
func (s *scanner) blockText(in *Info, path string, key []byte) error {
	answer := string(key) == "text"
	if !answer && string(key) != "thinking" {
		return s.skip()
	}
	var str rawString
	if err := s.rawString(path, key, &str); err != nil {
		return err
	}
	if answer {
		s.answerText(in, str)
	} else {
		s.reasoningText(in, str)
	}
	return nil
}

// stopReason reads a stop_reason member into the finish reason, in chat's
// words (see messagesFinish).
func (s *scanner) stopReason(in *Info, path string, key []byte) error {
	var reason string
	err := s.kind(path, key, &reason)
	if f := messagesFinish(reason); f != "" {
		in.FinishReason = f
	}
	return err
}

// messagesFinish is a Messages API stop reason in chat's words: end_turn
// and stop_sequence are "stop", max_tokens "length", tool_use
// "tool_calls", refusal "content_filter"; another reason stays as it is.
func messagesFinish(reason string) string {
	switch reason {
	case "end_turn", "stop_sequence":
		return "stop"
	case "max_tokens":
		return "length"
	case "tool_use":
		return "tool_calls"
	case "refusal":
		return "content_filter"
	}
	return reason
}

// messagesUsage reads a Messages API usage. The prompt is the sum of
// input_tokens, cache_creation_input_tokens and cache_read_input_tokens
// (Anthropic counts the cached parts apart), the cached tokens the last,
// the completion output_tokens (cumulative in message_delta).
func (s *scanner) messagesUsage(in *Info, path string, key []byte) error {
	if ok, err := s.typed(path, key, '{'); !ok {
		return err
	}
	in.HasUsage = true
	p := join(path, "usage")
	var input, created, read int
	err := s.object(func(k []byte) error {
		var dst *int
		switch string(k) {
		case "input_tokens":
			dst = &input
		case "cache_creation_input_tokens":
			dst = &created
		case "cache_read_input_tokens":
			dst = &read
		case "output_tokens":
			dst = &in.Usage.CompletionTokens
		default:
			return s.skip()
		}
		return s.count(p, k, dst)
	})
	in.Usage.PromptTokens = input + created + read
	in.CachedTokens = read
	return err
}
