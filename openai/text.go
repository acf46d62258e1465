package openai

import (
	"unicode/utf16"
	"unicode/utf8"
)

// DecodeText is Decode that also returns the generated text of choice 0,
// for callers that must keep the reply (a multi-turn client appending it
// to the conversation). It appends to answer the content and refusal of
// choices[].delta or choices[].message and the completions API's
// choices[].text, and to reasoning their reasoning_content or reasoning,
// and returns the extended slices.
//
// Strings are decoded as encoding/json decodes them: every escape,
// surrogate pairs joined, and invalid UTF-8 or an unpaired surrogate
// replaced by U+FFFD; an invalid escape is a syntax error, as in Decode.
//
// Choice 0 is the choice whose index member is 0 or, when it has no index
// member that is a number fitting an int, the first element of choices.
// Other choices (n > 1, which surge never asks for) count in Info exactly
// as in Decode, but their text is dropped. Tool calls and function_call
// append nothing, although they make Info.Answer true: a tool-calling turn
// has empty text. When one delta carries both reasoning_content and
// reasoning (servers moving from one name to the other may send the same
// text under both), only the first non-empty one is kept.
//
// Info is always what Decode returns for data. On error answer and
// reasoning are returned as passed, though their spare capacity may have
// been written. DecodeText allocates only to grow answer or reasoning, so
// buffers reused across the chunks of a stream make it allocation-free.
func DecodeText(data, answer, reasoning []byte) (Info, []byte, []byte, error) {
	s := scanner{b: data, keep: true, sink: textSink{answer: answer, reasoning: reasoning}}
	in, err := s.decode()
	if err != nil {
		return Info{}, answer, reasoning, err
	}
	return in, s.sink.answer, s.sink.reasoning, nil
}

// DecodeAPIText is DecodeAPI that also returns the generated text, as
// DecodeText does for chat: the answer (output text and refusals, text
// blocks) and the reasoning (reasoning and summary text, thinking
// blocks) of a responses or messages event or whole body; tool calls and
// embeddings append nothing.
func DecodeAPIText(api string, data, answer, reasoning []byte) (Info, []byte, []byte, error) {
	s := scanner{b: data, keep: true, sink: textSink{answer: answer, reasoning: reasoning}}
	in, err := s.decodeAPI(api)
	if err != nil {
		return Info{}, answer, reasoning, err
	}
	return in, s.sink.answer, s.sink.reasoning, nil
}

// DecodeCalls is DecodeAPIText that also collects the reply's tool calls
// into calls (nil: none are), so that a later turn can send them back with
// their results: chat's choice 0 tool_calls (id, function name, arguments
// pieces joined by index), a Responses function_call item (call_id, name,
// then its arguments deltas by output_index; output_item.done's whole
// arguments replace the pieces), a Messages tool_use block (id, name,
// then its input_json_delta pieces by block index; a whole body's input
// as raw JSON). A stream's final event repeating the whole output adds
// nothing. Info is what DecodeAPI returns; members of the wrong type are
// ignored, not refused. On error calls may hold parts of data.
func DecodeCalls(api string, data, answer, reasoning []byte, calls *Calls) (Info, []byte, []byte, error) {
	s := scanner{b: data, keep: true, sink: textSink{answer: answer, reasoning: reasoning, calls: calls}}
	in, err := s.decodeAPI(api)
	if err != nil {
		return Info{}, answer, reasoning, err
	}
	return in, s.sink.answer, s.sink.reasoning, nil
}

// textSink is where DecodeText collects text while the scanner reads.
type textSink struct {
	answer, reasoning []byte

	pos   int // position in choices of the next element
	index int // the current choice's index: its index member, else its position
	// answerMark and reasoningMark are the lengths before the current
	// choice, to cut its text off again if it is not choice 0.
	answerMark, reasoningMark int
	reasoned                  bool // the current delta has appended reasoning
	// calls, when set, collects the reply's tool calls (DecodeCalls).
	calls *Calls
}

