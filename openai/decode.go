package openai

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Info is what timing needs from a chunk or a whole response.
type Info struct {
	// Reasoning reports that some choice carries reasoning text: a
	// non-empty reasoning_content or reasoning.
	Reasoning bool
	// Answer reports that some choice carries answer text or a tool call:
	// a non-empty content, refusal or text, a non-empty tool_calls array or
	// a function_call. A role-only delta carries neither.
	Answer bool
	// ToolCall reports that the event carries tool-call tokens (counted in
	// Answer too): a non-empty chat tool_calls delta or function_call, a
	// Responses function call's start or arguments delta, a Messages
	// tool_use block's start or input_json_delta.
	ToolCall bool
	// ToolCalls counts the tool calls the event starts, or a whole
	// response holds: chat tool_calls entries naming their function, Responses
	// function_call items (added, or in a whole body's output), Messages
	// tool_use blocks.
	ToolCalls int
	// FinishReason is the last non-empty finish_reason of any choice.
	FinishReason string
	// Usage is the usage object, valid when HasUsage.
	Usage    Usage
	HasUsage bool
	// CachedTokens is usage.prompt_tokens_details.cached_tokens: prompt
	// tokens the server took from its prefix cache (vLLM, SGLang, OpenAI,
	// surge's engine).
	CachedTokens int
	// HiddenReasoning is usage.completion_tokens_details.reasoning_tokens:
	// completion tokens spent on reasoning, which OpenAI's reasoning
	// models count but do not send.
	HiddenReasoning int
	// SurgeTimings is the surge_timings member of surge's own engine
	// server, valid when HasSurgeTimings.
	SurgeTimings    SurgeTimings
	HasSurgeTimings bool
	// Timings is llama-server's timings member, valid when HasTimings.
	Timings    Timings
	HasTimings bool
	// End reports an event that ends its stream as [DONE] does: the
	// Responses API's response.completed, response.incomplete and
	// response.failed, the Messages API's message_stop.
	End bool
	// Embeddings counts the vectors of an embeddings response.
	Embeddings int
	// Scores counts the scores of a rerank or score response: the results
	// with a numeric relevance_score, the data with a numeric score.
	Scores int
	// IsError reports an error object: an "error" member that is neither
	// null nor false, or "object": "error" (older vLLM); ErrorMessage is
	// its message when it has one.
	IsError      bool
	ErrorMessage string
}

// Token reports whether the chunk carries any generated token: reasoning,
// answer or tool call.
func (in *Info) Token() bool { return in.Reasoning || in.Answer }

// DecodeChoices is DecodeAPI that also appends to dst the index of each
// choice of a chat or completions event, or whole response, that carries
// a token (reasoning, answer or tool call), in order, and returns it: a
// request for n choices counts each choice's tokens by them. An index
// out of [0, MaxChoices) reads as -1. Other APIs have one choice, 0.
func DecodeChoices(api string, data []byte, dst []int) (Info, []int, error) {
	s := scanner{b: data, tokenChoices: dst, counting: true}
	in, err := s.decodeAPI(api)
	if err == nil && api != "" && api != APIChat && api != APICompletions && in.Token() {
		s.tokenChoices = append(s.tokenChoices, 0)
	}
	return in, s.tokenChoices, err
}

// Decode reads what timing needs from one JSON object: a streamed chunk of
// either API, a whole non-streamed response, or an error body. It reads
// choices[].delta and choices[].message (content, refusal,
// reasoning_content, reasoning, tool_calls, function_call),
// choices[].text, choices[].finish_reason, usage (with
// prompt_tokens_details.cached_tokens and
// completion_tokens_details.reasoning_tokens), surge_timings, llama-server's
// timings, and error, and skips everything else (logprobs) after checking
// its syntax. A number that does not parse as a float64 (out of range) is
// ignored. A member it reads whose value has another type than the
// specification gives it (choices that is not an array, a content that is
// not a string, a count that is not a number) is an error, a *TypeError;
// null is allowed everywhere. Keys match exactly (encoding/json would also
// match other cases). Decode does not allocate
// unless a string it keeps contains escapes. It returns an error if data is
// not a single valid JSON object. DecodeText also returns the text.
func Decode(data []byte) (Info, error) {
	s := scanner{b: data}
	return s.decode()
}

