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
	err := s.object(func(key []byte) error {
		switch string(key) {
		case "type":
			return s.kind("", key, &typ)
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
			return s.contentBlock(&in, "content_block")
		case "delta":
			return s.messagesDelta(&in)
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
		return s.array(func() error { return s.contentBlock(in, p) })
	case "stop_reason":
		return s.stopReason(in, path, key)
	case "usage":
		return s.messagesUsage(in, path, key)
	}
	return s.skip()
}

// contentBlock reads a content block at path (null or an object): text
// is answer, thinking reasoning, and a tool_use block's start is an
// answer token (its name) whose input is not text.
func (s *scanner) contentBlock(in *Info, path string) error {
	if ok, err := s.typed("", []byte(path), '{'); !ok {
		return err
	}
	var typ string
	err := s.object(func(key []byte) error {
		if string(key) == "type" {
			return s.kind(path, key, &typ)
		}
		return s.blockText(in, path, key)
	})
	if typ == blockToolUse || typ == blockServerTool {
		in.Answer, in.ToolCall = true, true
		in.ToolCalls++
	}
	return err
}

// messagesDelta reads a delta: a content_block_delta's (text, thinking or
// partial_json; a signature is no token) or a message_delta's (the stop
// reason). Their members do not overlap, so the event's type is not
// needed.
func (s *scanner) messagesDelta(in *Info) error {
	if ok, err := s.typed("", []byte("delta"), '{'); !ok {
		return err
	}
	return s.object(func(key []byte) error {
		switch string(key) {
		case "partial_json":
			if ok, err := s.typed("delta", key, '"'); !ok {
				return err
			}
			ok, err := s.nonEmpty()
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
