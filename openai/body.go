package openai

import (
	"math"
	"strconv"
)

// AppendJSON appends r encoded as JSON to dst and returns the extended
// buffer. The bytes are those encoding/json writes for r with HTML escaping
// off (fields in declaration order, zero fields omitted), but each string is
// escaped in a single pass straight into dst, so the cost is one copy of the
// prompt. Non-finite Temperature or TopP, which JSON cannot carry, are
// omitted. Reusing dst across calls makes encoding allocation-free.
func (r *Request) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	open := len(dst)
	if r.Model != "" {
		dst = appendKey(dst, open, "model")
		dst = appendString(dst, r.Model)
	}
	dst = appendMessages(dst, open, "messages", r.Messages)
	if r.Prompt != "" {
		dst = appendKey(dst, open, "prompt")
		dst = appendString(dst, r.Prompt)
	}
	dst = appendInt(dst, open, "max_tokens", r.MaxTokens)
	dst = appendInt(dst, open, "min_tokens", r.MinTokens)
	dst = appendTrue(dst, open, "ignore_eos", r.IgnoreEOS)
	dst = appendFloat(dst, open, "temperature", r.Temperature)
	dst = appendFloat(dst, open, "top_p", r.TopP)
	dst = appendTrue(dst, open, "stream", r.Stream)
	if r.StreamOptions != nil {
		dst = appendKey(dst, open, "stream_options")
		dst = append(dst, `{"include_usage":`...)
		dst = strconv.AppendBool(dst, r.StreamOptions.IncludeUsage)
		dst = append(dst, '}')
	}
	if r.Seed != nil {
		dst = strconv.AppendInt(appendKey(dst, open, "seed"), int64(*r.Seed), 10)
	}
	dst = appendTrue(dst, open, "logprobs", r.Logprobs)
	dst = appendChatTools(dst, open, r.Tools)
	dst = appendToolChoice(dst, open, r.ToolChoice, r.ParallelToolCalls)
	dst = appendInt(dst, open, "surge_reasoning_tokens", r.SurgeReasoningTokens)
	return append(dst, '}')
}

// appendKey appends `"name":`, preceded by a comma unless it is the first
// field of the object opened just before dst[open].
func appendKey(dst []byte, open int, name string) []byte {
	if len(dst) > open {
		dst = append(dst, ',')
	}
	dst = append(dst, '"')
	dst = append(dst, name...)
	return append(dst, '"', ':')
}

// appendMessages appends the field name: msgs, an array of chat
// messages, unless msgs is empty: role and content (with images, an
// array of a text part and image_url parts), an assistant's tool calls
// as tool_calls (its content null when it has no text), a tool result as
// role tool with its tool_call_id.
func appendMessages(dst []byte, open int, name string, msgs []Message) []byte {
	if len(msgs) == 0 {
		return dst
	}
	dst = appendKey(dst, open, name)
	dst = append(dst, '[')
	for i := range msgs {
		if i > 0 {
			dst = append(dst, ',')
		}
		m := &msgs[i]
		dst = append(dst, `{"role":`...)
		dst = appendString(dst, m.Role)
		if m.Role == RoleTool {
			dst = appendString(append(dst, `,"tool_call_id":`...), m.CallID)
		}
		dst = append(dst, `,"content":`...)
		if len(m.Calls) > 0 && m.Content == "" {
			dst = append(dst, "null"...)
		} else {
			dst = appendContent(dst, m, chatShape)
		}
		if len(m.Calls) > 0 {
			dst = appendChatCalls(append(dst, `,"tool_calls":`...), m.Calls)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// appendChatCalls appends calls as chat's tool_calls array.
func appendChatCalls(dst []byte, calls []Call) []byte {
	dst = append(dst, '[')
	for i := range calls {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(append(dst, `{"id":`...), calls[i].ID)
		dst = appendString(append(dst, `,"type":"function","function":{"name":`...), calls[i].Name)
		dst = appendString(append(dst, `,"arguments":`...), calls[i].Arguments)
		dst = append(dst, "}}"...)
	}
	return append(dst, ']')
}

// appendTrue appends the field name: true when v is set.
func appendTrue(dst []byte, open int, name string, v bool) []byte {
	if !v {
		return dst
	}
	return append(appendKey(dst, open, name), "true"...)
}

// appendInt appends the field name: v unless v is zero.
func appendInt(dst []byte, open int, name string, v int) []byte {
	if v == 0 {
		return dst
	}
	return strconv.AppendInt(appendKey(dst, open, name), int64(v), 10)
}

// appendFloat appends the field name: *v unless v is nil or not finite,
// formatted as encoding/json does: 'f' for 1e-6 ≤ |v| < 1e21, else 'e'
// with a one-digit negative exponent written e-7, not e-07.
func appendFloat(dst []byte, open int, name string, v *float64) []byte {
	if v == nil || math.IsInf(*v, 0) || math.IsNaN(*v) {
		return dst
	}
	f := *v
	dst = appendKey(dst, open, name)
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if n := len(dst); format == 'e' && n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
		dst[n-2] = dst[n-1]
		dst = dst[:n-1]
	}
	return dst
}