// DecodeAPI is Decode for the stream events and whole responses of api
// (see APIs): chat and completions as Decode reads them; responses and
// messages as their typed events and whole bodies carry them, with their
// usage in chat's terms (Usage.PromptTokens the whole prompt,
// CachedTokens the part read from the cache) and their stop reasons in
// chat's words ("stop", "length", "tool_calls"); embeddings as a body of
// vectors (Info.Embeddings) and a usage; rerank and score as a body of
// scores (Info.Scores) and a usage whose total_tokens stands for the
// prompt's when it has no prompt_tokens. Info.End marks the event that
// ends a responses or messages stream. An unknown api reads as chat.
func DecodeAPI(api string, data []byte) (Info, error) {
	s := scanner{b: data}
	return s.decodeAPI(api)
}

// decodeAPI reads the object s holds as api's, checking that nothing
// follows it.
func (s *scanner) decodeAPI(api string) (Info, error) {
	var in Info
	var err error
	switch api {
	case APIResponses:
		in, err = s.responses()
	case APIMessages:
		in, err = s.messages()
	case APIEmbeddings:
		in, err = s.embeddings()
	case APIRerank:
		in, err = s.rerank()
	case APIScore:
		in, err = s.scores()
	default:
		return s.decode()
	}
	if err == nil {
		err = s.end()
	}
	if err != nil {
		return Info{}, fmt.Errorf("decoding chunk: %w", err)
	}
	return in, nil
}

// decode reads the object s holds for Decode, and for DecodeText when
// s.keep is set.
func (s *scanner) decode() (Info, error) {
	var in Info
	var objectError bool
	var message string
	err := s.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "choices":
			err = s.choices(&in)
		case "usage":
			err = s.usage(&in)
		case "surge_timings":
			err = s.surgeTimings(&in)
		case "timings":
			err = s.timings(&in)
		case "error":
			err = s.errorMember(&in)
		case "object":
			objectError, err = s.isString("error")
		case "message":
			message, err = s.stringValue()
		default:
			err = s.skip()
		}
		return err
	})
	if err == nil {
		err = s.end()
	}
	if err != nil {
		return Info{}, fmt.Errorf("decoding chunk: %w", err)
	}
	if objectError {
		in.IsError = true
		if in.ErrorMessage == "" {
			in.ErrorMessage = message
		}
	}
	return in, nil
}

// choices reads the choices member: null or an array of choice objects.
// For DecodeText, the text of each choice is appended as it is read and cut
// off again at the choice's end unless the choice turns out to be choice 0
// (its index member may come last).
func (s *scanner) choices(in *Info) error {
	if ok, err := s.typed("", keyChoices, '['); !ok {
		return err
	}
	if s.keep {
		s.sink.pos = 0
	}
	return s.array(func() error {
		if s.keep {
			s.sink.beginChoice()
		}
		if ok, err := s.typed("", keyChoice, '{'); !ok {
			return err
		}
		// Whether this choice carries a token: the flags are cleared for
		// it and or-ed back after.
		answer, reasoning := in.Answer, in.Reasoning
		in.Answer, in.Reasoning, s.choice = false, false, 0
		err := s.object(func(key []byte) error { return s.choiceMember(in, key) })
		if s.counting && (in.Answer || in.Reasoning) {
			s.tokenChoice()
		}
		in.Answer, in.Reasoning = in.Answer || answer, in.Reasoning || reasoning
		if s.keep && err == nil {
			s.sink.endChoice()
		}
		return err
	})
}

// tokenChoice notes that the choice being read carries a token.
func (s *scanner) tokenChoice() {
	c := s.choice
	if c < 0 || c >= MaxChoices {
		c = -1
	}
	s.tokenChoices = append(s.tokenChoices, c)
}

// Keys named in type errors where no key is at hand.
var (
	keyChoices = []byte("choices")
	keyChoice  = []byte("choices[]")
)