// beginChoice starts the next element of choices.
func (t *textSink) beginChoice() {
	t.index = t.pos
	t.pos++
	t.answerMark, t.reasoningMark = len(t.answer), len(t.reasoning)
}

// endChoice keeps the text of the choice just read only if it is choice 0.
func (t *textSink) endChoice() {
	if t.index != 0 {
		t.answer = t.answer[:t.answerMark]
		t.reasoning = t.reasoning[:t.reasoningMark]
	}
}

// choiceIndex consumes a choice's index member, which sets the choice's
// index if it is a number fitting an int (a fraction truncated).
func (s *scanner) choiceIndex() error {
	v, ok, err := s.integer()
	if ok {
		s.choice = v
		if s.keep {
			s.sink.index = v
		}
	}
	return err
}

// appendAnswer consumes a value, appends it to the answer if it is a
// string, and reports whether it is a non-empty string.
func (s *scanner) appendAnswer() (bool, error) {
	if s.peek() != '"' {
		return false, s.skip()
	}
	raw, escaped, err := s.str()
	if err != nil {
		return false, err
	}
	s.sink.answer = appendUnquoted(s.sink.answer, raw, escaped)
	return len(raw) > 0, nil
}

// appendReasoning consumes a value, appends it to the reasoning if it is a
// non-empty string and the current delta has appended none yet, and
// reports whether it is a non-empty string.
func (s *scanner) appendReasoning() (bool, error) {
	if s.peek() != '"' {
		return false, s.skip()
	}
	raw, escaped, err := s.str()
	if err != nil || len(raw) == 0 {
		return false, err
	}
	if !s.sink.reasoned {
		s.sink.reasoned = true
		s.sink.reasoning = appendUnquoted(s.sink.reasoning, raw, escaped)
	}
	return true, nil
}

// appendUnquoted appends to dst the decoded contents of a JSON string:
// raw is the text between its quotes, already validated by scanner.str,
// and escaped says whether it contains a backslash. Like encoding/json it
// replaces each byte of invalid UTF-8, and each \u escape of a surrogate
// that is not the first half of a pair followed by its second, by U+FFFD.
// Runs of plain ASCII are copied whole.
func appendUnquoted(dst, raw []byte, escaped bool) []byte {
	if !escaped && utf8.Valid(raw) {
		return append(dst, raw...)
	}
	for i := 0; i < len(raw); {
		j := i
		for j < len(raw) && raw[j] != '\\' && raw[j] < utf8.RuneSelf {
			j++
		}
		dst = append(dst, raw[i:j]...)
		if i = j; i == len(raw) {
			break
		}
		if raw[i] != '\\' {
			r, size := utf8.DecodeRune(raw[i:])
			dst = utf8.AppendRune(dst, r)
			i += size
			continue
		}
		c := raw[i+1]
		i += 2
		switch c {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			var r rune
			r, i = unicodeEscape(raw, i)
			dst = utf8.AppendRune(dst, r)
		default: // '"', '\\' and '/' stand for themselves
			dst = append(dst, c)
		}
	}
	return dst
}

// unicodeEscape decodes the 4 hex digits of a \u escape at raw[i:], and
// when they are a surrogate, the \u escape right after them that completes
// the pair. It returns the rune, U+FFFD for an unpaired surrogate, and the
// position after what it consumed (a second escape that does not pair is
// left to be read on its own).
func unicodeEscape(raw []byte, i int) (rune, int) {
	r := hex4(raw[i:])
	i += 4
	if !utf16.IsSurrogate(r) {
		return r, i
	}
	if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
		if pair := utf16.DecodeRune(r, hex4(raw[i+2:])); pair != utf8.RuneError {
			return pair, i + 6
		}
	}
	return utf8.RuneError, i
}

// hex4 returns the value of the 4 hex digits starting b, or -1 if they
// are not hex digits.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}
