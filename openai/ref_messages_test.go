package openai

// messages is the reference of a Messages API event or whole body.
func (r *refRun) messages(o *refObject) error {
	var typ, message string
	err := o.each(func(k string, v any, raw []byte) error {
		switch k {
		case "type":
			return refKind(v, &typ)
		case "message":
			if s, ok := v.(string); ok {
				message = s
				return nil
			}
			nested, err := refObj(v)
			if err != nil {
				return err
			}
			return nested.each(func(k string, v any, _ []byte) error { return r.messageMember(k, v) })
		case "content_block":
			return r.block(v)
		case "delta":
			return r.delta(v)
		case "error":
			r.errorMember(v, raw)
			return nil
		case "surge_timings":
			return r.surgeTimings(v)
		}
		return r.messageMember(k, v)
	})
	if err != nil {
		return err
	}
	switch typ {
	case "message_stop":
		r.in.End = true
	case "error":
		r.in.IsError = true
		if r.in.ErrorMessage == "" {
			r.in.ErrorMessage = message
		}
	}
	return nil
}

// messageMember reads a member of a message object.
func (r *refRun) messageMember(k string, v any) error {
	switch k {
	case "content":
		blocks, err := refList(v)
		if err != nil {
			return err
		}
		for _, b := range blocks {
			if err := r.block(b); err != nil {
				return err
			}
		}
	case "stop_reason":
		return r.stopReason(v)
	case "usage":
		return r.messagesUsage(v)
	}
	return nil
}

// block reads a content block.
func (r *refRun) block(v any) error {
	o, err := refObj(v)
	if err != nil || o == nil {
		return err
	}
	var typ string
	err = o.each(func(k string, v any, _ []byte) error {
		switch k {
		case "type":
			return refKind(v, &typ)
		case "text", "thinking":
			return r.blockText(k, v)
		}
		return nil
	})
	if typ == "tool_use" || typ == "server_tool_use" {
		r.in.Answer, r.in.ToolCall = true, true
		r.in.ToolCalls++
	}
	return err
}

// blockText reads a text or thinking member.
func (r *refRun) blockText(k string, v any) error {
	var s string
	if err := refKind(v, &s); err != nil {
		return err
	}
	r.text(s, k == "text")
	return nil
}

// delta reads a content_block_delta's or message_delta's delta.
func (r *refRun) delta(v any) error {
	o, err := refObj(v)
	if err != nil {
		return err
	}
	return o.each(func(k string, v any, _ []byte) error {
		switch k {
		case "partial_json":
			var s string
			if err := refKind(v, &s); err != nil {
				return err
			}
			r.in.Answer = r.in.Answer || s != ""
			r.in.ToolCall = r.in.ToolCall || s != ""
		case "stop_reason":
			return r.stopReason(v)
		case "text", "thinking":
			return r.blockText(k, v)
		}
		return nil
	})
}

// stopReason reads a stop reason in chat's words.
func (r *refRun) stopReason(v any) error {
	var reason string
	if err := refKind(v, &reason); err != nil {
		return err
	}
	words := map[string]string{"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length", "tool_use": "tool_calls", "refusal": "content_filter"}
	if w, ok := words[reason]; ok {
		reason = w
	}
	if reason != "" {
		r.in.FinishReason = reason
	}
	return nil
}

// messagesUsage reads a Messages API usage: the prompt is the sum of
// the three input counts.
func (r *refRun) messagesUsage(v any) error {
	o, err := refObj(v)
	if err != nil || o == nil {
		return err
	}
	r.in.HasUsage = true
	var input, created, read int
	err = o.each(func(k string, v any, _ []byte) error {
		switch k {
		case "input_tokens":
			return refCount(v, &input)
		case "cache_creation_input_tokens":
			return refCount(v, &created)
		case "cache_read_input_tokens":
			return refCount(v, &read)
		case "output_tokens":
			return refCount(v, &r.in.Usage.CompletionTokens)
		}
		return nil
	})
	r.in.Usage.PromptTokens = input + created + read
	r.in.CachedTokens = read
	return err
}

// embeddings is the reference of an embeddings response.
func (r *refRun) embeddings(o *refObject) error {
	var objectError bool
	var message string
	err := o.each(func(k string, v any, raw []byte) error {
		switch k {
		case "data":
			items, err := refList(v)
			if err != nil {
				return err
			}
			for _, it := range items {
				if err := r.vector(it); err != nil {
					return err
				}
			}
		case "usage":
			return r.chatUsage(v)
		case "surge_timings":
			return r.surgeTimings(v)
		case "error":
			r.errorMember(v, raw)
		case "object":
			s, _ := v.(string)
			objectError = s == "error"
		case "message":
			message, _ = v.(string)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if objectError {
		r.in.IsError = true
		if r.in.ErrorMessage == "" {
			r.in.ErrorMessage = message
		}
	}
	return nil
}

// vector reads one element of an embeddings response's data.
func (r *refRun) vector(v any) error {
	o, err := refObj(v)
	if err != nil {
		return err
	}
	return o.each(func(k string, v any, _ []byte) error {
		if k != "embedding" {
			return nil
		}
		switch v.(type) {
		case nil:
		case []any, string:
			r.in.Embeddings++
		default:
			return errRefType
		}
		return nil
	})
}

// chatUsage reads a usage in chat's terms.
func (r *refRun) chatUsage(v any) error {
	o, err := refObj(v)
	if err != nil || o == nil {
		return err
	}
	in := &r.in
	in.HasUsage = true
	return o.each(func(k string, v any, _ []byte) error {
		switch k {
		case "prompt_tokens":
			return refCount(v, &in.Usage.PromptTokens)
		case "completion_tokens":
			return refCount(v, &in.Usage.CompletionTokens)
		case "total_tokens":
			return refCount(v, &in.Usage.TotalTokens)
		case "prompt_tokens_details":
			return refDetail(v, "cached_tokens", &in.CachedTokens)
		case "completion_tokens_details":
			return refDetail(v, "reasoning_tokens", &in.HiddenReasoning)
		}
		return nil
	})
}