// choiceMember reads the member key of a choice.
func (s *scanner) choiceMember(in *Info, key []byte) error {
	const path = "choices[]"
	switch string(key) {
	case "delta", "message":
		if ok, err := s.typed(path, key, '{'); !ok {
			return err
		}
		return s.delta(in, key)
	case "text":
		if ok, err := s.typed(path, key, '"'); !ok {
			return err
		}
		var ok bool
		var err error
		if s.keep {
			ok, err = s.appendAnswer()
		} else {
			ok, err = s.nonEmpty()
		}
		in.Answer = in.Answer || ok
		return err
	case "index":
		if ok, err := s.typed(path, key, '0'); !ok {
			return err
		}
		return s.choiceIndex()
	case "finish_reason":
		if ok, err := s.typed(path, key, '"'); !ok {
			return err
		}
		v, err := s.text()
		if len(v) > 0 {
			in.FinishReason = intern(v)
		}
		return err
	}
	return s.skip()
}

// delta reads a delta or message object, the member name of a choice.
func (s *scanner) delta(in *Info, name []byte) error {
	path := "choices[].delta"
	if string(name) == "message" {
		path = "choices[].message"
	}
	if s.keep {
		s.sink.reasoned = false
	}
	return s.object(func(key []byte) error {
		var ok bool
		var err error
		switch string(key) {
		case "content", "refusal":
			if ok, err = s.typed(path, key, '"'); !ok {
				return err
			}
			if s.keep {
				ok, err = s.appendAnswer()
			} else {
				ok, err = s.nonEmpty()
			}
			in.Answer = in.Answer || ok
		case "reasoning_content", "reasoning":
			if ok, err = s.typed(path, key, '"'); !ok {
				return err
			}
			if s.keep {
				ok, err = s.appendReasoning()
			} else {
				ok, err = s.nonEmpty()
			}
			in.Reasoning = in.Reasoning || ok
		case "tool_calls":
			if ok, err = s.typed(path, key, '['); !ok {
				return err
			}
			err = s.chatToolCalls(in)
		case "function_call":
			if ok, err = s.typed(path, key, '{'); !ok {
				return err
			}
			err = s.skip()
			in.Answer, in.ToolCall = true, true
		default:
			err = s.skip()
		}
		return err
	})
}

// chatToolCalls reads a tool_calls array: any entry is a tool-call token,
// and one whose function has a non-empty name starts a call. Streams give
// the name in a call's first delta only (vLLM, OpenAI; llm-d-inference-sim
// repeats the id, but not the name, on every delta). With calls to
// collect, choice 0's entries are added to them, each at its index
// member (else its position in the array).
func (s *scanner) chatToolCalls(in *Info) error {
	collect := s.keep && s.sink.calls != nil && s.sink.index == 0
	pos := 0
	return s.array(func() error {
		in.Answer, in.ToolCall = true, true
		if s.peek() != '{' {
			return s.skip()
		}
		started := false // the last member wins, as in encoding/json
		var part callPart
		key := pos
		pos++
		err := s.object(func(key2 []byte) error {
			switch {
			case collect && string(key2) == "index":
				v, ok, err := s.integer()
				if ok {
					key = v
				}
				return err
			case collect && string(key2) == "id":
				return s.lenientString(&part.id)
			case string(key2) != "function" || s.peek() != '{':
				return s.skip()
			}
			started = false
			return s.object(func(k []byte) error {
				switch string(k) {
				case "name":
					if collect {
						if err := s.lenientString(&part.name); err != nil {
							return err
						}
						started = len(part.name.raw) > 0
						return nil
					}
					var err error
					started, err = s.nonEmpty()
					return err
				case "arguments":
					if collect {
						return s.lenientString(&part.args)
					}
				}
				return s.skip()
			})
		})
		if started {
			in.ToolCalls++
		}
		if collect && err == nil {
			s.sink.calls.apply(key, &part)
		}
		return err
	})
}

// lenientString consumes a value, keeping it in dst if it is a string:
// collecting calls never refuses what Decode reads.
func (s *scanner) lenientString(dst *rawString) error {
	if s.peek() != '"' {
		return s.skip()
	}
	var err error
	dst.raw, dst.escaped, err = s.str()
	return err
}

// usage reads the usage member: null or an object of counts.
func (s *scanner) usage(in *Info) error {
	if ok, err := s.typed("", keyUsage, '{'); !ok {
		return err
	}
	in.HasUsage = true
	return s.object(func(key []byte) error {
		var dst *int
		switch string(key) {
		case "prompt_tokens":
			dst = &in.Usage.PromptTokens
		case "completion_tokens":
			dst = &in.Usage.CompletionTokens
		case "total_tokens":
			dst = &in.Usage.TotalTokens
		case "prompt_tokens_details":
			return s.promptDetails(in, key)
		case "completion_tokens_details":
			return s.completionDetails(in, key)
		default:
			return s.skip()
		}
		return s.count("usage", key, dst)
	})
}

var keyUsage = []byte("usage")

// count reads the number member key of the object at path into dst: a
// number that fits an int (a fraction truncated) is stored, any other
// number ignored, null skipped, and another type refused.
func (s *scanner) count(path string, key []byte, dst *int) error {
	if ok, err := s.typed(path, key, '0'); !ok {
		return err
	}
	v, ok, err := s.integer()
	if ok {
		*dst = v
	}
	return err
}

// errorMember reads the error member: an object with a message, a string
// message, or anything else but null and false, which mean no error.
func (s *scanner) errorMember(in *Info) error {
	c := s.peek()
	start := s.i
	switch c {
	case 'n', 'f':
		return s.skip()
	case '"':
		in.IsError = true
		v, err := s.text()
		in.ErrorMessage = string(v)
		return err
	case '{':
		in.IsError = true
		return s.object(func(key []byte) error {
			if string(key) != "message" {
				return s.skip()
			}
			v, err := s.stringValue()
			if v != "" {
				in.ErrorMessage = v
			}
			return err
		})
	}
	in.IsError = true
	err := s.skip()
	if err == nil {
		in.ErrorMessage = string(s.b[start:s.i])
	}
	return err
}

// isString consumes a value and reports whether it is the string want.
func (s *scanner) isString(want string) (bool, error) {
	if s.peek() != '"' {
		return false, s.skip()
	}
	v, err := s.text()
	return string(v) == want, err
}

// stringValue consumes a value and returns it if it is a string.
func (s *scanner) stringValue() (string, error) {
	if s.peek() != '"' {
		return "", s.skip()
	}
	v, err := s.text()
	return string(v), err
}

// intern returns the common finish reasons without allocating.
func intern(b []byte) string {
	switch string(b) {
	case "stop":
		return "stop"
	case "length":
		return "length"
	case "tool_calls":
		return "tool_calls"
	case "content_filter":
		return "content_filter"
	case "function_call":
		return "function_call"
	case "abort":
		return "abort"
	case "error":
		return "error"
	}
	return string(b)
}

// ErrorText returns a short message for the body of a failed request or
// of an error event: the error's message if body is an error object (or,
// as llama-server's "error:" field carries, a bare object with a message),
// else the body itself; control characters are replaced by spaces and the
// text is cut to at most max bytes on a UTF-8 boundary.
func ErrorText(body []byte, max int) string {
	if in, err := Decode(body); err == nil {
		if in.IsError && in.ErrorMessage != "" {
			return Clip(in.ErrorMessage, max)
		}
		if msg := topMessage(body); msg != "" {
			return Clip(msg, max)
		}
	}
	return Clip(string(body), max)
}

// topMessage returns the string "message" member of a valid JSON object.
func topMessage(body []byte) string {
	s := scanner{b: body}
	var msg string
	_ = s.object(func(key []byte) error {
		if string(key) != "message" {
			return s.skip()
		}
		v, err := s.stringValue()
		msg = v
		return err
	})
	return msg
}

// Clip returns s with control characters replaced by spaces, surrounding
// space trimmed, and cut to at most max bytes on a UTF-8 boundary with "…"
// marking a cut.
func Clip(s string, max int) string {
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s))
	if len(s) <= max {
		return s
	}
	const more = "…"
	cut := max - len(more)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if cut < 0 {
		cut = 0
	}
	return s[:cut] + more
}
